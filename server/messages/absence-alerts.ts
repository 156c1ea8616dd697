import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import {
  attendanceMarks,
  attendancePolicies,
  attendanceRegisters,
  batches,
  centers,
  classSessions,
  users,
} from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { runInTenantScope } from "../db/tenant-scope.ts";
import { familyContactsOf } from "../db/families.ts";
import type { MessageService } from "./service.ts";
import { messageDate, messageTime } from "./format.ts";

const MINUTE = 60_000;
/** A register the teacher left open closes this long after its session ends. */
export const CLOSE_AFTER_MS = 30 * MINUTE;
/**
 * Registers closed longer ago than this are not alerted: an institute that turns alerts on is not
 * made to tell families about days already past, and an alert that late tells them nothing they
 * can act on. The clock runs each minute, so a closed register is alerted within a minute or two.
 */
export const ALERT_WINDOW_MS = 12 * 60 * MINUTE;

/**
 * Absence alerts (issue 41 §4), run each minute by the clock that runs the reminders, on every
 * instance. Each run closes the registers of sessions that ended 30 minutes ago or more and are
 * still open (making the register of a session nobody marked: it closes with no marks, so nobody
 * is alerted for it), then tells each student marked Absent in a closed register, once: the
 * register is claimed by setting `alertsSentAt` in the transaction that writes the messages, so
 * a second run (another instance, the same minute) finds it claimed and writes nothing, and each
 * message's key (session and recipient) is written once whatever happens.
 */
export class AbsenceAlerts {
  private readonly deps: { db: Db; messages: MessageService };

  constructor(deps: AbsenceAlerts["deps"]) {
    this.deps = deps;
  }

  async run(now = new Date()): Promise<void> {
    await this.closeEnded(now);
    await this.alertClosed(now);
  }

  /** Closes every open register whose session ended `CLOSE_AFTER_MS` ago or more; returns how many it closed (besides those it made). */
  async closeEnded(now: Date): Promise<number> {
    const { db } = this.deps;
    const at = sql`${now.toISOString()}::timestamptz`;
    const until = sql`${new Date(now.getTime() - CLOSE_AFTER_MS).toISOString()}::timestamptz`;
    // Every institute's sessions: the clock works for all of them, in the platform's scope.
    return runInTenantScope(null, () =>
      db.transaction(async (tx) => {
        // A session nobody marked has no register yet: it gets one, closed, with no marks.
        await tx.execute(sql`
          insert into ${attendanceRegisters} (session_id, center_id, closed_at, created_at, updated_at)
          select ${classSessions.id}, ${classSessions.centerId}, ${at}, ${at}, ${at}
          from ${classSessions}
          where ${classSessions.status} = 'scheduled' and ${classSessions.endsAt} <= ${until}
            and not exists (select 1 from ${attendanceRegisters} where ${attendanceRegisters.sessionId} = ${classSessions.id})
          on conflict (session_id) do nothing`);
        const closed = await tx
          .update(attendanceRegisters)
          .set({ closedAt: now, updatedAt: now })
          .where(
            and(
              isNull(attendanceRegisters.closedAt),
              sql`exists (select 1 from ${classSessions} where ${classSessions.id} = ${attendanceRegisters.sessionId} and ${classSessions.status} = 'scheduled' and ${classSessions.endsAt} <= ${until})`,
            ),
          )
          .returning({ sessionId: attendanceRegisters.sessionId });
        return closed.length;
      }),
    );
  }

  /** Tells the absentees of each closed, unalerted register of an institute with alerts on. */
  async alertClosed(now: Date): Promise<void> {
    const { db } = this.deps;
    const due = await runInTenantScope(null, () =>
      db
        .select({ sessionId: attendanceRegisters.sessionId, centerId: attendanceRegisters.centerId })
        .from(attendanceRegisters)
        .innerJoin(classSessions, eq(classSessions.id, attendanceRegisters.sessionId))
        .leftJoin(attendancePolicies, eq(attendancePolicies.centerId, attendanceRegisters.centerId))
        .where(
          and(
            isNotNull(attendanceRegisters.closedAt),
            isNull(attendanceRegisters.alertsSentAt),
            gt(attendanceRegisters.closedAt, new Date(now.getTime() - ALERT_WINDOW_MS)),
            // A cancelled session has no absentees, whatever was marked before it was cancelled.
            eq(classSessions.status, "scheduled"),
            // An institute without a policy has the default: alerts on.
            sql`coalesce(${attendancePolicies.absenceAlerts}, true)`,
          ),
        ),
    );
    for (const register of due) await this.alertRegister(register.sessionId, register.centerId, now);
  }

  /** One register's alerts, in its institute's scope; nothing when another run has claimed it. */
  private alertRegister(sessionId: string, centerId: string, now: Date): Promise<void> {
    const { db, messages } = this.deps;
    return runInTenantScope(centerId, () =>
      db.transaction(async (tx) => {
        // The claim: a second run waits on this row, then finds it claimed and stops.
        const [claimed] = await tx
          .update(attendanceRegisters)
          .set({ alertsSentAt: now })
          .where(
            and(
              eq(attendanceRegisters.sessionId, sessionId),
              isNull(attendanceRegisters.alertsSentAt),
              isNotNull(attendanceRegisters.closedAt),
            ),
          )
          .returning({ sessionId: attendanceRegisters.sessionId });
        if (!claimed) return;
        // Only students marked Absent: a student with no mark is not alerted.
        const absent = await tx
          .select({
            studentId: users.id,
            name: users.name,
            subject: classSessions.subject,
            startsAt: classSessions.startsAt,
            batch: batches.name,
            institute: centers.instituteName,
          })
          .from(attendanceMarks)
          .innerJoin(users, eq(users.id, attendanceMarks.userId))
          .innerJoin(classSessions, eq(classSessions.id, attendanceMarks.sessionId))
          .innerJoin(batches, eq(batches.id, classSessions.batchId))
          .innerJoin(centers, eq(centers.id, classSessions.centerId))
          .where(and(eq(attendanceMarks.sessionId, sessionId), eq(attendanceMarks.status, "absent")));
        for (const student of absent)
          // The student and each linked parent (decision 0047), each once: the key names the recipient.
          for (const recipient of await familyContactsOf(tx, student.studentId, centerId))
            await messages.send(tx, {
              template: "attendance-absent",
              values: {
                name: student.name,
                subject: student.subject,
                batch: student.batch,
                date: messageDate(student.startsAt),
                time: messageTime(student.startsAt),
                institute: student.institute,
              },
              to: { phone: recipient.phone, userId: recipient.userId },
              centerId,
              dedupeKey: `attendance-absent:${sessionId}:${student.studentId}:${recipient.userId}`,
            });
      }),
    );
  }
}
