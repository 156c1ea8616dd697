import { date, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

export const seminarBookings = pgTable(
  "seminar_bookings",
  {
    id: uuid().primaryKey().defaultRandom(),
    fullName: text().notNull(),
    email: text().notNull(),
    phoneNumber: text().notNull(),
    city: text().notNull(),
    country: text().notNull(),
    date: date({ mode: "string" }).notNull(),
    time: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("seminar_bookings_email_date_key").on(t.email, t.date),
    index("seminar_bookings_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** Per-admin read state of the notifications panel (kept on the server, not in the browser). */
export const adminNotificationState = pgTable("admin_notification_state", {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  purchasesSeenAt: timestamp({ withTimezone: true }),
  selectionsSeenAt: timestamp({ withTimezone: true }),
  purchasesClearedAt: timestamp({ withTimezone: true }),
  selectionsClearedAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Small key/value facts about this installation (seed marker, generated secrets). */
export const appMeta = pgTable("app_meta", {
  key: text().primaryKey(),
  value: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
