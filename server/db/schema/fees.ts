import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  feeChequeStatusEnum,
  feeEntryKindEnum,
  feeLinkStatusEnum,
  feeMandateRailEnum,
  feeMandateStatusEnum,
  feePaymentModeEnum,
} from "./enums.ts";
import { centers, instituteId, users } from "./users-and-centers.ts";
import { merchantAccounts } from "./merchant-accounts.ts";
import { tenantIsolation } from "./tenant-policy.ts";
import type { FeeHead, FeeInstalment, LateFeeRule, DiscountTerms } from "#common/fees.ts";
import type { RefundWorking } from "#common/fee-refunds.ts";
import type { FeeRefundRequestStatus } from "#common/validation/fee-refunds.ts";

/**
 * Fees (issue 42, decision 0045). Money is in paise. A fee plan is the institute's price list for
 * a course, or a batch's (batches.feePlanId); assigning it to a student copies its instalments into their account's dues,
 * so changing the plan later never changes dues already assigned.
 */
export const feePlans = pgTable(
  "fee_plans",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    name: text().notNull(),
    /** Fee heads (tuition, study material, test series…), GST-inclusive. */
    heads: jsonb().$type<FeeHead[]>().notNull(),
    /** The schedule: one instalment is a lump sum; monthly plans list their twelve dues. */
    instalments: jsonb().$type<FeeInstalment[]>().notNull(),
    total: integer().notNull(),
    /** GST in per cent included in the total, split out on every document. */
    gstRate: integer().notNull(),
    lateFee: jsonb().$type<LateFeeRule>(),
    createdById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("fee_plans_center_idx").on(t.centerId, t.createdAt),
    check("fee_plans_total_check", sql`${t.total} > 0`),
    tenantIsolation(t.centerId),
  ],
);

/** A student's fee account under one plan: its dues and its ledger. */
export const feeAccounts = pgTable(
  "fee_accounts",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    studentId: uuid()
      .notNull()
      .references(() => users.id),
    feePlanId: uuid()
      .notNull()
      .references(() => feePlans.id),
    planName: text().notNull(),
    createdById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("fee_accounts_student_plan_key").on(t.studentId, t.feePlanId),
    index("fee_accounts_center_idx").on(t.centerId, t.createdAt),
    tenantIsolation(t.centerId),
  ],
);

/** A due as assigned: the plan's instalment, its tax rate and late-fee rule at that moment. */
export const feeDues = pgTable(
  "fee_dues",
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: uuid()
      .notNull()
      .references(() => feeAccounts.id, { onDelete: "cascade" }),
    centerId: instituteId(),
    position: integer().notNull(),
    label: text().notNull(),
    amount: integer().notNull(),
    dueOn: date({ mode: "string" }).notNull(),
    gstRate: integer().notNull(),
    lateFee: jsonb().$type<LateFeeRule>(),
  },
  (t) => [
    uniqueIndex("fee_dues_account_position_key").on(t.accountId, t.position),
    index("fee_dues_center_due_idx").on(t.centerId, t.dueOn),
    check("fee_dues_amount_check", sql`${t.amount} > 0`),
    tenantIsolation(t.centerId),
  ],
);

/**
 * A numbered receipt for money received (issue 42 §3). Never edited or deleted: a mistake is a
 * reversal (`fee_receipt_reversals`) with a reason. Its number comes from the invoice counters'
 * series for the institute's receipts, so the numbers have no gaps.
 */
export const feeReceipts = pgTable(
  "fee_receipts",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    accountId: uuid()
      .notNull()
      .references(() => feeAccounts.id, { onDelete: "cascade" }),
    number: text().notNull(),
    financialYear: text().notNull(),
    seq: integer().notNull(),
    amount: integer().notNull(),
    mode: feePaymentModeEnum().notNull(),
    reference: text(),
    paidOn: date({ mode: "string" }).notNull(),
    chequeDate: date({ mode: "string" }),
    receivedById: uuid().references(() => users.id, { onDelete: "set null" }),
    /**
     * The gateway's payment id of an online payment (Checkout or a Payment Link): receipted once.
     * A Checkout payment's order (orders.gatewayPaymentId) is found by it.
     */
    gatewayPaymentId: text(),
    /**
     * The institute's account that took an online payment (its order's or its link's): a refund
     * goes back through exactly this one. Null for money taken at the desk, and for a link
     * payment taken before it was kept whose account could not be told (migration 0041).
     */
    merchantAccountId: uuid().references(() => merchantAccounts.id, { onDelete: "restrict" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("fee_receipts_number_key").on(t.centerId, t.number),
    uniqueIndex("fee_receipts_gateway_payment_key")
      .on(t.gatewayPaymentId)
      .where(sql`${t.gatewayPaymentId} is not null`),
    index("fee_receipts_account_idx").on(t.accountId, t.createdAt),
    index("fee_receipts_center_paid_idx").on(t.centerId, t.paidOn),
    check("fee_receipts_amount_check", sql`${t.amount} > 0`),
    tenantIsolation(t.centerId),
  ],
);

/** A receipt's reversal: once, with a reason and who made it. */
export const feeReceiptReversals = pgTable(
  "fee_receipt_reversals",
  {
    receiptId: uuid()
      .primaryKey()
      .references(() => feeReceipts.id, { onDelete: "cascade" }),
    centerId: instituteId(),
    reason: text().notNull(),
    reversedById: uuid().references(() => users.id, { onDelete: "set null" }),
    reversedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [tenantIsolation(t.centerId)],
);

/**
 * The fee account's ledger, append only (a trigger refuses updates and deletes, but for the
 * institute's own removal cascading down): dues,
 * discounts, payments, late fees, waivers and reversals, each against one due. Balances,
 * overdue and defaulter are sums over it, never stored flags.
 */
export const feeEntries = pgTable(
  "fee_entries",
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: uuid()
      .notNull()
      .references(() => feeAccounts.id, { onDelete: "cascade" }),
    centerId: instituteId(),
    dueId: uuid()
      .notNull()
      .references(() => feeDues.id, { onDelete: "cascade" }),
    kind: feeEntryKindEnum().notNull(),
    /** Always positive; the kind says which way it moves the balance. */
    amount: integer().notNull(),
    receiptId: uuid().references(() => feeReceipts.id, { onDelete: "cascade" }),
    /** The refund (a student who left) a `refund` or `cancellation` entry belongs to. */
    refundId: uuid().references((): AnyPgColumn => feeRefunds.id, { onDelete: "cascade" }),
    reversesId: uuid().references((): AnyPgColumn => feeEntries.id, { onDelete: "cascade" }),
    discount: jsonb().$type<DiscountTerms>(),
    reason: text(),
    approvedById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("fee_entries_account_idx").on(t.accountId, t.createdAt),
    index("fee_entries_due_idx").on(t.dueId),
    index("fee_entries_receipt_idx").on(t.receiptId),
    index("fee_entries_refund_idx").on(t.refundId),
    check("fee_entries_amount_check", sql`${t.amount} > 0`),
    tenantIsolation(t.centerId),
  ],
);

export type FeeEntryRow = typeof feeEntries.$inferSelect;
export type FeeDueRow = typeof feeDues.$inferSelect;

/**
 * An institute's fee rules beyond its plans (issue 42 §4–5): when reminders go (days before, on
 * the day, days after a last date), when an overdue student counts as a defaulter, what a
 * defaulter loses in its own written words (shown to the student and parent too), the charge for
 * a bounced cheque, and whether online payments may be part payments. No row: the defaults.
 */
export const feeSettings = pgTable(
  "fee_settings",
  {
    centerId: uuid()
      .primaryKey()
      .references(() => centers.id, { onDelete: "cascade" }),
    remindDaysBefore: integer().notNull().default(3),
    remindOnDay: boolean().notNull().default(true),
    remindDaysAfter: integer().notNull().default(3),
    defaulterAfterDays: integer().notNull().default(15),
    /** The institute's policy for defaulters, as it wrote it (for example, new lectures locked after 15 days overdue). */
    defaulterPolicy: text(),
    /**
     * Whether the policy is enforced (issue 42 §5): a defaulter is held from batch lectures and
     * content released after they became one (never a test already paid for) until they pay.
     */
    defaulterHoldsNewContent: boolean().notNull().default(false),
    /** Paise charged when a cheque bounces; 0: none. */
    bounceFee: integer().notNull().default(0),
    allowPartialOnline: boolean().notNull().default(false),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "fee_settings_days_check",
      sql`${t.remindDaysBefore} between 0 and 30 and ${t.remindDaysAfter} between 0 and 60 and ${t.defaulterAfterDays} between 1 and 365`,
    ),
    check("fee_settings_bounce_check", sql`${t.bounceFee} >= 0`),
    tenantIsolation(t.centerId),
  ],
);

/**
 * A cheque or demand draft taken at the desk (issue 42 §3). One dated today or earlier is
 * receipted when taken ("subject to realisation"); a post-dated one is held, unreceipted, until
 * it is deposited. A bounce reverses its receipt and may charge the institute's bounce fee.
 */
export const feeCheques = pgTable(
  "fee_cheques",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    accountId: uuid()
      .notNull()
      .references(() => feeAccounts.id, { onDelete: "cascade" }),
    kind: text().notNull().default("cheque"),
    number: text().notNull(),
    bank: text().notNull(),
    chequeDate: date({ mode: "string" }).notNull(),
    amount: integer().notNull(),
    status: feeChequeStatusEnum().notNull(),
    /** Its receipt once receipted; a bounce reverses it. */
    receiptId: uuid().references(() => feeReceipts.id, { onDelete: "restrict" }),
    createdById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("fee_cheques_center_status_idx").on(t.centerId, t.status, t.chequeDate),
    index("fee_cheques_account_idx").on(t.accountId),
    check("fee_cheques_amount_check", sql`${t.amount} > 0`),
    check("fee_cheques_kind_check", sql`${t.kind} in ('cheque', 'dd')`),
    tenantIsolation(t.centerId),
  ],
);

/** Each step of a cheque (held → deposited → cleared, bounced or returned), with who and why. Append only. */
export const feeChequeEvents = pgTable(
  "fee_cheque_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    chequeId: uuid()
      .notNull()
      .references(() => feeCheques.id, { onDelete: "cascade" }),
    centerId: instituteId(),
    fromStatus: feeChequeStatusEnum(),
    toStatus: feeChequeStatusEnum().notNull(),
    note: text(),
    byId: uuid().references(() => users.id, { onDelete: "set null" }),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("fee_cheque_events_cheque_idx").on(t.chequeId, t.at), tenantIsolation(t.centerId)],
);

/**
 * A Razorpay Payment Link for what a student owes (issue 42 §3), sent by WhatsApp, SMS or
 * e-mail; paid through the institute's own account, its payments receipted once each by their
 * gateway payment id whether the webhook or the callback comes first.
 */
export const feePaymentLinks = pgTable(
  "fee_payment_links",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    accountId: uuid()
      .notNull()
      .references(() => feeAccounts.id, { onDelete: "cascade" }),
    dueId: uuid().references(() => feeDues.id, { onDelete: "cascade" }),
    amount: integer().notNull(),
    acceptPartial: boolean().notNull().default(false),
    merchantAccountId: uuid().references(() => merchantAccounts.id, { onDelete: "restrict" }),
    gatewayLinkId: text().notNull(),
    shortUrl: text().notNull(),
    status: feeLinkStatusEnum().notNull().default("created"),
    expiresAt: timestamp({ withTimezone: true }),
    createdById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("fee_payment_links_gateway_key").on(t.gatewayLinkId),
    index("fee_payment_links_account_idx").on(t.accountId, t.createdAt),
    check("fee_payment_links_amount_check", sql`${t.amount} > 0`),
    tenantIsolation(t.centerId),
  ],
);

/** One payment given back through the gateway of the account that took it, as the gateway answered. */
export interface FeeGatewayRefund {
  receiptId: string;
  paymentId: string;
  merchantAccountId: string | null;
  /** Paise. */
  amount: number;
  gatewayRefundId: string;
  status: string;
}

/**
 * A refund to a student who left (issue 42 §6, decision 0048), once it is made: once per account
 * (a unique index), numbered in the institute's refund voucher series, with the calculator's
 * working as the owner confirmed it. Online payments went back through the gateway (`gateway`);
 * the rest was paid out at the desk by `mode`. Append only; written by the last step of its
 * `fee_refund_requests` row.
 */
export const feeRefunds = pgTable(
  "fee_refunds",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    accountId: uuid()
      .notNull()
      .references(() => feeAccounts.id, { onDelete: "cascade" }),
    number: text().notNull(),
    financialYear: text().notNull(),
    seq: integer().notNull(),
    leftOn: date({ mode: "string" }).notNull(),
    /** Paise given back in all: `throughGateway` plus `paidOut`. */
    amount: integer().notNull(),
    throughGateway: integer().notNull(),
    paidOut: integer().notNull(),
    /** How `paidOut` was paid (null when nothing was paid out at the desk). */
    mode: feePaymentModeEnum(),
    reference: text(),
    reason: text().notNull(),
    /** The calculator's working (paise) as the owner saw and confirmed it. */
    working: jsonb().$type<RefundWorking>().notNull(),
    gateway: jsonb().$type<FeeGatewayRefund[]>().notNull().default([]),
    createdById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("fee_refunds_account_key").on(t.accountId),
    uniqueIndex("fee_refunds_number_key").on(t.centerId, t.number),
    index("fee_refunds_center_idx").on(t.centerId, t.createdAt),
    check("fee_refunds_amount_check", sql`${t.amount} > 0 and ${t.amount} = ${t.throughGateway} + ${t.paidOut}`),
    tenantIsolation(t.centerId),
  ],
);

/** One online payment's share of a refund: the key the gateway knows it by and, once it answered, its refund. */
export interface FeeRefundPart {
  receiptId: string;
  /** The receipt's number, sent as the gateway refund's `receipt`. */
  number: string;
  paymentId: string;
  merchantAccountId: string | null;
  /** Paise. */
  amount: number;
  /** `X-Refund-Idempotency`: every try of this refund sends the same key, so the payment is refunded once. */
  idempotencyKey: string;
  gatewayRefundId: string | null;
  status: string | null;
}

/**
 * A refund as the owner confirmed it, before and after the gateway is asked (decision 0048): the
 * amounts, the working and each online part with its idempotency key are written first, in a short
 * transaction holding the account; the gateway is asked with no transaction open; a second short
 * transaction writes the `fee_refunds` voucher and the ledger entries and marks it `done`. A
 * refusal leaves it `failed` with the gateway's words; a crash leaves it `pending`. Either is
 * finished by confirming again, with the same keys. One per account; changed in place.
 */
export const feeRefundRequests = pgTable(
  "fee_refund_requests",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    accountId: uuid()
      .notNull()
      .references(() => feeAccounts.id, { onDelete: "cascade" }),
    status: text().$type<FeeRefundRequestStatus>().notNull().default("pending"),
    leftOn: date({ mode: "string" }).notNull(),
    /** The India date it was confirmed on: the late fees its working kept are those earned by then. */
    confirmedOn: date({ mode: "string" }).notNull(),
    /** Paise, as in `fee_refunds`. */
    amount: integer().notNull(),
    throughGateway: integer().notNull(),
    paidOut: integer().notNull(),
    mode: feePaymentModeEnum(),
    reference: text(),
    reason: text().notNull(),
    working: jsonb().$type<RefundWorking>().notNull(),
    parts: jsonb().$type<FeeRefundPart[]>().notNull().default([]),
    /** Why the last try did not finish, in the gateway's words. */
    failure: text(),
    /** Each try takes the next number; a try records its outcome only while it is the latest. */
    attempt: integer().notNull().default(1),
    attemptedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    refundId: uuid().references(() => feeRefunds.id, { onDelete: "cascade" }),
    requestedById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("fee_refund_requests_account_key").on(t.accountId),
    index("fee_refund_requests_center_idx").on(t.centerId, t.createdAt),
    check("fee_refund_requests_status_check", sql`${t.status} in ('pending', 'failed', 'done')`),
    check(
      "fee_refund_requests_amount_check",
      sql`${t.amount} > 0 and ${t.amount} = ${t.throughGateway} + ${t.paidOut}`,
    ),
    tenantIsolation(t.centerId),
  ],
);

export type FeeRefundRequestRow = typeof feeRefundRequests.$inferSelect;

/**
 * A standing instruction to pay a fee account's monthly dues (issue 42 §7, decision 0051): UPI
 * Autopay for dues up to ₹15,000, a bank e-mandate (NACH) above, registered by the payer (the
 * student or a linked parent) in Checkout on the institute's own account. The gateway's customer
 * and token are what later debits are charged to. One live mandate per account (the partial
 * unique index); a cancelled or refused one stays as the record of what was agreed.
 */
export const feeMandates = pgTable(
  "fee_mandates",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    accountId: uuid()
      .notNull()
      .references(() => feeAccounts.id, { onDelete: "cascade" }),
    payerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    rail: feeMandateRailEnum().notNull(),
    /** Paise: the most one debit may be, as the payer authorised it. */
    maxAmount: integer().notNull(),
    merchantAccountId: uuid().references(() => merchantAccounts.id, { onDelete: "restrict" }),
    gatewayCustomerId: text().notNull(),
    /** The authorisation order paid in Checkout. */
    authOrderId: text().notNull(),
    /** Paise taken to authorise (UPI's ₹1, given back at once; 0 for an e-mandate). */
    authAmount: integer().notNull(),
    authPaymentId: text(),
    /** Set once UPI's authorisation payment has been given back. */
    authRefundedAt: timestamp({ withTimezone: true }),
    tokenId: text(),
    status: feeMandateStatusEnum().notNull().default("created"),
    /** Why the bank refused it or how it ended, in the gateway's or the person's words. */
    statusReason: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    activatedAt: timestamp({ withTimezone: true }),
    cancelledAt: timestamp({ withTimezone: true }),
    cancelledById: uuid().references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("fee_mandates_auth_order_key").on(t.authOrderId),
    uniqueIndex("fee_mandates_token_key").on(t.tokenId),
    uniqueIndex("fee_mandates_live_key")
      .on(t.accountId)
      .where(sql`${t.status} in ('pending', 'active')`),
    index("fee_mandates_account_idx").on(t.accountId, t.createdAt),
    check("fee_mandates_max_amount_check", sql`${t.maxAmount} >= 100`),
    tenantIsolation(t.centerId),
  ],
);

/**
 * One debit presented on a mandate for one due (unique: a due is presented once, whatever the
 * number of instances or ticks). Its outcome is its order's: paid (receipted by the "fee" order
 * kind, as any online payment) or failed.
 */
export const feeMandateDebits = pgTable(
  "fee_mandate_debits",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    mandateId: uuid()
      .notNull()
      .references(() => feeMandates.id, { onDelete: "cascade" }),
    dueId: uuid()
      .notNull()
      .references(() => feeDues.id, { onDelete: "cascade" }),
    /** Our order of the debit (null while the gateway is being asked). */
    orderId: uuid(),
    /** Paise presented. */
    amount: integer().notNull(),
    gatewayPaymentId: text(),
    /** Why it could not be presented (the gateway's words), if it could not. */
    error: text(),
    presentedOn: date({ mode: "string" }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("fee_mandate_debits_due_key").on(t.mandateId, t.dueId),
    index("fee_mandate_debits_order_idx").on(t.orderId),
    check("fee_mandate_debits_amount_check", sql`${t.amount} > 0`),
    tenantIsolation(t.centerId),
  ],
);

export type FeeMandateRow = typeof feeMandates.$inferSelect;
