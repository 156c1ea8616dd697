import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { messageChannelEnum, messageStatusEnum } from "./enums.ts";
import { centers, users } from "./users-and-centers.ts";
import { invoices } from "./invoices.ts";

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
    /** Who an e-mail says it is from: the platform, or "{institute} via Pathshala" (server/messages/branding.ts). */
    sender: text(),
    text: text().notNull(),
    html: text(),
    /** The template's values, for WhatsApp and SMS templates whose text the provider holds. */
    values: jsonb().$type<Record<string, string>>().notNull().default({}),
    status: messageStatusEnum().notNull().default("queued"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    /** An invoice or credit note sent with it (e-mail attaches its PDF). */
    invoiceId: uuid().references(() => invoices.id, { onDelete: "set null" }),
    /** Set for messages a sweep sends (reminders): the same key is written once, by whichever instance comes first. */
    dedupeKey: text(),
    /**
     * Who asked for a message to an address given in the request (a visitor's form, a code to a
     * number being added, an invitation): the account and the network address, which the
     * recipient policy's daily limits count (server/messages/recipient-policy.ts).
     */
    requestedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    requestedFrom: text(),
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
    // The recipient policy's daily counts: per recipient, per institute, per account, per address.
    index("messages_recipient_idx").on(t.recipient, t.createdAt),
    index("messages_center_idx").on(t.centerId, t.createdAt),
    index("messages_requested_by_idx")
      .on(t.requestedBy, t.createdAt)
      .where(sql`${t.requestedBy} is not null`),
    index("messages_requested_from_idx")
      .on(t.requestedFrom, t.createdAt)
      .where(sql`${t.requestedFrom} is not null`),
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
