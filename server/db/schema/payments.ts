import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { billingEnum, orderSubjectEnum, paymentStatusEnum, refundStatusEnum } from "./enums.ts";
import { centers, users } from "./users-and-centers.ts";
import { pricingPlans } from "./pricing.ts";
import { contents } from "./content.ts";
import { merchantAccounts } from "./merchant-accounts.ts";
import { feeAccounts } from "./fees.ts";
import { sellerIsolation } from "./tenant-policy.ts";

/**
 * The order ledger (issue 40 §2): every sale, whatever it sells, is one row here with the thing
 * bought as its subject (`subject` and its column: `planId`, `contentId`). The gateway order's
 * `receipt` is this row's id. Payment completion, webhooks, refunds and invoices find an order
 * here and nowhere else.
 */
export const orders = pgTable(
  "orders",
  {
    id: uuid().primaryKey().defaultRandom(),
    subject: orderSubjectEnum().notNull(),
    /** The plan bought (null once the plan is deleted; its name and terms stay in `plan_orders`). */
    planId: uuid().references(() => pricingPlans.id, { onDelete: "set null" }),
    contentId: uuid().references(() => contents.id, { onDelete: "restrict" }),
    /** The fee account a fee order pays into (settled oldest due first, as at the desk). */
    feeAccountId: uuid().references((): AnyPgColumn => feeAccounts.id, { onDelete: "restrict" }),
    buyerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** The institute selling (merchant of record); null when the platform sells (plans, content of a creator with no institute). */
    sellerCenterId: uuid().references(() => centers.id, { onDelete: "set null" }),
    /** The content's creator, for their sales figures. */
    creatorId: uuid().references(() => users.id, { onDelete: "restrict" }),
    /** Minor units, priced by the server (server/services/orders.ts `quote`). */
    amount: integer().notNull(),
    currency: text().notNull().default("INR"),
    /**
     * The institute's Razorpay account the order was placed on (its checkout, webhooks and refunds
     * use that account's keys); null for orders on the platform's own account.
     */
    merchantAccountId: uuid().references(() => merchantAccounts.id, { onDelete: "restrict" }),
    gatewayOrderId: text().notNull(),
    gatewayPaymentId: text(),
    status: paymentStatusEnum().notNull().default("created"),
    paidAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("orders_gateway_order_key").on(t.gatewayOrderId),
    uniqueIndex("orders_gateway_payment_key")
      .on(t.gatewayPaymentId)
      .where(sql`${t.gatewayPaymentId} is not null`),
    index("orders_buyer_created_idx").on(t.buyerId, t.createdAt),
    index("orders_plan_idx").on(t.planId),
    index("orders_content_idx").on(t.contentId),
    index("orders_paid_idx")
      .on(t.subject, t.paidAt)
      .where(sql`${t.status} = 'paid'`),
    index("orders_creator_paid_idx")
      .on(t.creatorId, t.paidAt)
      .where(sql`${t.status} = 'paid'`),
    index("orders_seller_paid_idx")
      .on(t.sellerCenterId, t.paidAt)
      .where(sql`${t.status} = 'paid'`),
    check("orders_subject_check", sql`${t.subject} <> 'content' or ${t.contentId} is not null`),
    check("orders_fee_check", sql`${t.subject}::text <> 'fee' or ${t.feeAccountId} is not null`),
    sellerIsolation(t.sellerCenterId),
  ],
);

/** What a plan order needs beyond the ledger's row: the terms bought and the institute it is for. */
export const planOrders = pgTable(
  "plan_orders",
  {
    orderId: uuid()
      .primaryKey()
      .references(() => orders.id, { onDelete: "restrict" }),
    planName: text().notNull(),
    billing: billingEnum().notNull(),
    durationDays: integer().notNull(),
    instituteName: text().notNull(),
    ownerName: text().notNull(),
    email: text().notNull(),
    phone: text(),
    domain: text().notNull(),
    /** The institute the paid order made or renewed. */
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
  },
  (t) => [index("plan_orders_center_idx").on(t.centerId)],
);

/** Razorpay webhook deliveries already handled, keyed by `x-razorpay-event-id`. */
export const webhookEvents = pgTable("webhook_events", {
  id: text().primaryKey(),
  event: text().notNull(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * A refund of a paid order (the plans' 30-day money-back guarantee). At most one refund that has
 * not failed exists per order (the partial unique index), so two people pressing Refund at once
 * refund once; its id is the gateway's idempotency key, so a retried call refunds once too.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
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
    uniqueIndex("refunds_order_live_key")
      .on(t.orderId)
      .where(sql`${t.status} <> 'failed'`),
    uniqueIndex("refunds_gateway_refund_key")
      .on(t.gatewayRefundId)
      .where(sql`${t.gatewayRefundId} is not null`),
    index("refunds_processed_idx").on(t.processedAt),
  ],
);
