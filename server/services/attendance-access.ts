import { and, eq } from "drizzle-orm";
import { batchTeachers, classSessions, guardians } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { HttpError, notFound } from "../http/errors.ts";
import { can, membershipOf } from "../auth/permissions.ts";
import { INSTITUTE_NOT_FOUND, NO_ATTENDANCE_ROLE } from "#common/validation/attendance-reports.ts";

/**
 * Whose attendance a person may read in an institute (issue 41 §4), decided once for every report:
 * - `institute`: those who run its batches (batches.manage: owners and staff) see everyone;
 * - `teacher`: attendance.view without running batches (a teacher, a creator who teaches) sees the
 *   batches they teach: those they are a teacher of, and those whose sessions they took (a
 *   substitute's too);
 * - `student`: a student sees their own record only;
 * - `family`: a parent sees the records of the children they hold an active link to there
 *   (decision 0047), and no other;
 * - anyone else with a role there is refused, and someone with no role there is told the
 *   institute is not found.
 */
export type AttendanceViewer =
  | { scope: "institute"; userId: string; centerId: string }
  | { scope: "teacher"; userId: string; centerId: string; batchIds: string[] }
  | { scope: "student"; userId: string; centerId: string }
  | { scope: "family"; userId: string; centerId: string; studentIds: string[] };

export async function attendanceViewer(db: Db, userId: string, centerId: string): Promise<AttendanceViewer> {
  const membership = await membershipOf(db, userId, centerId);
  if (!membership || membership.roles.length === 0) throw notFound(INSTITUTE_NOT_FOUND);
  if (can(membership, "batches.manage") && can(membership, "attendance.view"))
    return { scope: "institute", userId, centerId };
  if (can(membership, "attendance.view"))
    return { scope: "teacher", userId, centerId, batchIds: await taughtBatches(db, userId, centerId) };
  if (membership.roles.includes("student")) return { scope: "student", userId, centerId };
  const children = await db
    .select({ studentId: guardians.studentId })
    .from(guardians)
    .where(and(eq(guardians.parentId, userId), eq(guardians.centerId, centerId), eq(guardians.status, "active")));
  if (children.length) return { scope: "family", userId, centerId, studentIds: children.map((c) => c.studentId) };
  throw new HttpError(403, NO_ATTENDANCE_ROLE);
}

/** The institute's batches `userId` teaches: named as a teacher, or having taken one of its sessions. */
async function taughtBatches(db: Db, userId: string, centerId: string): Promise<string[]> {
  const named = await db
    .select({ batchId: batchTeachers.batchId })
    .from(batchTeachers)
    .where(and(eq(batchTeachers.userId, userId), eq(batchTeachers.centerId, centerId)));
  const taken = await db
    .selectDistinct({ batchId: classSessions.batchId })
    .from(classSessions)
    .where(and(eq(classSessions.teacherId, userId), eq(classSessions.centerId, centerId)));
  return [...new Set([...named, ...taken].map((r) => r.batchId))];
}

/** Whether the viewer may see batch `batchId` (an institute's people any of its batches). */
export const seesBatch = (viewer: AttendanceViewer, batchId: string) =>
  viewer.scope === "institute" || (viewer.scope === "teacher" && viewer.batchIds.includes(batchId));
