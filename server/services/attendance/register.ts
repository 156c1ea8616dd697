import { and, eq, inArray } from "drizzle-orm";
import { attendanceRegisters, memberships, users } from "../../db/schema/index.ts";
import type { Db, DbOrTx } from "../../db/types.ts";
import { badRequest, conflict } from "../../http/errors.ts";
import {
  ATTENDANCE_STATUSES,
  type MarksInput,
  NOT_STARTED,
  REGISTER_CLOSED,
  ROLL_CALL_OPENS_MINUTES,
  SESSION_CANCELLED,
  notInBatch,
  type RegisterCounts,
  type RegisterJson,
  type RegisterStudentJson,
} from "#common/validation/attendance.ts";
import { registerAccess, type Asker } from "./access.ts";
import { lockRegister, marksOf, minutesAfterStart, writeMark, type MarkRow } from "./marks.ts";
import { rulesOf } from "./policy.ts";
import { admittedStudents, type SessionRow } from "./sessions.ts";
import { toSessionJson } from "../timetables/session-rows.ts";

/**
 * A session's register and its roll-call (issue 41 §3, decision 0044). A roll-call is a batch of
 * marks taken on a phone at `seq` (its clock in ms): each mark applies only where it is newer than
 * the seq of the student's mark, so a batch that arrives late from a phone that was offline, or
 * arrives twice, changes only what it is newer for. Writes hold the register's row, so two
 * teachers marking at once are applied one after the other and both kept, student by student.
 */
export class RegisterService {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(deps: { db: Db; now?: () => number }) {
    this.db = deps.db;
    this.now = deps.now ?? Date.now;
  }

  async view(asker: Asker, sessionId: string): Promise<RegisterJson> {
    const session = await registerAccess(this.db, asker, sessionId, "attendance.view");
    return readRegister(this.db, session);
  }

  async mark(asker: Asker, sessionId: string, body: MarksInput): Promise<RegisterJson> {
    const session = await registerAccess(this.db, asker, sessionId, "attendance.mark");
    const now = this.now();
    if (session.status === "cancelled") throw conflict(SESSION_CANCELLED);
    if (now < session.startsAt.getTime() - ROLL_CALL_OPENS_MINUTES * 60_000) throw conflict(NOT_STARTED);
    // One mark per student: the last one given for them.
    const marks = [...new Map(body.marks.map((m) => [m.studentId, m])).values()];
    const ids = marks.map((m) => m.studentId);
    await this.db.transaction(async (tx) => {
      const register = await lockRegister(tx, session);
      // Marks taken before the close still count when they arrive late; new roll-call does not.
      if (register.closedAt && body.seq >= register.closedAt.getTime()) throw conflict(REGISTER_CLOSED);
      const admitted = new Set((await admittedStudents(tx, session.batchId, ids)).map((s) => s.id));
      const strangers = ids.filter((id) => !admitted.has(id));
      if (strangers.length > 0) {
        const names = await namesIn(tx, session.centerId, strangers);
        const issues = strangers.map((id) => ({ field: "marks", message: notInBatch(names.get(id) ?? id) }));
        throw badRequest(notInBatch(strangers.map((id) => names.get(id) ?? id).join(", ")), { issues });
      }
      const existing = await marksOf(tx, session.id, ids);
      const at = new Date(now);
      // Late by default as of when the marks were taken (never after they arrived).
      const lateBy = minutesAfterStart(session, Math.min(body.seq, now));
      for (const mark of marks) {
        const before = existing.get(mark.studentId);
        if (before && before.seq >= body.seq) continue;
        await writeMark(tx, session, before, {
          userId: mark.studentId,
          status: mark.status,
          minutesLate: mark.status === "late" ? (mark.minutesLate ?? lateBy) : null,
          source: "roll-call",
          seq: body.seq,
          byId: asker.userId,
          at,
        });
      }
    });
    return readRegister(this.db, session);
  }

  /** Closes the register (the teacher's, staff's or owner's "Close register"); closing it again changes nothing. */
  async close(asker: Asker, sessionId: string): Promise<RegisterJson> {
    const session = await registerAccess(this.db, asker, sessionId, "attendance.mark");
    await this.db.transaction(async (tx) => {
      const register = await lockRegister(tx, session);
      if (register.closedAt) return;
      const at = new Date(this.now());
      await tx
        .update(attendanceRegisters)
        .set({ closedAt: at, closedById: asker.userId, updatedAt: at })
        .where(eq(attendanceRegisters.sessionId, session.id));
    });
    return readRegister(this.db, session);
  }
}

/** Names of accounts that are the institute's members (others are named by id only). */
export async function namesIn(db: DbOrTx, centerId: string, ids: string[]): Promise<Map<string, string>> {
  const rows = await db
    .selectDistinct({ id: users.id, name: users.name })
    .from(users)
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.centerId, centerId)))
    .where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export function studentJson(id: string, name: string, mark: MarkRow | undefined): RegisterStudentJson {
  return {
    studentId: id,
    name,
    status: mark?.status ?? null,
    minutesLate: mark?.minutesLate ?? null,
    onlineMinutes: mark?.onlineMinutes ?? null,
    source: mark?.source ?? null,
    markedAt: mark?.markedAt.toISOString() ?? null,
  };
}

/**
 * The register as the page shows it: the batch's admitted students (and anyone marked who has
 * since left the batch), each with their mark or none: an unmarked student's status is null.
 */
export async function readRegister(db: Db, session: SessionRow): Promise<RegisterJson> {
  const [[register], admitted, marks, rules] = await Promise.all([
    db
      .select({ closedAt: attendanceRegisters.closedAt })
      .from(attendanceRegisters)
      .where(eq(attendanceRegisters.sessionId, session.id)),
    admittedStudents(db, session.batchId),
    marksOf(db, session.id),
    rulesOf(db, session.centerId),
  ]);
  const listed = new Set(admitted.map((s) => s.id));
  const gone = [...marks.keys()].filter((id) => !listed.has(id));
  const goneNames = gone.length > 0 ? await namesIn(db, session.centerId, gone) : new Map<string, string>();
  const students = [
    ...admitted.map((s) => studentJson(s.id, s.name, marks.get(s.id))),
    ...gone.map((id) => studentJson(id, goneNames.get(id) ?? id, marks.get(id))),
  ];
  const counts = Object.fromEntries([...ATTENDANCE_STATUSES, "unmarked"].map((k) => [k, 0])) as RegisterCounts;
  for (const s of students) counts[s.status ?? "unmarked"] += 1;
  const rollCalls = [...marks.values()].filter((m) => m.source === "roll-call").map((m) => Number(m.seq));
  return {
    session: toSessionJson(session),
    closedAt: register?.closedAt?.toISOString() ?? null,
    seq: Math.max(0, ...rollCalls),
    lateAfterMinutes: rules.lateAfterMinutes,
    students,
    counts,
  };
}
