import { and, asc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import {
  batchStudents,
  batchTeachers,
  batches,
  classSessions,
  holidays,
  memberships,
  timetableSlots,
  users,
} from "../../db/schema/index.ts";
import type { Db, Tx } from "../../db/types.ts";
import { ADVISORY_LOCKS, lockForTransaction } from "../../db/advisory-locks.ts";
import { badRequest, conflict, notFound, parseWith } from "../../http/errors.ts";
import { can, type Membership } from "../../auth/permissions.ts";
import { isUuid } from "#common/validation/ids.ts";
import type { MemberRole } from "#common/memberships.ts";
import { BATCH_NOT_FOUND, NOT_A_TEACHER } from "#common/validation/batches.ts";
import { addDays, clockText, daysBetween, indiaDate, indiaInstant, minuteOf } from "#common/india-dates.ts";
import {
  ExtraSessionInput,
  HOLIDAY_BATCH_ELSEWHERE,
  HOLIDAY_NOT_FOUND,
  HolidayInput,
  OUTSIDE_BATCH_DATES,
  SESSIONS_RANGE_BACKWARDS,
  SESSIONS_RANGE_MAX_DAYS,
  SESSIONS_RANGE_TOO_LONG,
  SESSION_NOT_FOUND,
  SLOTS_OVERLAP,
  SessionChangeInput,
  TimetableInput,
  type HolidayJson,
  type SessionJson,
  type SlotJson,
} from "#common/validation/timetables.ts";
import { sessionClash, slotClash } from "./clashes.ts";
import { makeSessions, removeUnheld, type SessionBatch } from "./making.ts";
import { sessionRows } from "./session-rows.ts";
import { CalendarTokens, sessionsCalendar } from "./calendar.ts";
import type { LinkCenter, SiteLinks } from "../../messages/links.ts";

/** Roles that may teach a class: a teacher's, or a creator's or owner's, who teach too (as BatchService decides). */
const TEACHING_ROLES: readonly MemberRole[] = ["teacher", "creator", "owner"];

export interface TimetableActor {
  id: string;
}

/** An India date range asked for (`from`, `to`, both included). */
export interface DateRange {
  from?: string;
  to?: string;
}

/**
 * Timetables, holidays and class sessions (issue 41 §2, decision 0043). A batch's weekly slots
 * become concrete sessions (`class_sessions`) within its dates when the timetable is saved; a
 * holiday cancels its day's sessions; one class can be cancelled, moved or given to a substitute.
 * Who may do it is decided before anything here runs (batches.manage), except reading sessions,
 * which is narrowed here to what the person may see. Every write of an institute's timetables
 * holds the institute's advisory lock, so two saves cannot both pass the clash check.
 */
export class TimetableService {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly links: SiteLinks;
  private readonly calendarTokens: CalendarTokens;

  constructor(deps: { db: Db; links: SiteLinks; now?: () => number }) {
    this.db = deps.db;
    this.links = deps.links;
    this.now = deps.now ?? Date.now;
    this.calendarTokens = new CalendarTokens(deps.db);
  }

  /**
   * The person's private calendar address: on the institute's site when they came through it
   * (its own domain or working address, as links in messages are built), else the platform's.
   */
  async calendarUrl(userId: string, center: LinkCenter | null): Promise<string> {
    return this.links.to(center, `/api/calendar/${await this.calendarTokens.tokenFor(userId)}.ics`);
  }

  /** Today in India, by the service's clock. */
  today(): string {
    return indiaDate(this.now());
  }

  /** The institute a class belongs to, or null. */
  async centerOfSession(sessionId: string): Promise<string | null> {
    if (!isUuid(sessionId)) return null;
    const [row] = await this.db
      .select({ centerId: classSessions.centerId })
      .from(classSessions)
      .where(eq(classSessions.id, sessionId));
    return row?.centerId ?? null;
  }

  /** The institute a holiday belongs to, or null. */
  async centerOfHoliday(holidayId: string): Promise<string | null> {
    if (!isUuid(holidayId)) return null;
    const [row] = await this.db
      .select({ centerId: holidays.centerId })
      .from(holidays)
      .where(eq(holidays.id, holidayId));
    return row?.centerId ?? null;
  }

  /** The batch's active weekly slots, by weekday and start. */
  async timetable(centerId: string, batchId: string, db: Db | Tx = this.db): Promise<SlotJson[]> {
    const rows = await db
      .select({ slot: timetableSlots, teacherName: users.name })
      .from(timetableSlots)
      .leftJoin(users, eq(users.id, timetableSlots.teacherId))
      .where(
        and(
          eq(timetableSlots.centerId, centerId),
          eq(timetableSlots.batchId, batchId),
          isNull(timetableSlots.retiredAt),
        ),
      )
      .orderBy(asc(timetableSlots.weekday), asc(timetableSlots.startMinute), asc(timetableSlots.subject));
    return rows.map(({ slot, teacherName }) => ({
      _id: slot.id,
      weekday: slot.weekday,
      start: clockText(slot.startMinute),
      end: clockText(slot.endMinute),
      subject: slot.subject,
      teacher: slot.teacherId ? { _id: slot.teacherId, name: teacherName ?? "" } : null,
      room: slot.room,
      online: slot.online,
      meetingUrl: slot.meetingUrl,
    }));
  }

  /** The people who may teach the batch's classes: its own teachers and the institute's teaching roles. */
  async teachers(centerId: string): Promise<{ _id: string; name: string }[]> {
    const rows = await this.db
      .selectDistinct({ id: users.id, name: users.name })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(
        and(
          eq(memberships.centerId, centerId),
          inArray(memberships.role, [...TEACHING_ROLES]),
          eq(memberships.status, "active"),
        ),
      )
      .orderBy(asc(users.name), asc(users.id));
    return rows.map((r) => ({ _id: r.id, name: r.name }));
  }

  /**
   * Replaces the batch's week: the old slots are retired (kept for the classes already held),
   * the new ones stored and their classes made within the batch's dates. Refused, with nothing
   * changed: two of the batch's classes overlapping (400), a teacher who may not teach here
   * (400), a clash of teacher or room with another batch (409, the slot named).
   */
  async saveTimetable(centerId: string, batchId: string, input: unknown) {
    const { slots } = parseWith(TimetableInput, input);
    const planned = slots.map((s) => ({
      ...s,
      startMinute: minuteOf(s.start),
      endMinute: minuteOf(s.end),
      teacherId: s.teacherId ?? null,
      room: s.room || null,
      meetingUrl: s.online ? s.meetingUrl || null : null,
    }));
    for (let i = 0; i < planned.length; i++)
      for (let j = i + 1; j < planned.length; j++) {
        const [a, b] = [planned[i], planned[j]];
        if (a.weekday === b.weekday && a.startMinute < b.endMinute && b.startMinute < a.endMinute) {
          const message = SLOTS_OVERLAP(a, b);
          throw badRequest(message, { issues: [{ field: `slots.${j}`, message }] });
        }
      }
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, ADVISORY_LOCKS.timetables, centerId);
      const batch = await this.batchOf(tx, centerId, batchId);
      await this.checkTeachers(
        tx,
        centerId,
        batchId,
        planned.map((s) => s.teacherId),
      );
      const clash = await slotClash(tx, centerId, batch, planned);
      if (clash) throw conflict(clash);
      const now = this.now();
      const retired = await tx
        .update(timetableSlots)
        .set({ retiredAt: new Date(now) })
        .where(and(eq(timetableSlots.batchId, batchId), isNull(timetableSlots.retiredAt)))
        .returning({ id: timetableSlots.id });
      await removeUnheld(
        tx,
        batchId,
        retired.map((r) => r.id),
        now,
      );
      const made =
        planned.length === 0
          ? []
          : await tx
              .insert(timetableSlots)
              .values(
                planned.map((s) => ({
                  batchId,
                  centerId,
                  weekday: s.weekday,
                  startMinute: s.startMinute,
                  endMinute: s.endMinute,
                  subject: s.subject,
                  teacherId: s.teacherId,
                  room: s.room,
                  online: s.online,
                  meetingUrl: s.meetingUrl,
                })),
              )
              .returning();
      const sessions = await makeSessions(tx, batch, made, now);
      return { timetable: await this.timetable(centerId, batchId, tx), sessions };
    });
  }

  /** A one-off class of the batch on one day, within its dates, clashing with no other class. */
  async addSession(centerId: string, batchId: string, input: unknown): Promise<SessionJson> {
    const data = parseWith(ExtraSessionInput, input);
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, ADVISORY_LOCKS.timetables, centerId);
      const batch = await this.batchOf(tx, centerId, batchId);
      this.checkWithinDates(batch, data.on);
      const teacherId = data.teacherId ?? null;
      await this.checkTeachers(tx, centerId, batchId, [teacherId]);
      const startsAt = indiaInstant(data.on, minuteOf(data.start));
      const endsAt = indiaInstant(data.on, minuteOf(data.end));
      const room = data.room || null;
      const clash = await sessionClash(tx, centerId, { startsAt, endsAt, teacherId, room });
      if (clash) throw conflict(clash);
      const [row] = await tx
        .insert(classSessions)
        .values({
          centerId,
          batchId,
          on: data.on,
          startsAt,
          endsAt,
          subject: data.subject,
          teacherId,
          room,
          online: data.online,
          meetingUrl: data.online ? data.meetingUrl || null : null,
        })
        .returning({ id: classSessions.id });
      return (await sessionRows(tx, eq(classSessions.id, row.id)))[0];
    });
  }

  /** One class cancelled, moved, given to a substitute teacher, or restored to its timetabled self. */
  async changeSession(centerId: string, sessionId: string, input: unknown): Promise<SessionJson> {
    const change = parseWith(SessionChangeInput, input);
    if (!isUuid(sessionId)) throw notFound(SESSION_NOT_FOUND);
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, ADVISORY_LOCKS.timetables, centerId);
      const [session] = await tx
        .select({ session: classSessions, slot: timetableSlots })
        .from(classSessions)
        .leftJoin(timetableSlots, eq(timetableSlots.id, classSessions.slotId))
        .where(and(eq(classSessions.id, sessionId), eq(classSessions.centerId, centerId)))
        .for("update", { of: classSessions });
      if (!session) throw notFound(SESSION_NOT_FOUND);
      const s = session.session;
      const at = new Date(this.now());
      let set: Partial<typeof classSessions.$inferInsert>;
      if (change.action === "cancel") {
        set = { status: "cancelled", changeNote: change.note || null };
      } else if (change.action === "reschedule") {
        const batch = await this.batchOf(tx, centerId, s.batchId);
        this.checkWithinDates(batch, change.on);
        const startsAt = indiaInstant(change.on, minuteOf(change.start));
        const endsAt = indiaInstant(change.on, minuteOf(change.end));
        await this.refuseClash(tx, centerId, {
          exceptId: s.id,
          startsAt,
          endsAt,
          teacherId: s.teacherId,
          room: s.room,
        });
        set = {
          status: "scheduled",
          startsAt,
          endsAt,
          rescheduledFrom: s.rescheduledFrom ?? s.startsAt,
          changeNote: change.note || null,
        };
      } else if (change.action === "substitute") {
        await this.checkTeachers(tx, centerId, s.batchId, [change.teacherId]);
        await this.refuseClash(tx, centerId, {
          exceptId: s.id,
          startsAt: s.startsAt,
          endsAt: s.endsAt,
          teacherId: change.teacherId,
          room: null,
        });
        const original = s.substituteForId ?? s.teacherId;
        set = {
          teacherId: change.teacherId,
          substituteForId: original === change.teacherId ? null : original,
          changeNote: change.note || null,
        };
      } else {
        // Back to the timetable: its slot's time (else where it was before a move) and its own teacher.
        const startsAt = session.slot
          ? indiaInstant(s.on, session.slot.startMinute)
          : (s.rescheduledFrom ?? s.startsAt);
        const endsAt = session.slot
          ? indiaInstant(s.on, session.slot.endMinute)
          : new Date(startsAt.getTime() + (s.endsAt.getTime() - s.startsAt.getTime()));
        const teacherId = s.substituteForId ?? s.teacherId;
        await this.refuseClash(tx, centerId, { exceptId: s.id, startsAt, endsAt, teacherId, room: s.room });
        set = {
          status: "scheduled",
          startsAt,
          endsAt,
          teacherId,
          substituteForId: null,
          rescheduledFrom: null,
          changeNote: null,
        };
      }
      await tx
        .update(classSessions)
        .set({ ...set, updatedAt: at })
        .where(eq(classSessions.id, s.id));
      return (await sessionRows(tx, eq(classSessions.id, s.id)))[0];
    });
  }

  /** The institute's holidays, newest day first. */
  async holidays(centerId: string): Promise<HolidayJson[]> {
    const rows = await this.db
      .select({ holiday: holidays, batchName: batches.name })
      .from(holidays)
      .leftJoin(batches, eq(batches.id, holidays.batchId))
      .where(eq(holidays.centerId, centerId))
      .orderBy(sql`${holidays.on} desc`, asc(holidays.name))
      .limit(500);
    return rows.map(({ holiday, batchName }) => holidayJson(holiday, batchName));
  }

  /** Declares a day off (the institute's, or one batch's) and cancels its classes that have no marks, naming the holiday. */
  async declareHoliday(actor: TimetableActor, centerId: string, input: unknown): Promise<HolidayJson> {
    const data = parseWith(HolidayInput, input);
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, ADVISORY_LOCKS.timetables, centerId);
      let batchName: string | null = null;
      if (data.batchId) {
        const [batch] = await tx
          .select({ name: batches.name })
          .from(batches)
          .where(and(eq(batches.id, data.batchId), eq(batches.centerId, centerId)));
        if (!batch)
          throw badRequest(HOLIDAY_BATCH_ELSEWHERE, {
            issues: [{ field: "batchId", message: HOLIDAY_BATCH_ELSEWHERE }],
          });
        batchName = batch.name;
      }
      const [holiday] = await tx
        .insert(holidays)
        .values({ centerId, batchId: data.batchId ?? null, on: data.on, name: data.name, createdById: actor.id })
        .returning();
      const cancelled = await tx
        .update(classSessions)
        .set({ status: "cancelled", changeNote: data.name, updatedAt: new Date(this.now()) })
        .where(
          and(
            this.onHoliday(holiday),
            eq(classSessions.status, "scheduled"),
            // A class already held and marked that day stays: its register counts.
            sql`not exists (select 1 from "attendance_marks" m where m."session_id" = ${classSessions.id})`,
          ),
        )
        .returning({ id: classSessions.id });
      return { ...holidayJson(holiday, batchName), cancelled: cancelled.length };
    });
  }

  /**
   * Removes a holiday and restores the classes it cancelled (those cancelled with its name that
   * day); one that another holiday of the same day also covers stays cancelled under that one's name.
   */
  async removeHoliday(centerId: string, holidayId: string): Promise<{ removed: HolidayJson; restored: number }> {
    if (!isUuid(holidayId)) throw notFound(HOLIDAY_NOT_FOUND);
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, ADVISORY_LOCKS.timetables, centerId);
      const [holiday] = await tx
        .delete(holidays)
        .where(and(eq(holidays.id, holidayId), eq(holidays.centerId, centerId)))
        .returning();
      if (!holiday) throw notFound(HOLIDAY_NOT_FOUND);
      const others = await tx
        .select()
        .from(holidays)
        .where(and(eq(holidays.centerId, centerId), eq(holidays.on, holiday.on)))
        .orderBy(asc(holidays.createdAt), asc(holidays.id));
      const itsOwn = and(
        this.onHoliday(holiday),
        eq(classSessions.status, "cancelled"),
        eq(classSessions.changeNote, holiday.name),
      );
      const at = new Date(this.now());
      for (const other of others)
        await tx
          .update(classSessions)
          .set({ changeNote: other.name, updatedAt: at })
          .where(and(itsOwn, other.batchId ? eq(classSessions.batchId, other.batchId) : undefined));
      const restored = await tx
        .update(classSessions)
        .set({ status: "scheduled", changeNote: null, updatedAt: at })
        .where(itsOwn)
        .returning({ id: classSessions.id });
      return { removed: holidayJson(holiday, null), restored: restored.length };
    });
  }

  /**
   * A batch's classes between two India dates, as far as the person may see them: owners and
   * staff (batches.manage), the batch's teachers and its admitted students see all of them; another
   * teacher of the institute sees those they teach or were taken from them; anyone else none.
   */
  async batchSessions(membership: Membership, batchId: string, range: DateRange): Promise<SessionJson[]> {
    const { from, to } = this.rangeOf(range);
    const userId = membership.userId;
    const [batch] = await this.db
      .select({ id: batches.id })
      .from(batches)
      .where(and(eq(batches.id, batchId), eq(batches.centerId, membership.centerId)));
    if (!batch) throw notFound(BATCH_NOT_FOUND);
    const teaches = can(membership, "attendance.view");
    const whole =
      can(membership, "batches.manage") ||
      (teaches && (await this.teachesBatch(userId, batchId))) ||
      (membership.roles.includes("student") && (await this.admitted(userId, batchId)));
    if (!whole && !teaches) return [];
    if (whole) return this.sessionsOfBatch(membership.centerId, batchId, { from, to });
    return sessionRows(
      this.db,
      and(
        eq(classSessions.batchId, batchId),
        this.within(from, to),
        or(eq(classSessions.teacherId, userId), eq(classSessions.substituteForId, userId)),
      ),
    );
  }

  /** Every class of a batch between two India dates (for its institute's staff, whose role was checked). */
  async sessionsOfBatch(centerId: string, batchId: string, range: DateRange): Promise<SessionJson[]> {
    const { from, to } = this.rangeOf(range);
    return sessionRows(
      this.db,
      and(eq(classSessions.centerId, centerId), eq(classSessions.batchId, batchId), this.within(from, to)),
    );
  }

  /**
   * The person's own classes across their institutes between two India dates: those of the
   * batches they are admitted in (as a student), of their children's (as a parent), and those they
   * teach (as a teacher, creator or owner).
   */
  async mine(userId: string, range: DateRange): Promise<SessionJson[]> {
    const { from, to } = this.rangeOf(range);
    return sessionRows(this.db, and(this.within(from, to), ownSessions(userId)));
  }

  /**
   * Which of several people's own classes (as `mine` decides for each) fall between two India
   * dates, in one query however many they are: each person's session ids. A parent's home and
   * week ask it for all their children at once, to say whose each class is.
   */
  async ownedBy(userIds: string[], range: DateRange): Promise<Map<string, Set<string>>> {
    const { from, to } = this.rangeOf(range);
    const owned = new Map(userIds.map((id) => [id, new Set<string>()]));
    if (userIds.length === 0) return owned;
    const person = sql.raw(`"person"."id"`);
    const people = sql`(values ${sql.join(
      [...owned.keys()].map((id) => sql`(${id}::uuid)`),
      sql`, `,
    )}) as "person"("id")`;
    const rows = await this.db
      .select({ sessionId: classSessions.id, userId: sql<string>`${person}` })
      .from(classSessions)
      .crossJoin(people)
      .where(and(this.within(from, to), ownSessions(person)));
    for (const row of rows) owned.get(row.userId)?.add(row.sessionId);
    return owned;
  }

  /** The person's calendar (30 days back, 90 ahead) for the address's token, or null for a wrong token. */
  async calendar(token: string): Promise<string | null> {
    const userId = await this.calendarTokens.userOf(token);
    if (!userId) return null;
    const today = this.today();
    const sessions = await sessionRows(
      this.db,
      and(this.within(addDays(today, -30), addDays(today, 90)), ownSessions(userId)),
    );
    return sessionsCalendar(sessions, "Classes");
  }

  private within(from: string, to: string) {
    return and(
      gte(classSessions.startsAt, indiaInstant(from)),
      lt(classSessions.startsAt, indiaInstant(addDays(to, 1))),
    );
  }

  /** The range asked for: from today by default, two weeks by default, at most SESSIONS_RANGE_MAX_DAYS days. */
  private rangeOf(range: DateRange): { from: string; to: string } {
    const from = range.from ?? (range.to ? addDays(range.to, -13) : this.today());
    const to = range.to ?? addDays(from, 13);
    if (to < from)
      throw badRequest(SESSIONS_RANGE_BACKWARDS, { issues: [{ field: "to", message: SESSIONS_RANGE_BACKWARDS }] });
    if (daysBetween(from, to) + 1 > SESSIONS_RANGE_MAX_DAYS)
      throw badRequest(SESSIONS_RANGE_TOO_LONG, { issues: [{ field: "to", message: SESSIONS_RANGE_TOO_LONG }] });
    return { from, to };
  }

  /** Sessions on the holiday's India day, of its batch or of every batch of its institute. */
  private onHoliday(holiday: { centerId: string; batchId: string | null; on: string }) {
    return and(
      eq(classSessions.centerId, holiday.centerId),
      holiday.batchId ? eq(classSessions.batchId, holiday.batchId) : undefined,
      this.within(holiday.on, holiday.on),
    );
  }

  private async batchOf(tx: Tx, centerId: string, batchId: string): Promise<SessionBatch & { name: string }> {
    if (!isUuid(batchId)) throw notFound(BATCH_NOT_FOUND);
    const [batch] = await tx
      .select({
        id: batches.id,
        centerId: batches.centerId,
        name: batches.name,
        startsOn: batches.startsOn,
        endsOn: batches.endsOn,
      })
      .from(batches)
      .where(and(eq(batches.id, batchId), eq(batches.centerId, centerId)));
    if (!batch) throw notFound(BATCH_NOT_FOUND);
    return batch;
  }

  private checkWithinDates(batch: SessionBatch, on: string) {
    if (on < batch.startsOn || (batch.endsOn && on > batch.endsOn)) {
      const message = OUTSIDE_BATCH_DATES(batch.startsOn, batch.endsOn);
      throw badRequest(message, { issues: [{ field: "on", message }] });
    }
  }

  private async refuseClash(tx: Tx, centerId: string, planned: Parameters<typeof sessionClash>[2]) {
    const clash = await sessionClash(tx, centerId, planned);
    if (clash) throw conflict(clash);
  }

  /** Every named teacher holds a teaching role in the institute or is one of the batch's teachers (400 naming them). */
  private async checkTeachers(tx: Tx, centerId: string, batchId: string, ids: (string | null)[]) {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return;
    const found = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(
        and(
          eq(memberships.centerId, centerId),
          inArray(memberships.userId, wanted),
          inArray(memberships.role, [...TEACHING_ROLES]),
          eq(memberships.status, "active"),
        ),
      )
      .union(
        tx
          .select({ userId: batchTeachers.userId })
          .from(batchTeachers)
          .where(and(eq(batchTeachers.batchId, batchId), inArray(batchTeachers.userId, wanted))),
      );
    const known = new Set(found.map((f) => f.userId));
    const missing = wanted.filter((id) => !known.has(id));
    if (missing.length > 0) {
      const message = NOT_A_TEACHER(
        missing.length === 1 ? `The teacher ${missing[0]}` : `Teachers ${missing.join(", ")}`,
      );
      throw badRequest(message, { issues: [{ field: "teacherId", message }] });
    }
  }

  private async teachesBatch(userId: string, batchId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: batchTeachers.userId })
      .from(batchTeachers)
      .where(and(eq(batchTeachers.batchId, batchId), eq(batchTeachers.userId, userId)));
    if (row) return true;
    const [slot] = await this.db
      .select({ id: timetableSlots.id })
      .from(timetableSlots)
      .where(
        and(
          eq(timetableSlots.batchId, batchId),
          eq(timetableSlots.teacherId, userId),
          isNull(timetableSlots.retiredAt),
        ),
      )
      .limit(1);
    return Boolean(slot);
  }

  private async admitted(userId: string, batchId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: batchStudents.id })
      .from(batchStudents)
      .where(
        and(eq(batchStudents.batchId, batchId), eq(batchStudents.userId, userId), eq(batchStudents.status, "admitted")),
      );
    return Boolean(row);
  }
}

/**
 * A person's own classes: those of the batches they are admitted in while a student there, and
 * those they teach while they hold a teaching role there.
 */
function ownSessions(userId: string | SQL) {
  const learning = sql`exists (select 1 from "batch_students" bs join "memberships" m on m."center_id" = bs."center_id" and m."user_id" = bs."user_id" and m."role" = 'student' and m."status" = 'active' where bs."batch_id" = ${classSessions.batchId} and bs."user_id" = ${userId} and bs."status" = 'admitted')`;
  const teaching = sql`exists (select 1 from "memberships" m where m."center_id" = ${classSessions.centerId} and m."user_id" = ${userId} and m."status" = 'active' and m."role" in ('teacher', 'creator', 'owner'))`;
  // A parent's week is their children's: those they hold an active link to (decision 0047).
  const family = sql`exists (select 1 from "batch_students" bs join "guardians" g on g."center_id" = bs."center_id" and g."student_id" = bs."user_id" and g."status" = 'active' where bs."batch_id" = ${classSessions.batchId} and g."parent_id" = ${userId} and bs."status" = 'admitted')`;
  return or(learning, family, and(eq(classSessions.teacherId, userId), teaching));
}

function holidayJson(h: typeof holidays.$inferSelect, batchName: string | null): HolidayJson {
  return { _id: h.id, centerId: h.centerId, batchId: h.batchId, batchName, on: h.on, name: h.name };
}
