import { eq } from "drizzle-orm";
import { centers } from "../db/schema/index.ts";
import type { DbOrTx } from "../db/types.ts";
import type { Role } from "#common/validation/account.ts";
import type { LinkCenter } from "../messages/links.ts";

/** The site an account lives on: an institute (its id and address) or the platform (null). */
export interface AccountHome {
  centerId: string | null;
  center: LinkCenter | null;
}

export const PLATFORM_HOME: AccountHome = { centerId: null, center: null };

/**
 * Where an account lives (decision 0028): admins, businesses and creators on the platform; a
 * student on the institute they signed up on, else (signed up on the platform, or their
 * institute is gone) the platform. Links in messages to the account lead there, its messages
 * carry that site's name, and its reset and e-mail change links work only there.
 */
export async function accountHome(
  db: DbOrTx,
  user: { role: Role; signupCenterId: string | null },
): Promise<AccountHome> {
  if (user.role !== "student" || !user.signupCenterId) return PLATFORM_HOME;
  const [center] = await db
    .select({ slug: centers.slug, customDomain: centers.customDomain })
    .from(centers)
    .where(eq(centers.id, user.signupCenterId));
  return center ? { centerId: user.signupCenterId, center } : PLATFORM_HOME;
}

/** Whether a site (an institute's id, or null/undefined for the platform) is the one `home` names. */
export function isHomeSite(home: AccountHome, centerId: string | null | undefined): boolean {
  return home.centerId === (centerId ?? null);
}
