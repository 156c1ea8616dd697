import { eq } from "drizzle-orm";
import { attendancePolicies } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/types.ts";
import { DEFAULT_LATE_AFTER_MINUTES, DEFAULT_ONLINE_MINIMUM_MINUTES } from "#common/validation/attendance.ts";

export interface AttendanceRules {
  lateAfterMinutes: number;
  onlineMinimumMinutes: number;
}

/** The institute's attendance rules; an institute without a policy row has the defaults. */
export async function rulesOf(db: DbOrTx, centerId: string): Promise<AttendanceRules> {
  const [row] = await db
    .select({
      lateAfterMinutes: attendancePolicies.lateAfterMinutes,
      onlineMinimumMinutes: attendancePolicies.onlineMinimumMinutes,
    })
    .from(attendancePolicies)
    .where(eq(attendancePolicies.centerId, centerId));
  return row ?? { lateAfterMinutes: DEFAULT_LATE_AFTER_MINUTES, onlineMinimumMinutes: DEFAULT_ONLINE_MINIMUM_MINUTES };
}
