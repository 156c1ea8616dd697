import { and, eq, inArray } from "drizzle-orm";
import { attendanceMarkChanges, attendanceMarks, attendanceRegisters } from "../../db/schema/index.ts";
import type { DbOrTx, Tx } from "../../db/types.ts";
import type { AttendanceSource, AttendanceStatus } from "#common/validation/attendance.ts";
import type { SessionRow } from "./sessions.ts";

/**
 * The one row per student per session (`attendance_marks`) and the rule that merges its inputs
 * into it (decision 0044): a teacher's mark (roll-call, correction) always wins over automatic
 * inputs; automatic inputs (QR, online) only set rows no teacher has marked, and between them the
 * better status wins. Every change of an existing mark is appended to its history.
 */

export type MarkRow = typeof attendanceMarks.$inferSelect;

const TEACHER_SOURCES: readonly AttendanceSource[] = ["roll-call", "correction"];
/** Between automatic inputs, the better status wins. */
const RANK: Record<AttendanceStatus, number> = { excused: 0, absent: 1, late: 2, present: 3 };

/**
 * The session's register row, made if missing and held until the transaction ends: every write
 * to the session's marks takes it first, so simultaneous ones are applied one at a time.
 */
export async function lockRegister(tx: Tx, session: Pick<SessionRow, "id" | "centerId">) {
  await tx
    .insert(attendanceRegisters)
    .values({ sessionId: session.id, centerId: session.centerId })
    .onConflictDoNothing();
  const [row] = await tx
    .select({ closedAt: attendanceRegisters.closedAt })
    .from(attendanceRegisters)
    .where(eq(attendanceRegisters.sessionId, session.id))
    .for("update");
  return row;
}

/** The session's marks (of `userIds` when given), by student. */
export async function marksOf(db: DbOrTx, sessionId: string, userIds?: string[]): Promise<Map<string, MarkRow>> {
  if (userIds && userIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(attendanceMarks)
    .where(
      and(eq(attendanceMarks.sessionId, sessionId), userIds ? inArray(attendanceMarks.userId, userIds) : undefined),
    );
  return new Map(rows.map((r) => [r.userId, r]));
}

export interface NewMark {
  userId: string;
  status: AttendanceStatus;
  minutesLate: number | null;
  source: AttendanceSource;
  seq: number;
  byId: string | null;
  at: Date;
  /** A correction's reason: the change is kept in the history even when it is the first mark. */
  reason?: string;
}

/** Writes a mark over `existing` (whatever made it), appending the change to the history. */
export async function writeMark(tx: Tx, session: SessionRow, existing: MarkRow | undefined, mark: NewMark) {
  const values = {
    status: mark.status,
    minutesLate: mark.minutesLate,
    source: mark.source,
    seq: mark.seq,
    markedById: mark.byId,
    markedAt: mark.at,
  };
  if (existing)
    await tx
      .update(attendanceMarks)
      .set(values)
      .where(and(eq(attendanceMarks.sessionId, session.id), eq(attendanceMarks.userId, mark.userId)));
  else
    await tx
      .insert(attendanceMarks)
      .values({ sessionId: session.id, centerId: session.centerId, userId: mark.userId, ...values });
  if ((existing && existing.status !== mark.status) || mark.reason !== undefined)
    await tx.insert(attendanceMarkChanges).values({
      sessionId: session.id,
      centerId: session.centerId,
      userId: mark.userId,
      fromStatus: existing?.status ?? null,
      toStatus: mark.status,
      source: mark.source,
      reason: mark.reason ?? null,
      changedById: mark.byId,
      changedAt: mark.at,
    });
}

/**
 * An automatic input (QR, online) merged into the student's row: set only where no teacher has
 * marked, and only when it is better than another automatic input's. Online minutes are kept on
 * the row whatever decides its status. Returns the row's status afterwards.
 */
export async function mergeAutomatic(
  tx: Tx,
  session: SessionRow,
  input: {
    userId: string;
    status: "present" | "late" | "absent";
    minutesLate: number | null;
    source: "qr" | "online";
    at: Date;
    onlineMinutes?: number;
  },
): Promise<AttendanceStatus> {
  const existing = (await marksOf(tx, session.id, [input.userId])).get(input.userId);
  const wins = !existing || (!TEACHER_SOURCES.includes(existing.source) && RANK[input.status] > RANK[existing.status]);
  if (wins)
    await writeMark(tx, session, existing, {
      userId: input.userId,
      status: input.status,
      minutesLate: input.minutesLate,
      source: input.source,
      seq: 0,
      byId: null,
      at: input.at,
    });
  if (input.onlineMinutes !== undefined && existing?.onlineMinutes !== input.onlineMinutes)
    await tx
      .update(attendanceMarks)
      .set({ onlineMinutes: input.onlineMinutes })
      .where(and(eq(attendanceMarks.sessionId, session.id), eq(attendanceMarks.userId, input.userId)));
  return wins || !existing ? input.status : existing.status;
}

/** Whole minutes from the session's start to `at` (0 before it). */
export const minutesAfterStart = (session: Pick<SessionRow, "startsAt">, at: number) =>
  Math.max(0, Math.floor((at - session.startsAt.getTime()) / 60_000));
