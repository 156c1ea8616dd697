import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { classSessionStatusEnum } from "./enums.ts";
import { instituteId, users } from "./users-and-centers.ts";
import { batches } from "./batches.ts";
import { tenantIsolation } from "./tenant-policy.ts";

/**
 * A batch's weekly timetable (issue 41 §2): one row per recurring slot. Times are minutes after
 * midnight in India time (no daylight saving), so clashes are integer comparisons. Saving a new
 * timetable retires the old slots rather than deleting them: sessions already held keep their slot.
 */
export const timetableSlots = pgTable(
  "timetable_slots",
  {
    id: uuid().primaryKey().defaultRandom(),
    batchId: uuid()
      .notNull()
      .references(() => batches.id, { onDelete: "cascade" }),
    centerId: instituteId(),
    /** ISO 8601: Monday 1 … Sunday 7. */
    weekday: integer().notNull(),
    startMinute: integer().notNull(),
    endMinute: integer().notNull(),
    subject: text().notNull(),
    teacherId: uuid().references(() => users.id, { onDelete: "set null" }),
    room: text(),
    online: boolean().notNull().default(false),
    /** The online class's meeting (Meet, Zoom…), opened from Pathshala's join page, never shown bare. */
    meetingUrl: text(),
    retiredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("timetable_slots_batch_idx").on(t.batchId),
    index("timetable_slots_center_weekday_idx").on(t.centerId, t.weekday),
    check("timetable_slots_weekday_check", sql`${t.weekday} between 1 and 7`),
    check(
      "timetable_slots_minutes_check",
      sql`${t.startMinute} >= 0 and ${t.endMinute} <= 1440 and ${t.startMinute} < ${t.endMinute}`,
    ),
    tenantIsolation(t.centerId),
  ],
);

/** A day off: for the whole institute (`batchId` null) or one batch. Its sessions are cancelled. */
export const holidays = pgTable(
  "holidays",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    batchId: uuid().references(() => batches.id, { onDelete: "cascade" }),
    on: date({ mode: "string" }).notNull(),
    name: text().notNull(),
    createdById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("holidays_center_on_idx").on(t.centerId, t.on), tenantIsolation(t.centerId)],
);

/**
 * One class on one day: the timetable's slots made concrete within the batch's dates, so a
 * register, a cancellation, a reschedule or a substitute teacher has a row to belong to. `on` is
 * the India date it was timetabled for; `startsAt`/`endsAt` are when it actually runs (moved by
 * a reschedule). A one-off class outside the timetable has no slot.
 */
export const classSessions = pgTable(
  "class_sessions",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    batchId: uuid()
      .notNull()
      .references(() => batches.id, { onDelete: "cascade" }),
    slotId: uuid().references(() => timetableSlots.id, { onDelete: "set null" }),
    on: date({ mode: "string" }).notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    subject: text().notNull(),
    teacherId: uuid().references(() => users.id, { onDelete: "set null" }),
    /** The timetabled teacher when another substitutes. */
    substituteForId: uuid().references(() => users.id, { onDelete: "set null" }),
    room: text(),
    online: boolean().notNull().default(false),
    meetingUrl: text(),
    status: classSessionStatusEnum().notNull().default("scheduled"),
    /** When a reschedule moved it, where it was. */
    rescheduledFrom: timestamp({ withTimezone: true }),
    /** Why it was cancelled, moved or given to a substitute (a holiday's name for holidays). */
    changeNote: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("class_sessions_slot_on_key").on(t.slotId, t.on),
    index("class_sessions_batch_starts_idx").on(t.batchId, t.startsAt),
    index("class_sessions_center_starts_idx").on(t.centerId, t.startsAt),
    index("class_sessions_teacher_starts_idx").on(t.teacherId, t.startsAt),
    check("class_sessions_times_check", sql`${t.startsAt} < ${t.endsAt}`),
    tenantIsolation(t.centerId),
  ],
);

/** The class session a row of its register belongs to, gone with the session. */
export const classSessionId = () =>
  uuid()
    .notNull()
    .references(() => classSessions.id, { onDelete: "cascade" });
