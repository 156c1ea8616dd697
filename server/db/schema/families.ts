import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { consentAnswerEnum, guardianRelationEnum, guardianStatusEnum } from "./enums.ts";
import { instituteId, users } from "./users-and-centers.ts";
import { tenantIsolation } from "./tenant-policy.ts";

/**
 * A parent's link to a child at one institute (issue 41, decision 0047). The institute (or the
 * student) names the parent's mobile number; the link is `invited` until the parent, signed in on
 * that number, answers the consent notice: `active` when they agree, `declined` when not. It ends
 * as `withdrawn` (the parent took consent back) or `removed` (the institute ended it). Everything a
 * parent sees of a child, and every message sent to a family, goes through an active link: never
 * through a name, a number or who wrote what.
 */
export const guardians = pgTable(
  "guardians",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    studentId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The parent's account; null until they accept. */
    parentId: uuid().references(() => users.id, { onDelete: "cascade" }),
    /** The parent's name as the institute or student typed it. */
    name: text().notNull(),
    relation: guardianRelationEnum().notNull(),
    /** The invited mobile number (E.164): only an account holding it, verified, may accept. */
    phone: text().notNull(),
    status: guardianStatusEnum().notNull().default("invited"),
    invitedById: uuid().references(() => users.id, { onDelete: "set null" }),
    /** SHA-256 (hex) of the invitation link's token, never the token itself. */
    tokenHash: text(),
    tokenExpiresAt: timestamp({ withTimezone: true }),
    invitedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When consent was given (the link became active). */
    linkedAt: timestamp({ withTimezone: true }),
    /** When the link ended (declined, withdrawn or removed). */
    endedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One live link per child and number in an institute; ended links are history.
    uniqueIndex("guardians_live_key")
      .on(t.centerId, t.studentId, t.phone)
      .where(sql`${t.status} in ('invited', 'active')`),
    // "Whose parent is this account": the parent's area and every access check.
    index("guardians_parent_idx")
      .on(t.parentId, t.studentId)
      .where(sql`${t.status} = 'active'`),
    // "Who is this child's family": alerts, reminders and the institute's student record.
    index("guardians_student_idx").on(t.studentId, t.status),
    uniqueIndex("guardians_token_key")
      .on(t.tokenHash)
      .where(sql`${t.tokenHash} is not null`),
    tenantIsolation(t.centerId),
  ],
);

/**
 * What a parent was shown and answered (the DPDP Act's verifiable consent for a minor's data):
 * one row per answer, never changed or deleted (a trigger refuses), so the record outlives the link
 * and the account. `parentId` is kept without a reference for that reason, and is null for a
 * refusal by a number no account holds (the code sent to it proved who answered).
 */
export const parentConsents = pgTable(
  "parent_consents",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    guardianId: uuid()
      .notNull()
      .references(() => guardians.id, { onDelete: "cascade" }),
    parentId: uuid(),
    answer: consentAnswerEnum().notNull(),
    /** The notice's version, and its exact words as shown. */
    noticeVersion: text().notNull(),
    noticeText: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("parent_consents_guardian_idx").on(t.guardianId, t.at), tenantIsolation(t.centerId)],
);
