import { and, asc, eq, gt, gte, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { classSessions, holidays } from "../../db/schema/index.ts";
import type { Tx } from "../../db/types.ts";
import { addDays, indiaDate, indiaInstant, weekdayOf } from "#common/india-dates.ts";

/** How far ahead a batch with no end date gets its classes made; saving the timetable again extends it. */
export const OPEN_BATCH_WEEKS = 26;
/** Classes are never made further ahead than this, whatever the batch's end (a save made later extends them). */
export const MAX_DAYS_AHEAD = 731;

export interface MadeSlot {
  id: string;
  weekday: number;
  startMinute: number;
  endMinute: number;
  subject: string;
  teacherId: string | null;
  room: string | null;
  online: boolean;
  meetingUrl: string | null;
}

export interface SessionBatch {
  id: string;
  centerId: string;
  startsOn: string;
  endsOn: string | null;
}

/** The days classes are made for: from the later of the batch's start and today to its end (or the horizon). */
export function makingSpan(batch: Pick<SessionBatch, "startsOn" | "endsOn">, now: number) {
  const today = indiaDate(now);
  const first = batch.startsOn > today ? batch.startsOn : today;
  const horizon = addDays(today, Math.min(batch.endsOn ? MAX_DAYS_AHEAD : OPEN_BATCH_WEEKS * 7, MAX_DAYS_AHEAD));
  const last = batch.endsOn && batch.endsOn < horizon ? batch.endsOn : horizon;
  return { first, last };
}

/** Holidays that apply to the batch between two dates: the day's name, the first declared. */
export async function holidayNames(tx: Tx, batch: SessionBatch, first: string, last: string) {
  const rows = await tx
    .select({ on: holidays.on, name: holidays.name })
    .from(holidays)
    .where(
      and(
        eq(holidays.centerId, batch.centerId),
        or(isNull(holidays.batchId), eq(holidays.batchId, batch.id)),
        gte(holidays.on, first),
        lte(holidays.on, last),
      ),
    )
    .orderBy(asc(holidays.createdAt), asc(holidays.id));
  const names = new Map<string, string>();
  for (const row of rows) if (!names.has(row.on)) names.set(row.on, row.name);
  return names;
}

/**
 * Makes the classes of `slots` (the batch's new week) on every day they fall on within the
 * making span, except those that would already have begun and those that would overlap a class
 * the batch keeps (one already held, or with a register). A class on a holiday is made cancelled
 * with the holiday's name. Returns how many were made.
 */
export async function makeSessions(tx: Tx, batch: SessionBatch, slots: MadeSlot[], now: number): Promise<number> {
  const { first, last } = makingSpan(batch, now);
  if (slots.length === 0 || first > last) return 0;
  const off = await holidayNames(tx, batch, first, last);
  const kept = await tx
    .select({ startsAt: classSessions.startsAt, endsAt: classSessions.endsAt })
    .from(classSessions)
    .where(
      and(
        eq(classSessions.batchId, batch.id),
        gte(classSessions.endsAt, indiaInstant(first)),
        lt(classSessions.startsAt, indiaInstant(addDays(last, 1))),
      ),
    );
  const rows: (typeof classSessions.$inferInsert)[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) {
    const weekday = weekdayOf(day);
    for (const slot of slots) {
      if (slot.weekday !== weekday) continue;
      const startsAt = indiaInstant(day, slot.startMinute);
      const endsAt = indiaInstant(day, slot.endMinute);
      if (startsAt.getTime() <= now) continue;
      if (kept.some((k) => k.startsAt < endsAt && startsAt < k.endsAt)) continue;
      const holiday = off.get(day);
      rows.push({
        centerId: batch.centerId,
        batchId: batch.id,
        slotId: slot.id,
        on: day,
        startsAt,
        endsAt,
        subject: slot.subject,
        teacherId: slot.teacherId,
        room: slot.room,
        online: slot.online,
        meetingUrl: slot.meetingUrl,
        status: holiday ? "cancelled" : "scheduled",
        changeNote: holiday ?? null,
      });
    }
  }
  // Within PostgreSQL's limit of bound values per statement.
  for (let i = 0; i < rows.length; i += 500)
    await tx
      .insert(classSessions)
      .values(rows.slice(i, i + 500))
      .onConflictDoNothing();
  return rows.length;
}

/**
 * Removes the classes of retired slots that have not begun and have no register (nor marks):
 * the week changed. Those held, and any with a register, stay as they were.
 */
export async function removeUnheld(tx: Tx, batchId: string, slotIds: string[], now: number): Promise<void> {
  if (slotIds.length === 0) return;
  await tx
    .delete(classSessions)
    .where(
      and(
        eq(classSessions.batchId, batchId),
        inArray(classSessions.slotId, slotIds),
        gt(classSessions.startsAt, new Date(now)),
        sql`not exists (select 1 from "attendance_registers" r where r."session_id" = ${classSessions.id})`,
        sql`not exists (select 1 from "attendance_marks" m where m."session_id" = ${classSessions.id})`,
      ),
    );
}
