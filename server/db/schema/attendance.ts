import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { attendanceSourceEnum, attendanceStatusEnum } from "./enums.ts";
import { centers, instituteId, users } from "./users-and-centers.ts";
import { classSessionId, classSessions } from "./timetables.ts";
import { tenantIsolation } from "./tenant-policy.ts";

/** An institute's attendance rules (issue 41 §3–4); an institute without a row has the defaults. */
export const attendancePolicies = pgTable(
  "attendance_policies",
  {
    centerId: uuid()
      .primaryKey()
      .references(() => centers.id, { onDelete: "cascade" }),
    /** Arriving more than this many minutes after the start is Late. */
    lateAfterMinutes: integer().notNull().default(10),
    /** In an online class, this many minutes in the class (rejoins merged) make Present. */
    onlineMinimumMinutes: integer().notNull().default(45),
    /** Below this share of sessions over the last 30 days a student is flagged. */
    lowAttendancePercent: integer().notNull().default(75),
    /** Tell an absent student (and their family) after the register closes. */
    absenceAlerts: boolean().notNull().default(true),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("attendance_policies_late_check", sql`${t.lateAfterMinutes} between 0 and 240`),
    check("attendance_policies_online_check", sql`${t.onlineMinimumMinutes} between 1 and 600`),
    check("attendance_policies_percent_check", sql`${t.lowAttendancePercent} between 1 and 100`),
    tenantIsolation(t.centerId),
  ],
);

/**
 * The one register of a class session. It closes when the teacher closes it or when the session
 * is over; absence alerts go once after that (`alertsSentAt`). Which roll-call is newest is kept
 * per mark (`attendance_marks.seq`), not here.
 */
export const attendanceRegisters = pgTable(
  "attendance_registers",
  {
    sessionId: uuid()
      .primaryKey()
      .references(() => classSessions.id, { onDelete: "cascade" }),
    centerId: instituteId(),
    closedAt: timestamp({ withTimezone: true }),
    closedById: uuid().references(() => users.id, { onDelete: "set null" }),
    alertsSentAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("attendance_registers_center_idx").on(t.centerId, t.closedAt), tenantIsolation(t.centerId)],
);

/** One row per student per session, whatever the inputs (roll-call, QR, online) that made it. */
export const attendanceMarks = pgTable(
  "attendance_marks",
  {
    sessionId: classSessionId(),
    centerId: instituteId(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: attendanceStatusEnum().notNull(),
    minutesLate: integer(),
    /** Minutes in the online class, rejoins merged. */
    onlineMinutes: integer(),
    source: attendanceSourceEnum().notNull(),
    /**
     * The sequence of the roll-call that last set this mark (the phone's clock in milliseconds at
     * the tap): a delayed or repeated batch from a phone that was offline changes only the marks
     * it is newer for, so two teachers marking at once lose nothing.
     */
    seq: bigint({ mode: "number" }).notNull().default(0),
    markedById: uuid().references(() => users.id, { onDelete: "set null" }),
    markedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.userId] }),
    index("attendance_marks_user_idx").on(t.userId, t.markedAt),
    tenantIsolation(t.centerId),
  ],
);

/** Every change to a mark after it was first made, with who, when and why. Append only. */
export const attendanceMarkChanges = pgTable(
  "attendance_mark_changes",
  {
    id: uuid().primaryKey().defaultRandom(),
    sessionId: classSessionId(),
    centerId: instituteId(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fromStatus: attendanceStatusEnum(),
    toStatus: attendanceStatusEnum().notNull(),
    source: attendanceSourceEnum().notNull(),
    reason: text(),
    changedById: uuid().references(() => users.id, { onDelete: "set null" }),
    changedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("attendance_mark_changes_session_idx").on(t.sessionId, t.userId), tenantIsolation(t.centerId)],
);

/**
 * QR self-marking: which phone marked whom. One phone marks one student per session, so a code
 * passed around a bench marks only the first student signed in on that phone.
 */
export const attendanceQrScans = pgTable(
  "attendance_qr_scans",
  {
    sessionId: classSessionId(),
    centerId: instituteId(),
    deviceId: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    scannedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.deviceId] }), tenantIsolation(t.centerId)],
);

/**
 * Time in an online class through Pathshala's join page: an interval opens on join and is
 * extended by the page's heartbeat while it stays open; a rejoin opens another. Minutes are the
 * union of a student's intervals within the session.
 */
export const onlineAttendance = pgTable(
  "online_attendance",
  {
    id: uuid().primaryKey().defaultRandom(),
    sessionId: classSessionId(),
    centerId: instituteId(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    joinedAt: timestamp({ withTimezone: true }).notNull(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull(),
    leftAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("online_attendance_session_user_idx").on(t.sessionId, t.userId), tenantIsolation(t.centerId)],
);
