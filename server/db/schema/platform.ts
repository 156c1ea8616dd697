import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { noticeAudienceEnum } from "./enums.ts";
import { centers, users } from "./users-and-centers.ts";

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
  noticesSeenAt: timestamp({ withTimezone: true }),
  noticesClearedAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Small key/value facts about this installation (seed marker, generated secrets). */
export const appMeta = pgTable("app_meta", {
  key: text().primaryKey(),
  value: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * In-app notices: trials started and ended, refunds. Admins' notices (audience "admins") are read
 * by every admin, each with their own seen/cleared times; an owner's are theirs alone. `key`
 * makes a notice that a job may try to write more than once (a trial's end) exist once.
 */
export const notices = pgTable(
  "notices",
  {
    id: uuid().primaryKey().defaultRandom(),
    audience: noticeAudienceEnum().notNull(),
    userId: uuid().references(() => users.id, { onDelete: "cascade" }),
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    kind: text().notNull(),
    title: text().notNull(),
    body: text().notNull(),
    key: text(),
    readAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("notices_key").on(t.key),
    index("notices_audience_created_idx").on(t.audience, t.createdAt),
    index("notices_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * The platform's own details that admins edit (one row, id 1): where institutes point their
 * domains, how they reach support, and the legal identity on bills. A null column falls back to
 * the environment's default.
 */
export const platformSettings = pgTable(
  "platform_settings",
  {
    id: integer().primaryKey().default(1),
    dnsTargetIp: text(),
    dnsTargetHost: text(),
    supportEmail: text(),
    supportPhone: text(),
    supportChatUrl: text(),
    legalName: text(),
    legalAddress: text(),
    gstin: text(),
    /** What invoices charge: SAC code and GST rate in per cent (as text, like every setting). */
    sacCode: text(),
    gstRate: text(),
    updatedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("platform_settings_one_row", sql`${t.id} = 1`)],
);
