/**
 * The platform's published facts, in one place: contact details, hours and the marketing claims
 * of the spec (§1). Pages read them from here so a change is made once.
 */
export const CONTACT = {
  email: "support@pathshala.in",
  salesEmail: "sales@pathshala.in",
  investorsEmail: "investors@pathshala.in",
  phone: "+91 33 4050 6070",
  phoneHref: "tel:+913340506070",
  whatsappHref: "https://wa.me/913340506070",
  location: "Kolkata, India",
  address: "Salt Lake Sector V, Kolkata, West Bengal 700091, India",
} as const;

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
