import { and, eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { batches, batchStudents, classSessions, users } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/types.ts";
import { notFound } from "../../http/errors.ts";
import { isUuid } from "#common/validation/ids.ts";
import type { SessionFields } from "../timetables/session-rows.ts";
import { SESSION_NOT_FOUND } from "#common/validation/attendance.ts";

/** A class session as the attendance services need it (its meeting link stays on the server). */
export interface SessionRow extends SessionFields {
  centerId: string;
  meetingUrl: string | null;
}

const teacher = alias(users, "teacher");
const substituteFor = alias(users, "substitute_for");

/** The session `id` (of institute `centerId` when given), or 404. */
export async function loadSession(db: DbOrTx, id: string, centerId?: string): Promise<SessionRow> {
  if (!isUuid(id)) throw notFound(SESSION_NOT_FOUND);
  const [row] = await db
    .select({
      id: classSessions.id,
      centerId: classSessions.centerId,
      batchId: classSessions.batchId,
      batchName: batches.name,
      on: classSessions.on,
      startsAt: classSessions.startsAt,
      endsAt: classSessions.endsAt,
      subject: classSessions.subject,
      teacherId: classSessions.teacherId,
      teacherName: teacher.name,
      substituteForId: classSessions.substituteForId,
      substituteForName: substituteFor.name,
      room: classSessions.room,
      online: classSessions.online,
      meetingUrl: classSessions.meetingUrl,
      status: classSessions.status,
      changeNote: classSessions.changeNote,
      rescheduledFrom: classSessions.rescheduledFrom,
    })
    .from(classSessions)
    .innerJoin(batches, eq(batches.id, classSessions.batchId))
    .leftJoin(teacher, eq(teacher.id, classSessions.teacherId))
    .leftJoin(substituteFor, eq(substituteFor.id, classSessions.substituteForId))
    .where(and(eq(classSessions.id, id), centerId ? eq(classSessions.centerId, centerId) : undefined));
  if (!row) throw notFound(SESSION_NOT_FOUND);
  return row;
}

/** The institute a session belongs to, or null: what the API's guards decide with. */
export async function sessionCenter(db: DbOrTx, id: string): Promise<string | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ centerId: classSessions.centerId })
    .from(classSessions)
    .where(eq(classSessions.id, id));
  return row?.centerId ?? null;
}

/** The students admitted in the batch now (those the register lists), by name. */
export async function admittedStudents(db: DbOrTx, batchId: string, only?: string[]) {
  if (only && only.length === 0) return [];
  return db
    .select({ id: users.id, name: users.name })
    .from(batchStudents)
    .innerJoin(users, eq(users.id, batchStudents.userId))
    .where(
      and(
        eq(batchStudents.batchId, batchId),
        eq(batchStudents.status, "admitted"),
        only ? inArray(batchStudents.userId, only) : undefined,
      ),
    )
    .orderBy(users.name, users.id);
}

/** Whether the session runs at `now`, counting `earlyMinutes` before its start. */
export const runsAt = (s: Pick<SessionRow, "startsAt" | "endsAt">, now: number, earlyMinutes: number) =>
  now >= s.startsAt.getTime() - earlyMinutes * 60_000 && now <= s.endsAt.getTime();
