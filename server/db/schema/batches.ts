import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { batchStudentStatusEnum } from "./enums.ts";
import { instituteId, users } from "./users-and-centers.ts";
import { contents } from "./content.ts";
import { feePlans } from "./fees.ts";
import { tenantIsolation } from "./tenant-policy.ts";

/**
 * A batch, the unit an institute runs (issue 41 §1, decision 0042): a course or exam, its dates,
 * centre, medium, capacity, teachers and fee plan; students are admitted into it (`batch_students`).
 */
export const batches = pgTable(
  "batches",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    name: text().notNull(),
    /** The course or exam and its phase ("JEE Main 2027, two-year"). */
    course: text(),
    startsOn: date({ mode: "string" }).notNull(),
    endsOn: date({ mode: "string" }),
    /** Seats; null has no limit. Past it, admissions wait on the waiting list. */
    capacity: integer(),
    /** The language it is taught in (English, Hindi…). */
    medium: text(),
    /** The institute's branch or classroom where it meets. */
    centre: text(),
    /** The fee plan its admitted students are assigned (issue 42): an account under it opens on admission. */
    feePlanId: uuid().references(() => feePlans.id, { onDelete: "set null" }),
    createdById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("batches_center_starts_idx").on(t.centerId, t.startsOn),
    check("batches_dates_check", sql`${t.endsOn} is null or ${t.endsOn} >= ${t.startsOn}`),
    check("batches_capacity_check", sql`${t.capacity} is null or ${t.capacity} > 0`),
    tenantIsolation(t.centerId),
  ],
);

/** The batch's teachers: people holding a teacher's, creator's or owner's role in its institute when named. */
export const batchTeachers = pgTable(
  "batch_teachers",
  {
    batchId: uuid()
      .notNull()
      .references(() => batches.id, { onDelete: "cascade" }),
    centerId: instituteId(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.batchId, t.userId] }),
    index("batch_teachers_user_idx").on(t.userId),
    tenantIsolation(t.centerId),
  ],
);

/**
 * A student's place in a batch: admitted, waitlisted (at `position`), moved (to `movedToBatchId`)
 * or left. Moved and left rows are history; one live row (admitted or waitlisted) per student
 * and batch.
 */
export const batchStudents = pgTable(
  "batch_students",
  {
    id: uuid().primaryKey().defaultRandom(),
    batchId: uuid()
      .notNull()
      .references(() => batches.id, { onDelete: "cascade" }),
    centerId: instituteId(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: batchStudentStatusEnum().notNull(),
    /** Place on the waiting list (lowest first); null once admitted. */
    position: integer(),
    waitlistedAt: timestamp({ withTimezone: true }),
    admittedAt: timestamp({ withTimezone: true }),
    leftAt: timestamp({ withTimezone: true }),
    movedToBatchId: uuid().references((): AnyPgColumn => batches.id, {
      onDelete: "set null",
    }),
    addedById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("batch_students_live_key")
      .on(t.batchId, t.userId)
      .where(sql`${t.status} in ('admitted', 'waitlisted')`),
    index("batch_students_batch_idx").on(t.batchId, t.status, t.position),
    index("batch_students_user_idx").on(t.userId),
    tenantIsolation(t.centerId),
  ],
);

/** What a batch's students may open for being in it (issue 41 §1): items, tests and series of its institute. */
export const batchContents = pgTable(
  "batch_contents",
  {
    batchId: uuid()
      .notNull()
      .references(() => batches.id, { onDelete: "cascade" }),
    centerId: instituteId(),
    contentId: uuid()
      .notNull()
      .references(() => contents.id, { onDelete: "cascade" }),
    addedById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.batchId, t.contentId] }),
    index("batch_contents_content_idx").on(t.contentId),
    tenantIsolation(t.centerId),
  ],
);
