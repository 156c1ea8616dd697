import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { messageChannelEnum, messageStatusEnum } from "./enums.ts";
import { users } from "./users.ts";
import { centers } from "./centers.ts";

/**
 * The outbox (issue 30): one row per message to one recipient on one channel, written in the
 * transaction of the event that causes it and sent afterwards by the message worker. The row keeps
 * what was rendered, so the sandbox outbox and the admins' failed list show exactly what went.
 */
export const messages = pgTable(
  "messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    template: text().notNull(),
    channel: messageChannelEnum().notNull(),
    /** An e-mail address or a phone number in E.164 (+91…). */
    recipient: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: "set null" }),
    /** The institute the message is about (its name and colour brand it), if any. */
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    locale: text().notNull().default("en"),
    subject: text(),
    text: text().notNull(),
    html: text(),
    /** The template's values, for WhatsApp and SMS templates whose text the provider holds. */
    values: jsonb().$type<Record<string, string>>().notNull().default({}),
    status: messageStatusEnum().notNull().default("queued"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    /** Set for messages a sweep sends (reminders): the same key is written once, by whichever instance comes first. */
    dedupeKey: text(),
    /** Which transport took it ("sandbox", "smtp", "whatsapp", "msg91") and its id there. */
    transport: text(),
    providerId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("messages_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    index("messages_created_idx").on(t.createdAt),
    index("messages_status_idx").on(t.status, t.createdAt),
    uniqueIndex("messages_provider_key").on(t.transport, t.providerId),
    uniqueIndex("messages_dedupe_key").on(t.dedupeKey),
  ],
);

/** A recipient's "no more" on a channel (an e-mail's link, STOP on WhatsApp or SMS): promotional messages stop. */
export const messageOptOuts = pgTable(
  "message_opt_outs",
  {
    channel: messageChannelEnum().notNull(),
    recipient: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("message_opt_outs_key").on(t.channel, t.recipient)],
);

/** A password reset link: single use, 30 minutes, only its SHA-256 kept. */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);

/** A change of an account's e-mail, waiting for the link sent to the new address: single use, 24 hours, only its SHA-256 kept. */
export const emailChanges = pgTable(
  "email_changes",
  {
    id: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    newEmail: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("email_changes_user_idx").on(t.userId)],
);

/**
 * A one-time code sent by WhatsApp and SMS: to verify a phone an account is adding, or to sign in
 * with a verified phone. Only a hash of the code is kept; it lasts 10 minutes and 5 tries.
 */
export const phoneCodes = pgTable(
  "phone_codes",
  {
    id: uuid().primaryKey().defaultRandom(),
    purpose: text().$type<"verify" | "sign-in">().notNull(),
    phone: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text().notNull(),
    tries: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("phone_codes_phone_idx").on(t.phone, t.createdAt)],
);
