import type { SiteProfile } from "../db/schema/users-and-centers.ts";

/**
 * A new institute's site profile: its contact details are the owner's own from the setup wizard,
 * never samples. One function for both ways an institute is made (a paid plan and a free trial),
 * so that a trial's site shows the owner's contacts exactly as a paid one does (issue 38 §6).
 */
export function ownerContactProfile(owner: { email: string; phone?: string | null }): SiteProfile {
  const phone = owner.phone?.trim();
  return { contactEmail: owner.email, ...(phone ? { phone } : {}) };
}
