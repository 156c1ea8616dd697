/**
 * The platform's published facts, in one place: contact details, hours and the marketing claims
 * of the spec (§1). Pages read them from here so a change is made once.
 */
/** Where the platform is, as the spec's contact page says it; its addresses come from Platform Settings. */
export const LOCATION = "Kolkata, India";

export const HOURS = {
  phone: "Mon-Fri 9AM-6PM IST",
  chat: "24/7",
  email: "24/7",
  emailReply: "We reply within 24 hours",
  sales: ["Mon-Fri 9AM-7PM IST", "Sat 10AM-4PM IST"],
} as const;

export const STATS = [
  { value: "1,200+", label: "Institutes" },
  { value: "50,000+", label: "Students" },
  { value: "98%", label: "Satisfaction" },
  { value: "300%", label: "Average growth" },
] as const;

export const SEMINAR_DATE_LINE = "Online seminar · 13th September onwards";
