import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { billingEnum } from "./enums.ts";
import { centers, users } from "./users-and-centers.ts";
import { pricingPlans } from "./pricing.ts";

/**
 * Free trials, kept after they end or convert: one per owner, ever (the unique index decides
 * between two requests at once). `domain` is the one the trial asked for; it binds to the trial's
 * center only once proven (server/services/domains.ts), and a domain bound to any institute
 * cannot start another institute's trial, so an unproven ask blocks nobody.
 */
export const trials = pgTable(
  "trials",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    planId: uuid().references(() => pricingPlans.id, { onDelete: "set null" }),
    planName: text().notNull(),
    billing: billingEnum().notNull(),
    domain: text().notNull(),
    instituteName: text().notNull(),
    ownerName: text().notNull(),
    email: text().notNull(),
    phone: text(),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    /** When a plan was bought for it; the purchase is the center's. */
    convertedAt: timestamp({ withTimezone: true }),
    /** When its end was announced (by the job that looks for ended trials). */
    endNoticeAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("trials_user_key").on(t.userId),
    index("trials_domain_idx").on(t.domain),
    index("trials_ends_idx").on(t.endsAt),
    index("trials_center_idx").on(t.centerId),
  ],
);
