import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { billingEnum, paymentStatusEnum } from "./enums.ts";
import { users } from "./users.ts";
import { centers } from "./centers.ts";
import { pricingPlans } from "./pricing.ts";

/** A plan order. `receipt` at the gateway is this row's id. */
export const purchases = pgTable(
  "purchases",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    planId: uuid().references(() => pricingPlans.id, { onDelete: "set null" }),
    planName: text().notNull(),
    billing: billingEnum().notNull(),
    durationDays: integer().notNull(),
    amount: integer().notNull(),
    currency: text().notNull().default("INR"),
    instituteName: text().notNull(),
    ownerName: text().notNull(),
    email: text().notNull(),
    phone: text(),
    domain: text().notNull(),
    gatewayOrderId: text().notNull(),
    gatewayPaymentId: text(),
    status: paymentStatusEnum().notNull().default("created"),
    paidAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("purchases_gateway_order_key").on(t.gatewayOrderId),
    uniqueIndex("purchases_gateway_payment_key")
      .on(t.gatewayPaymentId)
      .where(sql`${t.gatewayPaymentId} is not null`),
    index("purchases_user_created_idx").on(t.userId, t.createdAt),
    index("purchases_center_idx").on(t.centerId),
    index("purchases_plan_idx").on(t.planId),
    index("purchases_paid_idx")
      .on(t.paidAt)
      .where(sql`${t.status} = 'paid'`),
  ],
);

/** Razorpay webhook deliveries already handled, keyed by `x-razorpay-event-id`. */
export const webhookEvents = pgTable("webhook_events", {
  id: text().primaryKey(),
  event: text().notNull(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
