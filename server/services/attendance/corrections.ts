import { desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { attendanceMarkChanges, users } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { badRequest, conflict, notFound } from "../../http/errors.ts";
import { isUuid } from "#common/validation/ids.ts";
import {
  type CorrectionInput,
  SESSION_CANCELLED,
  STUDENT_NOT_FOUND,
  notInBatch,
  type MarkChangeJson,
  type RegisterStudentJson,
} from "#common/validation/attendance.ts";
import { isAdmitted, registerAccess, type Asker } from "./access.ts";
import { lockRegister, marksOf, minutesAfterStart, writeMark } from "./marks.ts";
import { namesIn, studentJson } from "./register.ts";

const student = alias(users, "student");
const changer = alias(users, "changer");

/**
 * Corrections (issue 41 §3): a teacher, staff member or owner changes one student's mark with a
 * reason, before or after the register closes; the mark's source becomes `correction` and the
 * change, with its reason and who made it, is kept in the history. A correction is stamped with
 * the server's time as its seq, so a roll-call taken earlier that arrives afterwards cannot undo it.
 */
export class CorrectionService {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(deps: { db: Db; now?: () => number }) {
    this.db = deps.db;
    this.now = deps.now ?? Date.now;
  }

  async correct(
    asker: Asker,
    sessionId: string,
    studentId: string,
    body: CorrectionInput,
  ): Promise<RegisterStudentJson> {
    const session = await registerAccess(this.db, asker, sessionId, "attendance.mark");
    if (session.status === "cancelled") throw conflict(SESSION_CANCELLED);
    if (!isUuid(studentId)) throw notFound(STUDENT_NOT_FOUND);
    const now = this.now();
    return this.db.transaction(async (tx) => {
      await lockRegister(tx, session);
      const before = (await marksOf(tx, session.id, [studentId])).get(studentId);
      const names = await namesIn(tx, session.centerId, [studentId]);
      if (!before && !(await isAdmitted(tx, session.batchId, studentId)))
        throw badRequest(notInBatch(names.get(studentId) ?? studentId));
      const keptLate = before?.status === "late" ? before.minutesLate : null;
      await writeMark(tx, session, before, {
        userId: studentId,
        status: body.status,
        minutesLate:
          body.status === "late"
            ? (body.minutesLate ?? keptLate ?? minutesAfterStart(session, Math.min(now, session.endsAt.getTime())))
            : null,
        source: "correction",
        seq: now,
        byId: asker.userId,
        at: new Date(now),
        reason: body.reason,
      });
      const after = (await marksOf(tx, session.id, [studentId])).get(studentId);
      return studentJson(studentId, names.get(studentId) ?? studentId, after);
    });
  }

  /** The register's changes, newest first, with who made each and why. */
  async history(asker: Asker, sessionId: string): Promise<MarkChangeJson[]> {
    const session = await registerAccess(this.db, asker, sessionId, "attendance.view");
    const rows = await this.db
      .select({
        id: attendanceMarkChanges.id,
        studentId: attendanceMarkChanges.userId,
        student: student.name,
        from: attendanceMarkChanges.fromStatus,
        to: attendanceMarkChanges.toStatus,
        source: attendanceMarkChanges.source,
        reason: attendanceMarkChanges.reason,
        byId: changer.id,
        byName: changer.name,
        at: attendanceMarkChanges.changedAt,
      })
      .from(attendanceMarkChanges)
      .innerJoin(student, eq(student.id, attendanceMarkChanges.userId))
      .leftJoin(changer, eq(changer.id, attendanceMarkChanges.changedById))
      .where(eq(attendanceMarkChanges.sessionId, session.id))
      .orderBy(desc(attendanceMarkChanges.changedAt), desc(attendanceMarkChanges.id));
    return rows.map((r) => ({
      _id: r.id,
      studentId: r.studentId,
      student: r.student,
      from: r.from,
      to: r.to,
      source: r.source,
      reason: r.reason,
      by: r.byId && r.byName ? { _id: r.byId, name: r.byName } : null,
      at: r.at.toISOString(),
    }));
  }
}
