import { eq, sql } from "drizzle-orm";
import { attendancePolicies } from "../db/schema/index.ts";
import type { DbOrTx } from "../db/types.ts";
import { parseWith } from "../http/errors.ts";
import {
  ATTENDANCE_POLICY_DEFAULTS,
  AttendancePolicyInput,
  type AttendancePolicyJson,
} from "#common/validation/attendance-reports.ts";

/**
 * An institute's attendance rules (issue 41 §3–4): the late threshold, the online minimum, the
 * low-attendance flag and whether absences are told. An institute that never saved its policy has
 * the defaults (no row is written for it until it does).
 */
export class AttendancePolicyService {
  private readonly db: DbOrTx;

  constructor(deps: { db: DbOrTx }) {
    this.db = deps.db;
  }

  async get(centerId: string, db: DbOrTx = this.db): Promise<AttendancePolicyJson> {
    const [row] = await db.select().from(attendancePolicies).where(eq(attendancePolicies.centerId, centerId));
    if (!row) return { centerId, ...ATTENDANCE_POLICY_DEFAULTS, updatedAt: null };
    return {
      centerId,
      lateAfterMinutes: row.lateAfterMinutes,
      onlineMinimumMinutes: row.onlineMinimumMinutes,
      lowAttendancePercent: row.lowAttendancePercent,
      absenceAlerts: row.absenceAlerts,
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  /** Saves the whole policy (checked here too: pages call this with form values). */
  async put(centerId: string, input: unknown): Promise<AttendancePolicyJson> {
    const { lateAfterMinutes, onlineMinimumMinutes, lowAttendancePercent, absenceAlerts } = parseWith(
      AttendancePolicyInput,
      input,
    );
    const values = { lateAfterMinutes, onlineMinimumMinutes, lowAttendancePercent, absenceAlerts };
    await this.db
      .insert(attendancePolicies)
      .values({ centerId, ...values })
      .onConflictDoUpdate({ target: attendancePolicies.centerId, set: { ...values, updatedAt: sql`now()` } });
    return this.get(centerId);
  }
}
