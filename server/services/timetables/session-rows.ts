import { asc, eq, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { batches, classSessions, users } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/types.ts";
import { clockText, indiaDate, indiaMinute } from "#common/india-dates.ts";
import type { SessionJson } from "#common/validation/timetables.ts";

const teacher = alias(users, "session_teacher");
const original = alias(users, "session_original_teacher");

/** Sessions matching `where`, by start, in the shared session JSON (never the meeting link). */
export async function sessionRows(db: DbOrTx, where: SQL | undefined, limit = 5000): Promise<SessionJson[]> {
  const rows = await db
    .select({
      id: classSessions.id,
      batchId: classSessions.batchId,
      batchName: batches.name,
      on: classSessions.on,
      startsAt: classSessions.startsAt,
      endsAt: classSessions.endsAt,
      subject: classSessions.subject,
      teacherId: teacher.id,
      teacherName: teacher.name,
      substituteForId: original.id,
      substituteForName: original.name,
      room: classSessions.room,
      online: classSessions.online,
      status: classSessions.status,
      changeNote: classSessions.changeNote,
      rescheduledFrom: classSessions.rescheduledFrom,
    })
    .from(classSessions)
    .innerJoin(batches, eq(batches.id, classSessions.batchId))
    .leftJoin(teacher, eq(teacher.id, classSessions.teacherId))
    .leftJoin(original, eq(original.id, classSessions.substituteForId))
    .where(where)
    .orderBy(asc(classSessions.startsAt), asc(batches.name), asc(classSessions.id))
    .limit(limit);
  return rows.map(toSessionJson);
}

/** The fields of a class session that its JSON shows. */
export interface SessionFields {
  id: string;
  batchId: string;
  batchName: string;
  on: string;
  startsAt: Date;
  endsAt: Date;
  subject: string;
  teacherId: string | null;
  teacherName: string | null;
  substituteForId: string | null;
  substituteForName: string | null;
  room: string | null;
  online: boolean;
  status: "scheduled" | "cancelled";
  changeNote: string | null;
  rescheduledFrom: Date | null;
}

/** THE session JSON (the shared shape: never the meeting link), for timetables and registers alike. */
export function toSessionJson(r: SessionFields): SessionJson {
  return {
    _id: r.id,
    batchId: r.batchId,
    batchName: r.batchName,
    on: r.on,
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
    start: clockText(indiaMinute(r.startsAt)),
    end: endClock(r.startsAt, r.endsAt),
    subject: r.subject,
    teacher: r.teacherId ? { _id: r.teacherId, name: r.teacherName ?? "" } : null,
    substituteFor: r.substituteForId ? { _id: r.substituteForId, name: r.substituteForName ?? "" } : null,
    room: r.room,
    online: r.online,
    status: r.status,
    changeNote: r.changeNote,
    rescheduledFrom: r.rescheduledFrom?.toISOString() ?? null,
  };
}

/** A class that ends at midnight ends at 24:00 of its day, not 00:00. */
function endClock(startsAt: Date, endsAt: Date): string {
  const minute = indiaMinute(endsAt);
  return minute === 0 && indiaDate(endsAt) !== indiaDate(startsAt) ? "24:00" : clockText(minute);
}
