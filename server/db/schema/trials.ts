import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { billingEnum } from "./enums.ts";
import { users } from "./users.ts";
import { centers } from "./centers.ts";
import { pricingPlans } from "./pricing.ts";

/**
 * Free trials, kept after they end or convert: one per owner and one per domain, ever (the unique
 * indexes decide between two requests at once).
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
    uniqueIndex("trials_domain_key").on(t.domain),
    index("trials_ends_idx").on(t.endsAt),
    index("trials_center_idx").on(t.centerId),
  ],
);
