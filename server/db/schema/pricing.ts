import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { billingEnum } from "./enums.ts";

export interface PlanFeature {
  name: string;
  description?: string;
  included: boolean;
}

/** Prices are integer paise; the API speaks rupees. */
export const pricingPlans = pgTable(
  "pricing_plans",
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    description: text().notNull().default(""),
    currency: text().notNull().default("INR"),
    monthlyPrice: integer().notNull(),
    quarterlyPrice: integer().notNull(),
    yearlyPrice: integer().notNull(),
    activeDuration: billingEnum().notNull().default("monthly"),
    quarterlyMonths: integer().notNull().default(3),
    yearlyYears: integer().notNull().default(1),
    features: jsonb().$type<PlanFeature[]>().notNull().default([]),
    isActive: boolean().notNull().default(true),
    isPopular: boolean().notNull().default(false),
    sortOrder: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("pricing_plans_active_order_idx").on(t.isActive, t.sortOrder)],
);
