import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { billingEnum, centerStatusEnum, messageLanguageEnum, roleEnum } from "./enums.ts";
import { pricingPlans } from "./pricing.ts";
import type { LateAnswerPolicy } from "#common/mock-tests/late-answers.ts";

/*
 * People and institutes name each other (a person's sign-up institute, an institute's owner), so
 * the two tables are defined together: every other table module imports them from here.
 */

export const users = pgTable(
  "users",
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    /** Always stored trimmed and lower-cased; unique across the platform. */
    email: text().notNull(),
    passwordHash: text().notNull(),
    role: roleEnum().notNull(),
    avatarKey: text(),
    /** A mobile number in E.164, once verified by a code (it can then sign in with a code). */
    phone: text(),
    phoneVerifiedAt: timestamp({ withTimezone: true }),
    /** The buyer's state (its GST code) for the place of supply on their invoices. */
    gstState: text(),
    /** The institute whose domain the person signed up on, if any. */
    signupCenterId: uuid().references((): AnyPgColumn => centers.id, { onDelete: "set null" }),
    /** The language of this person's messages; null follows the institute a message is about, else English. */
    messageLanguage: messageLanguageEnum(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    index("users_role_created_idx").on(t.role, t.createdAt),
    index("users_signup_center_idx").on(t.signupCenterId),
    uniqueIndex("users_phone_key").on(t.phone),
  ],
);

export interface SiteProfile {
  tagline?: string;
  address?: string;
  phone?: string;
  contactEmail?: string;
  programs?: { name: string; description?: string }[];
  testimonials?: { name: string; text: string; result?: string }[];
  logoKey?: string;
  brandColor?: string;
}

/** An institute (a tenant). Its custom domain and `{slug}.{PLATFORM_DOMAIN}` serve its site. */
export const centers = pgTable(
  "centers",
  {
    id: uuid().primaryKey().defaultRandom(),
    slug: text().notNull(),
    instituteName: text().notNull(),
    /**
     * The institute's own domain, bound once its owner proved control of it (issue 37 §3; see
     * `domainClaims` for one asked for and not yet proven). Lower-cased host name without port or
     * trailing dot. Its `www.` twin (or, for a `www.` domain, its apex) serves the institute too.
     */
    customDomain: text(),
    website: text(),
    superAdminPath: text().notNull().default("/admin"),
    ownerId: uuid().references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    planId: uuid().references(() => pricingPlans.id, { onDelete: "set null" }),
    planName: text(),
    billing: billingEnum(),
    status: centerStatusEnum().notNull().default("active"),
    startsAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }),
    /** Set while the center runs on its free trial (then `expiresAt` is the same instant); null once paid. */
    trialEndsAt: timestamp({ withTimezone: true }),
    templateId: text().notNull().default("t1"),
    siteProfile: jsonb().$type<SiteProfile>().notNull().default({}),
    /** The institute as a seller on its invoices (issue 30 §6): legal name, address, GST state code and GSTIN. */
    legalName: text(),
    billingAddress: text(),
    gstState: text(),
    gstin: text(),
    /**
     * WhatsApp and SMS about this institute may go to mobile numbers outside India (its owner's
     * choice, off by default): premium-rate and other non-mobile numbers never get them.
     */
    internationalMessages: boolean().notNull().default(false),
    /** The language of messages sent on the institute's behalf, to those who chose none themselves. */
    messageLanguage: messageLanguageEnum().notNull().default("en"),
    /**
     * Answers made before a sitting's deadline that reach the server after it (issue 38 §2): how
     * long after the deadline they are still taken, and whether they count, wait for review or not.
     */
    lateAnswerGraceMinutes: integer().notNull().default(10),
    lateAnswerPolicy: text().$type<LateAnswerPolicy>().notNull().default("count"),
    /**
     * The institute's connected Razorpay account (a `merchant_accounts` row), which its students'
     * payments are made on; null until the owner connects one, and its paid items are not on sale.
     * Kept here so the site's cached institute (and so its catalog) changes when it does.
     */
    merchantAccountId: uuid(),
    /** Bumped on every change that alters the rendered site; part of the HTML cache key. */
    siteVersion: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("centers_slug_key").on(t.slug),
    uniqueIndex("centers_custom_domain_key")
      .on(t.customDomain)
      .where(sql`${t.customDomain} is not null`),
    index("centers_owner_idx").on(t.ownerId),
    index("centers_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** The institute a tenant row belongs to: required, and gone with the institute. */
export const instituteId = () =>
  uuid()
    .notNull()
    .references(() => centers.id, { onDelete: "cascade" });
