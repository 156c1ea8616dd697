import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { invoiceKindEnum } from "./enums.ts";
import { centers, users } from "./users-and-centers.ts";
import { orders, refunds } from "./payments.ts";
import { sellerIsolation } from "./tenant-policy.ts";

/**
 * GST documents (issue 30 §6): a tax invoice, a bill of supply (a seller without a GSTIN) or a
 * credit note (a refund). Everything printed is copied in when the document is issued, so a later
 * change of name, address or rate never alters an issued document. The seller is the platform
 * (`sellerCenterId` null: plans, and content sold outside any institute) or an institute.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: invoiceKindEnum().notNull(),
    /** The series this number belongs to: the seller and the document kind ("platform:invoice", "{center id}:credit_note"). */
    series: text().notNull(),
    financialYear: text().notNull(),
    seq: integer().notNull(),
    number: text().notNull(),
    sellerCenterId: uuid().references(() => centers.id, { onDelete: "restrict" }),
    sellerName: text().notNull(),
    sellerAddress: text(),
    sellerGstin: text(),
    sellerState: text(),
    buyerUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    buyerName: text().notNull(),
    buyerEmail: text().notNull(),
    buyerGstin: text(),
    buyerState: text(),
    placeOfSupply: text(),
    description: text().notNull(),
    sac: text().notNull(),
    /** Per cent, as charged (0 on a bill of supply). */
    rate: integer().notNull(),
    /** Paise; a credit note's are positive amounts given back. */
    taxable: integer().notNull(),
    cgst: integer().notNull(),
    sgst: integer().notNull(),
    igst: integer().notNull(),
    total: integer().notNull(),
    currency: text().notNull().default("INR"),
    paymentId: text(),
    /** The order paid for (a credit note: the order refunded). */
    orderId: uuid().references(() => orders.id, { onDelete: "restrict" }),
    refundId: uuid().references(() => refunds.id, { onDelete: "restrict" }),
    /** The invoice a credit note reverses. */
    originalId: uuid(),
    issuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("invoices_number_key").on(t.series, t.financialYear, t.seq),
    uniqueIndex("invoices_order_key")
      .on(t.orderId)
      .where(sql`${t.orderId} is not null and ${t.kind} <> 'credit_note'`),
    uniqueIndex("invoices_refund_key")
      .on(t.refundId)
      .where(sql`${t.refundId} is not null`),
    index("invoices_buyer_idx").on(t.buyerUserId, t.issuedAt),
    index("invoices_seller_idx").on(t.sellerCenterId, t.issuedAt),
    sellerIsolation(t.sellerCenterId),
  ],
);

/** An issued invoice or credit note, as stored. */
export type InvoiceRow = typeof invoices.$inferSelect;

/**
 * The last number of each series in each financial year. Taking a number updates this row in the
 * transaction that issues the document, so numbers are handed out one at a time and a rolled-back
 * payment gives its number back: the series has no gaps.
 */
export const invoiceCounters = pgTable(
  "invoice_counters",
  {
    series: text().notNull(),
    financialYear: text().notNull(),
    lastSeq: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.financialYear] })],
);
