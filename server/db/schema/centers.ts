import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { billingEnum, centerStatusEnum, enquiryStatusEnum, messageLanguageEnum } from "./enums.ts";
import { users } from "./users.ts";
import { pricingPlans } from "./pricing.ts";
import { tenantIsolation } from "./tenant-policy.ts";
import type { LateAnswerPolicy } from "#common/mock-tests/late-answers.ts";

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
    ownerId: uuid().references((): any => users.id, { onDelete: "set null" }),
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

/**
 * A domain an institute has asked for and not yet proven (server/services/domains.ts): the
 * token the owner puts in a DNS TXT record, or that the platform answers over HTTP once the
 * domain points here. One per institute (a new one replaces it); no uniqueness across
 * institutes, so a claim blocks nobody; it lapses at `expiresAt`. Proving it binds the domain
 * (`centers.custom_domain`) and removes the claim.
 */
export const domainClaims = pgTable(
  "domain_claims",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: uuid()
      .notNull()
      .references(() => centers.id, { onDelete: "cascade" }),
    /** Lower-cased host name without port or trailing dot. */
    domain: text().notNull(),
    /** Random, shown to the owner: the TXT record's value and the HTTP check's path. */
    token: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** When the platform last looked, and what it found (a DomainCheckOutcome). */
    checkedAt: timestamp({ withTimezone: true }),
    lastOutcome: text(),
  },
  (t) => [
    uniqueIndex("domain_claims_center_key").on(t.centerId),
    uniqueIndex("domain_claims_token_key").on(t.token),
    index("domain_claims_domain_idx").on(t.domain),
  ],
);

export const templateSelections = pgTable(
  "template_selections",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: uuid()
      .notNull()
      .references(() => centers.id, { onDelete: "cascade" }),
    userId: uuid().references(() => users.id, { onDelete: "set null" }),
    templateId: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("template_selections_created_idx").on(t.createdAt),
    index("template_selections_center_idx").on(t.centerId, t.createdAt),
    tenantIsolation(t.centerId),
  ],
);

/** Leads from the enquiry form on an institute's site. */
export const enquiries = pgTable(
  "enquiries",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: uuid()
      .notNull()
      .references(() => centers.id, { onDelete: "cascade" }),
    name: text().notNull(),
    phone: text().notNull(),
    email: text().notNull(),
    program: text(),
    message: text(),
    /** Which button the visitor used: Enquire, Apply Now or Book Demo. */
    kind: text().notNull().default("Enquire"),
    status: enquiryStatusEnum().notNull().default("new"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("enquiries_center_created_idx").on(t.centerId, t.createdAt), tenantIsolation(t.centerId)],
);
