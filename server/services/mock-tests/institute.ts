import { currentTenantScope } from "../../db/tenant-scope.ts";
import { badRequest } from "../../http/errors.ts";
import type { Reader } from "../content-access.ts";

export const INSTITUTE_TEXTS = {
  notYourBusiness: "Please choose an institute whose team you are on",
  otherInstitute: "On an institute's site, its tests and series belong to that institute",
} as const;

/**
 * The institute a test or series goes to: on an institute's domain, that institute (another is
 * refused, as its rows could not be written there); on the platform, the one chosen, if any. The
 * author must be on its team.
 */
export async function instituteFor(
  author: Reader,
  chosen: string | null | undefined,
  assignable: (reader: Reader) => Promise<{ _id: string }[]>,
): Promise<string | null> {
  const site = currentTenantScope() || null;
  if (site && chosen && chosen !== site) throw badRequest(INSTITUTE_TEXTS.otherInstitute);
  const businessId = chosen ?? site;
  if (businessId && !(await assignable(author)).some((b) => b._id === businessId))
    throw badRequest(INSTITUTE_TEXTS.notYourBusiness);
  return businessId;
}
