import { index, pgTable, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users-and-centers.ts";
import { contents } from "./content.ts";
import { orders } from "./payments.ts";

/** A student's right to a content: free at once, or by the paid order that made it. */
export const enrollments = pgTable(
  "enrollments",
  {
    id: uuid().primaryKey().defaultRandom(),
    studentId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    contentId: uuid()
      .notNull()
      .references(() => contents.id, { onDelete: "cascade" }),
    orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("enrollments_student_content_key").on(t.studentId, t.contentId),
    index("enrollments_student_created_idx").on(t.studentId, t.createdAt),
    index("enrollments_content_idx").on(t.contentId),
  ],
);
