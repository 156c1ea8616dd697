import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { billingEnum, paymentStatusEnum, refundStatusEnum } from "./enums.ts";
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

/**
 * A refund of a plan purchase (the 30-day money-back guarantee). At most one refund that has not
 * failed exists per purchase (the partial unique index), so two admins pressing Refund at once
 * refund once; its id is the gateway's idempotency key, so a retried call refunds once too.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid().primaryKey().defaultRandom(),
    purchaseId: uuid()
      .notNull()
      .references(() => purchases.id, { onDelete: "restrict" }),
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    amount: integer().notNull(),
    currency: text().notNull().default("INR"),
    status: refundStatusEnum().notNull().default("pending"),
    gatewayRefundId: text(),
    requestedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    failure: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("refunds_purchase_live_key")
      .on(t.purchaseId)
      .where(sql`${t.status} <> 'failed'`),
    uniqueIndex("refunds_gateway_refund_key")
      .on(t.gatewayRefundId)
      .where(sql`${t.gatewayRefundId} is not null`),
    index("refunds_processed_idx").on(t.processedAt),
  ],
);
