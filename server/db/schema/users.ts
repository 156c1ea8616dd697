import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { roleEnum, sessionKindEnum } from "./enums.ts";
import { centers, users } from "./users-and-centers.ts";

/**
 * How many accounts each role has, kept exact by triggers on users (migration 0005): the admin
 * overview reads these rows instead of counting every account on each visit.
 */
export const userRoleCounts = pgTable("user_role_counts", {
  role: roleEnum().primaryKey(),
  accounts: integer().notNull().default(0),
});

/**
 * One row per issued token; `id` is the SHA-256 of the token, never the token itself.
 * Refresh tokens of one login share a `familyId`; a rotated token keeps its row with
 * `rotatedAt` set so that its reuse can be detected and the family revoked.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: sessionKindEnum().notNull(),
    /** The host the session was issued on; it is valid only there. */
    host: text().notNull(),
    familyId: uuid(),
    persistent: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    absoluteExpiresAt: timestamp({ withTimezone: true }).notNull(),
    rotatedAt: timestamp({ withTimezone: true }),
    /**
     * A rotated refresh token's successor pair, sealed under a key only the rotated token makes
     * (server/auth/token-seal.ts): for a few seconds a second use of it gets the same pair.
     */
    successor: text(),
    revokedAt: timestamp({ withTimezone: true }),
    ip: text(),
    userAgent: text(),
  },
  (t) => [
    index("sessions_user_idx").on(t.userId),
    index("sessions_family_idx")
      .on(t.familyId)
      .where(sql`${t.familyId} is not null`),
    index("sessions_expires_idx").on(t.absoluteExpiresAt),
  ],
);

/** Sliding-window rate limiting shared by every app instance through the database. */
export const rateLimitHits = pgTable(
  "rate_limit_hits",
  {
    id: uuid().primaryKey().defaultRandom(),
    bucket: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("rate_limit_hits_bucket_time_idx").on(t.bucket, t.createdAt)],
);

/** A password reset link: single use, 30 minutes, only its SHA-256 kept; it works on one site. */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The site the link works on: the institute the account lives on, or the platform (null). */
    centerId: uuid().references(() => centers.id, { onDelete: "cascade" }),
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
    /** The site the link works on: the institute the account lives on, or the platform (null). */
    centerId: uuid().references(() => centers.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("email_changes_user_idx").on(t.userId)],
);

/**
 * A one-time code sent by WhatsApp and SMS: to verify a phone an account is adding, to sign in
 * with a verified phone, or to prove a parent holds the number their invitation was sent to
 * (`family`: no account may hold it yet, so no `userId`). Only a hash of the code is kept; it
 * lasts 10 minutes and 5 tries.
 */
export const phoneCodes = pgTable(
  "phone_codes",
  {
    id: uuid().primaryKey().defaultRandom(),
    purpose: text().$type<"verify" | "sign-in" | "family">().notNull(),
    phone: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: "cascade" }),
    /** A sign-in code's site (where it was asked for, and works): an institute, or the platform (null). */
    centerId: uuid().references(() => centers.id, { onDelete: "cascade" }),
    codeHash: text().notNull(),
    tries: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("phone_codes_phone_idx").on(t.phone, t.createdAt)],
);
