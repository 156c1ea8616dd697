import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { contentTypeEnum, paymentStatusEnum } from "./enums.ts";
import { users } from "./users.ts";
import { centers } from "./centers.ts";
import { tenantIsolation } from "./tenant-policy.ts";
import { merchantAccounts } from "./merchant-accounts.ts";

export const contents = pgTable(
  "contents",
  {
    id: uuid().primaryKey().defaultRandom(),
    creatorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The institute (business) the content is assigned to, if any. */
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    type: contentTypeEnum().notNull(),
    title: text().notNull(),
    description: text().notNull().default(""),
    /** Paise. */
    price: integer().notNull().default(0),
    fileKey: text(),
    fileName: text(),
    fileSize: bigint({ mode: "number" }),
    fileMime: text(),
    thumbnailKey: text(),
    liveLink: text(),
    liveStartsAt: timestamp({ withTimezone: true }),
    isActive: boolean().notNull().default(true),
    /** Set instead of deleting when students have bought it, so they keep access. */
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("contents_creator_created_idx").on(t.creatorId, t.createdAt),
    index("contents_center_type_idx")
      .on(t.centerId, t.type)
      .where(sql`${t.isActive} and ${t.archivedAt} is null`),
    // Everything on an institute's site, switched on or off (the owner's Website Content; removing a member).
    index("contents_center_created_idx")
      .on(t.centerId, t.createdAt.desc())
      .where(sql`${t.archivedAt} is null`),
    index("contents_catalog_idx")
      .on(t.type, t.createdAt)
      .where(sql`${t.isActive} and ${t.archivedAt} is null`),
    // The platform catalog's order: upcoming classes first, then newest.
    index("contents_catalog_order_idx")
      .on(t.liveStartsAt.asc().nullsLast(), t.createdAt.desc().nullsFirst(), t.id)
      .where(sql`${t.isActive} and ${t.archivedAt} is null`),
    tenantIsolation(t.centerId),
  ],
);

export const contentOrders = pgTable(
  "content_orders",
  {
    id: uuid().primaryKey().defaultRandom(),
    contentId: uuid()
      .notNull()
      .references(() => contents.id, { onDelete: "restrict" }),
    studentId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** Denormalised for the creator's sales figures. */
    creatorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** The institute whose site the order was placed on, if any. */
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    amount: integer().notNull(),
    currency: text().notNull().default("INR"),
    gatewayOrderId: text().notNull(),
    gatewayPaymentId: text(),
    /**
     * The institute's Razorpay account the order was placed on (its checkout, webhooks and refunds
     * use that account's keys); null for orders on the platform's own account (made before
     * decision 0040, or for a creator with no institute).
     */
    merchantAccountId: uuid().references(() => merchantAccounts.id, { onDelete: "restrict" }),
    status: paymentStatusEnum().notNull().default("created"),
    paidAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("content_orders_gateway_order_key").on(t.gatewayOrderId),
    uniqueIndex("content_orders_gateway_payment_key")
      .on(t.gatewayPaymentId)
      .where(sql`${t.gatewayPaymentId} is not null`),
    index("content_orders_creator_paid_idx")
      .on(t.creatorId, t.paidAt)
      .where(sql`${t.status} = 'paid'`),
    index("content_orders_content_idx").on(t.contentId),
    index("content_orders_student_idx").on(t.studentId),
    index("content_orders_center_paid_idx")
      .on(t.centerId, t.paidAt)
      .where(sql`${t.status} = 'paid'`),
    tenantIsolation(t.centerId),
  ],
);

export const enrollments = pgTable(
  "enrollments",
  {
    id: uuid().primaryKey().defaultRandom(),
    studentId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    contentId: uuid()
      .notNull()
      .references(() => contents.id, { onDelete: "cascade" }),
    orderId: uuid().references(() => contentOrders.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("enrollments_student_content_key").on(t.studentId, t.contentId),
    index("enrollments_student_created_idx").on(t.studentId, t.createdAt),
    index("enrollments_content_idx").on(t.contentId),
  ],
);
