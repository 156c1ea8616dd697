import type { Context } from "hono";
import type { AppEnv } from "../middleware/types.ts";
import type { Db } from "../db/types.ts";
import { notFound } from "../http/errors.ts";
import { can, membershipOf } from "../auth/permissions.ts";
import { requireAuth } from "./guards.ts";
import { centerOnThisSite } from "./member-guard.ts";
import { isGuardianOf } from "../db/families.ts";

/**
 * Who may reach a fee account, receipt or due (issue 42): `standing` is the caller's standing
 * towards one of institute `centerId` owned by `studentId`: its manager (fees.manage), the
 * student it is for, or a parent linked to that student there (decision 0047); anyone else
 * (another institute, another family, no role) finds nothing (404 `missing`).
 * `managerOf` is the same for what only its managers may do: the student finds nothing either.
 */
export function feeStanding(db: Db) {
  const standing = async (c: Context<AppEnv>, centerId: string | null, studentId: string | null, missing: string) => {
    const { user } = requireAuth(c);
    const here = centerOnThisSite(c, centerId, missing);
    const membership = await membershipOf(db, user.id, here);
    if (can(membership, "fees.manage")) return { user, centerId: here, manager: true };
    if (studentId && (studentId === user.id || (await isGuardianOf(db, user.id, studentId, here))))
      return { user, centerId: here, manager: false };
    throw notFound(missing);
  };
  const managerOf = (c: Context<AppEnv>, centerId: string | null, missing: string) =>
    standing(c, centerId, null, missing);
  return { standing, managerOf };
}
