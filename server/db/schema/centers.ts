import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { billingEnum, centerStatusEnum, enquiryStatusEnum } from "./enums.ts";
import { users } from "./users.ts";
import { pricingPlans } from "./pricing.ts";
import { tenantIsolation } from "./tenant-policy.ts";

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
    /** Lower-cased host name without port or trailing dot. */
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
