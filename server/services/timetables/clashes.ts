import { and, asc, eq, gt, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import { batches, classSessions, timetableSlots, users } from "../../db/schema/index.ts";
import type { Tx } from "../../db/types.ts";
import { clockText, indiaDate, indiaMinute } from "#common/india-dates.ts";
import { ROOM_BUSY, ROOM_CLASH, TEACHER_BUSY, TEACHER_CLASH } from "#common/validation/timetables.ts";

/** A room as clashes compare it: trimmed, case-insensitive ("Room 3" is "room 3 "). */
export const roomKey = (room: string | null | undefined) => (room ?? "").trim().toLowerCase();

export interface PlannedSlot {
  weekday: number;
  startMinute: number;
  endMinute: number;
  teacherId: string | null;
  room: string | null;
}

export interface BatchDates {
  id: string;
  startsOn: string;
  endsOn: string | null;
}

/**
 * The first clash of `slots` with another batch's weekly slot in the institute, in words, or null:
 * the same teacher or the same room on the same weekday at overlapping times, where the two
 * batches' dates overlap (a batch that ended before this one starts frees its teacher and room).
 */
export async function slotClash(tx: Tx, centerId: string, batch: BatchDates, slots: PlannedSlot[]) {
  const weekdays = [...new Set(slots.map((s) => s.weekday))];
  if (weekdays.length === 0) return null;
  const others = await tx
    .select({
      weekday: timetableSlots.weekday,
      startMinute: timetableSlots.startMinute,
      endMinute: timetableSlots.endMinute,
      teacherId: timetableSlots.teacherId,
      teacherName: users.name,
      room: timetableSlots.room,
      batchName: batches.name,
    })
    .from(timetableSlots)
    .innerJoin(batches, eq(batches.id, timetableSlots.batchId))
    .leftJoin(users, eq(users.id, timetableSlots.teacherId))
    .where(
      and(
        eq(timetableSlots.centerId, centerId),
        ne(timetableSlots.batchId, batch.id),
        isNull(timetableSlots.retiredAt),
        inArray(timetableSlots.weekday, weekdays),
        batch.endsOn ? sql`${batches.startsOn} <= ${batch.endsOn}` : undefined,
        sql`(${batches.endsOn} is null or ${batches.endsOn} >= ${batch.startsOn})`,
      ),
    )
    .orderBy(asc(timetableSlots.weekday), asc(timetableSlots.startMinute), asc(batches.name));
  for (const slot of slots)
    for (const other of others) {
      if (other.weekday !== slot.weekday) continue;
      if (!(other.startMinute < slot.endMinute && slot.startMinute < other.endMinute)) continue;
      if (slot.teacherId && other.teacherId === slot.teacherId)
        return TEACHER_CLASH(
          other.teacherName ?? "The teacher",
          other.batchName,
          other.weekday,
          other.startMinute,
          other.endMinute,
        );
      if (roomKey(slot.room) && roomKey(other.room) === roomKey(slot.room))
        return ROOM_CLASH(other.room!.trim(), other.batchName, other.weekday, other.startMinute, other.endMinute);
    }
  return null;
}

export interface PlannedSession {
  /** The session being changed, which cannot clash with itself. */
  exceptId?: string;
  startsAt: Date;
  endsAt: Date;
  teacherId: string | null;
  room: string | null;
}

/**
 * The first other class of the institute (not cancelled) at overlapping times that has the same
 * teacher or the same room, in words, or null.
 */
export async function sessionClash(tx: Tx, centerId: string, planned: PlannedSession) {
  const room = roomKey(planned.room);
  if (!planned.teacherId && !room) return null;
  const [other] = await tx
    .select({
      startsAt: classSessions.startsAt,
      endsAt: classSessions.endsAt,
      teacherId: classSessions.teacherId,
      teacherName: users.name,
      room: classSessions.room,
      batchName: batches.name,
    })
    .from(classSessions)
    .innerJoin(batches, eq(batches.id, classSessions.batchId))
    .leftJoin(users, eq(users.id, classSessions.teacherId))
    .where(
      and(
        eq(classSessions.centerId, centerId),
        eq(classSessions.status, "scheduled"),
        planned.exceptId ? ne(classSessions.id, planned.exceptId) : undefined,
        lt(classSessions.startsAt, planned.endsAt),
        gt(classSessions.endsAt, planned.startsAt),
        or(
          planned.teacherId ? eq(classSessions.teacherId, planned.teacherId) : undefined,
          room ? sql`lower(btrim(${classSessions.room})) = ${room}` : undefined,
        ),
      ),
    )
    .orderBy(asc(classSessions.startsAt))
    .limit(1);
  if (!other) return null;
  const day = indiaDate(other.startsAt);
  const start = clockText(indiaMinute(other.startsAt));
  const end = clockText(indiaMinute(other.endsAt));
  if (planned.teacherId && other.teacherId === planned.teacherId)
    return TEACHER_BUSY(other.teacherName ?? "The teacher", other.batchName, day, start, end);
  return ROOM_BUSY(other.room!.trim(), other.batchName, day, start, end);
}
