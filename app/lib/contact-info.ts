/** The platform's contact texts (spec §1 "Contact text"); addresses come from the server's settings. */
export const CONTACT_TEXTS = {
  email: "We reply within 24 hours.",
  phone: "Mon-Fri 9AM-6PM IST",
  chat: "Available 24/7",
  location: "Kolkata, India",
} as const;

export interface SupportContacts {
  email: string | null;
  phone: string | null;
  chatUrl: string | null;
}
