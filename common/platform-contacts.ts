/**
 * How to reach the platform, as its public pages (the footer, /contact, the landing page, /legal)
 * show it: from Platform Settings only. A field that is null is not set, and is left out rather
 * than filled with a made-up address (issue 38 §6).
 */
export interface PlatformContacts {
  email: string | null;
  phone: string | null;
  chatUrl: string | null;
  legalName: string | null;
  address: string | null;
}

/** A `tel:` link for a number as typed: digits and a leading plus only. */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;
