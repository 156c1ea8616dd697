import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { enquiryStatusEnum } from "./enums.ts";
import { instituteId, users } from "./users-and-centers.ts";
import { tenantIsolation } from "./tenant-policy.ts";

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
    centerId: instituteId(),
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
    centerId: instituteId(),
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
    centerId: instituteId(),
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
