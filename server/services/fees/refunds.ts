import { and, asc, desc, eq, isNotNull, isNull } from "drizzle-orm";
import {
  batchStudents,
  batches,
  feeAccounts,
  feePaymentLinks,
  feePlans,
  feeReceiptReversals,
  feeReceipts,
  feeRefunds,
  feeEntries,
  orders,
  users,
  type FeeGatewayRefund,
} from "../../db/schema/index.ts";
import type { Db, DbOrTx, Tx } from "../../db/types.ts";
import { HttpError, badRequest, conflict, notFound, parseWith } from "../../http/errors.ts";
import { nextInSeries } from "../../db/counters.ts";
import type { Logger } from "../../runtime/logger.ts";
import type { Payments } from "../../payments/index.ts";
import { GatewayError } from "../../payments/gateway.ts";
import { FEE_ACCOUNT_NOT_FOUND } from "#common/validation/fees.ts";
import {
  COURSE_DATES_UNKNOWN,
  FEE_NOTHING_PAID,
  FEE_NOTHING_TO_REFUND,
  FEE_REFUND_DONE,
  FEE_REFUND_NOT_FOUND,
  LEFT_IN_FUTURE,
  PAY_OUT_MODE_REQUIRED,
  RefundInput,
  RefundQuoteQuery,
  refundAbovePaid,
  refundFailedAtGateway,
  type FeeRefundJson,
  type PayOutMode,
  type RefundQuoteJson,
  type RefundWorkingJson,
} from "#common/validation/fee-refunds.ts";
import { closeAccount, refundWorking, type RefundWorking } from "#common/fee-refunds.ts";
import { toRupees } from "#common/fees.ts";
import { indiaDate } from "#common/india-dates.ts";
import { financialYear } from "#common/gst.ts";
import type { FeeDesk } from "./desk.ts";
import { ledgerDues, type DueLedger } from "./statements.ts";

type FeeRefundRow = typeof feeRefunds.$inferSelect;

/** "RFV/26-27/00001": an institute's refund vouchers, numbered without gaps in each financial year. */
const refundVoucherNumber = (fy: string, seq: number) => `RFV/${fy.slice(2)}/${String(seq).padStart(5, "0")}`;

/** Razorpay refunds nothing below ₹1: a smaller online part is paid out at the desk instead. */
const MINIMUM_GATEWAY_REFUND = 100;

/** An online receipt whose payment can go back through the gateway. */
interface OnlineReceipt {
  receiptId: string;
  number: string;
  paymentId: string;
  amount: number;
}

interface Prepared {
  studentId: string;
  name: string;
  planName: string;
  working: RefundWorking;
  fromBatch: boolean;
  dues: DueLedger[];
  online: OnlineReceipt[];
}

/**
 * Refunds when a student leaves (issue 42 §6, decision 0048). The calculator proposes a pro-rata
 * refund for the unused period less the institute's non-refundable heads (`refundWorking`); the
 * owner confirms it, once per account. Online payments go back through the gateway of the
 * institute's account that took them (the payment layer's `gatewayOf(...).refund`, as the
 * institute's order refunds and the fee settlement's give-backs use it), newest first; the rest
 * is recorded as paid out at the desk. The ledger gets `refund` and `cancellation` entries that
 * close the account at zero, and a numbered Refund Voucher is issued, all in one transaction
 * holding the account, so a double click refunds once.
 */
export class FeeRefunds {
  private readonly deps: { db: Db; payments: Payments; desk: FeeDesk; logger: Logger; now: () => Date };

  constructor(deps: { db: Db; payments: Payments; desk: FeeDesk; logger: Logger; now?: () => Date }) {
    this.deps = { ...deps, now: deps.now ?? (() => new Date()) };
  }

  async quote(centerId: string, accountId: string, query: unknown): Promise<RefundQuoteJson> {
    const q = parseWith(RefundQuoteQuery, query);
    this.notInFuture(q.leftOn);
    const prepared = await this.prepare(this.deps.db, centerId, accountId, q);
    const [done] = await this.deps.db.select().from(feeRefunds).where(eq(feeRefunds.accountId, accountId));
    const online = prepared.online.reduce((s, r) => s + r.amount, 0);
    return {
      accountId,
      student: { _id: prepared.studentId, name: prepared.name },
      planName: prepared.planName,
      working: workingJson(prepared.working, prepared.fromBatch),
      online: prepared.online.map((r) => ({ ...r, amount: toRupees(r.amount) })),
      atDesk: toRupees(Math.max(0, prepared.working.paid - online)),
      refund: done ? refundJson(done) : null,
    };
  }

  async refund(actorId: string, centerId: string, accountId: string, input: unknown): Promise<FeeRefundJson> {
    const body = parseWith(RefundInput, input);
    this.notInFuture(body.leftOn);
    const row = await this.deps.db.transaction(async (tx) => {
      // Held until the end: a second click waits here, then finds the refund made.
      await this.deps.desk.lockAccount(tx, centerId, accountId);
      const [done] = await tx.select({ id: feeRefunds.id }).from(feeRefunds).where(eq(feeRefunds.accountId, accountId));
      if (done) throw conflict(FEE_REFUND_DONE);
      const prepared = await this.prepare(tx, centerId, accountId, body);
      const { working } = prepared;
      if (working.paid <= 0) throw conflict(FEE_NOTHING_PAID);
      const amount = body.amount ?? working.proposed;
      if (amount <= 0) throw conflict(FEE_NOTHING_TO_REFUND);
      if (amount > working.paid)
        throw badRequest(refundAbovePaid(toRupees(working.paid)), {
          issues: [{ field: "amount", message: refundAbovePaid(toRupees(working.paid)) }],
        });
      // Online money goes back the way it came, newest payment first; the rest is paid out at the desk.
      let left = amount;
      const parts: OnlineReceipt[] = [];
      for (const receipt of prepared.online) {
        const take = Math.min(left, receipt.amount);
        if (take < MINIMUM_GATEWAY_REFUND) continue;
        parts.push({ ...receipt, amount: take });
        left -= take;
      }
      const paidOut = left;
      if (paidOut > 0 && !body.mode)
        throw badRequest(PAY_OUT_MODE_REQUIRED, { issues: [{ field: "mode", message: PAY_OUT_MODE_REQUIRED }] });
      const gateway: FeeGatewayRefund[] = [];
      for (const part of parts) gateway.push(await this.giveBack(tx, accountId, part));
      const today = indiaDate(this.deps.now());
      const fy = financialYear(new Date(`${today}T12:00:00+05:30`));
      const seq = await nextInSeries(tx, `${centerId}:fee-refund`, fy);
      const [refund] = await tx
        .insert(feeRefunds)
        .values({
          centerId,
          accountId,
          number: refundVoucherNumber(fy, seq),
          financialYear: fy,
          seq,
          leftOn: body.leftOn,
          amount,
          throughGateway: amount - paidOut,
          paidOut,
          mode: paidOut > 0 ? (body.mode as PayOutMode) : null,
          reference: body.reference || null,
          reason: body.reason,
          working,
          gateway,
          createdById: actorId,
        })
        .returning();
      // The late fees earned by today are posted first, as the desk does before it takes money: the working kept them.
      const earned = prepared.dues.filter((d) => d.figures.accrued > 0);
      if (earned.length)
        await tx.insert(feeEntries).values(
          earned.map((d) => ({
            accountId,
            centerId,
            dueId: d.due.id,
            kind: "late-fee" as const,
            amount: d.figures.accrued,
            createdById: actorId,
          })),
        );
      const lines = closeAccount(
        prepared.dues.map(({ due, figures }) => ({
          dueId: due.id,
          paid: figures.paid,
          charged: figures.balance + figures.paid,
        })),
        amount,
      );
      const base = { accountId, centerId, refundId: refund.id, createdById: actorId, reason: body.reason };
      const entries = lines.flatMap((line) => [
        ...(line.refund > 0 ? [{ ...base, dueId: line.dueId, kind: "refund" as const, amount: line.refund }] : []),
        ...(line.cancellation > 0
          ? [
              {
                ...base,
                dueId: line.dueId,
                kind: "cancellation" as const,
                amount: line.cancellation,
                reason: `Not charged: left on ${body.leftOn}`,
              },
            ]
          : []),
      ]);
      if (entries.length) await tx.insert(feeEntries).values(entries);
      return refund;
    });
    this.deps.logger.info("fee refund made", {
      refundId: row.id,
      accountId,
      amount: row.amount,
      throughGateway: row.throughGateway,
    });
    return refundJson(row);
  }

  /** A refund of this institute's (404 otherwise). */
  async get(centerId: string, refundId: string): Promise<FeeRefundJson> {
    const [row] = await this.deps.db
      .select()
      .from(feeRefunds)
      .where(and(eq(feeRefunds.id, refundId), eq(feeRefunds.centerId, centerId)));
    if (!row) throw notFound(FEE_REFUND_NOT_FOUND);
    return refundJson(row);
  }

  async ofAccount(accountId: string): Promise<FeeRefundJson | null> {
    const [row] = await this.deps.db.select().from(feeRefunds).where(eq(feeRefunds.accountId, accountId));
    return row ? refundJson(row) : null;
  }

  async ownerOf(refundId: string): Promise<{ centerId: string; studentId: string } | null> {
    const [row] = await this.deps.db
      .select({ centerId: feeRefunds.centerId, studentId: feeAccounts.studentId })
      .from(feeRefunds)
      .innerJoin(feeAccounts, eq(feeAccounts.id, feeRefunds.accountId))
      .where(eq(feeRefunds.id, refundId));
    return row ?? null;
  }

  private notInFuture(leftOn: string) {
    if (leftOn > indiaDate(this.deps.now()))
      throw badRequest(LEFT_IN_FUTURE, { issues: [{ field: "leftOn", message: LEFT_IN_FUTURE }] });
  }

  /** The account's dues on the day, its course's dates, its online receipts and the calculator's working. */
  private async prepare(
    db: DbOrTx,
    centerId: string,
    accountId: string,
    q: { leftOn: string; courseFrom?: string; courseTo?: string },
  ): Promise<Prepared> {
    const [account] = await db
      .select({ account: feeAccounts, heads: feePlans.heads, name: users.name })
      .from(feeAccounts)
      .innerJoin(feePlans, eq(feePlans.id, feeAccounts.feePlanId))
      .innerJoin(users, eq(users.id, feeAccounts.studentId))
      .where(and(eq(feeAccounts.id, accountId), eq(feeAccounts.centerId, centerId)));
    if (!account) throw notFound(FEE_ACCOUNT_NOT_FOUND);
    const batch = await this.batchDates(db, account.account.feePlanId, account.account.studentId);
    const from = q.courseFrom ?? batch?.from;
    const to = q.courseTo ?? batch?.to;
    if (!from || !to || from > to)
      throw badRequest(COURSE_DATES_UNKNOWN, { issues: [{ field: "courseFrom", message: COURSE_DATES_UNKNOWN }] });
    const dues = await ledgerDues(db, { accountIds: [accountId] }, indiaDate(this.deps.now()));
    const working = refundWorking({
      heads: account.heads,
      dues: dues.map(({ due, figures }) => ({
        dueId: due.id,
        amount: due.amount,
        discount: figures.discount,
        paid: figures.paid,
        // Late fees earned by today (posted when the refund is made, as the desk posts them), charges, less waivers.
        penalties: figures.lateFee + figures.charges - figures.waived,
      })),
      course: { from, to },
      leftOn: q.leftOn,
    });
    const online = await db
      .select({
        receiptId: feeReceipts.id,
        number: feeReceipts.number,
        paymentId: feeReceipts.gatewayPaymentId,
        amount: feeReceipts.amount,
      })
      .from(feeReceipts)
      .leftJoin(feeReceiptReversals, eq(feeReceiptReversals.receiptId, feeReceipts.id))
      .where(
        and(
          eq(feeReceipts.accountId, accountId),
          isNotNull(feeReceipts.gatewayPaymentId),
          isNull(feeReceiptReversals.receiptId),
        ),
      )
      .orderBy(desc(feeReceipts.createdAt));
    return {
      studentId: account.account.studentId,
      name: account.name,
      planName: account.account.planName,
      working,
      fromBatch: !q.courseFrom && !q.courseTo && Boolean(batch),
      dues,
      online: online.map((r) => ({ ...r, paymentId: r.paymentId! })),
    };
  }

  /** The course's dates: the batch under this plan the student was admitted to (and may have left). */
  private async batchDates(db: DbOrTx, feePlanId: string, studentId: string) {
    const [row] = await db
      .select({ from: batches.startsOn, to: batches.endsOn })
      .from(batchStudents)
      .innerJoin(batches, eq(batches.id, batchStudents.batchId))
      .where(and(eq(batchStudents.userId, studentId), eq(batches.feePlanId, feePlanId), isNotNull(batches.endsOn)))
      .orderBy(asc(batches.startsOn))
      .limit(1);
    return row ? { from: row.from, to: row.to! } : null;
  }

  /**
   * One online payment (part) back through the gateway of the institute's account that took it.
   * The idempotency key is the account's and the payment's: a student leaves once, so a retry
   * after a failure further on gets the same refund back from the gateway, never a second one.
   */
  private async giveBack(tx: Tx, accountId: string, part: OnlineReceipt): Promise<FeeGatewayRefund> {
    const merchantAccountId = await this.merchantOf(tx, accountId, part.paymentId);
    try {
      const gateway = await this.deps.payments.gatewayOf(merchantAccountId);
      const refund = await gateway.refund({
        paymentId: part.paymentId,
        amount: part.amount,
        idempotencyKey: `fee-refund-${accountId}-${part.paymentId}`,
        receipt: part.number,
        notes: { subject: "fee-refund", accountId, receipt: part.number },
      });
      return {
        receiptId: part.receiptId,
        paymentId: part.paymentId,
        merchantAccountId,
        amount: part.amount,
        gatewayRefundId: refund.id,
        status: refund.status,
      };
    } catch (error) {
      const reason = error instanceof GatewayError ? error.message.replace(/^refund failed: /, "") : "no answer";
      this.deps.logger.error("fee refund failed at the gateway; nothing refunded", {
        accountId,
        paymentId: part.paymentId,
        error,
      });
      throw new HttpError(502, refundFailedAtGateway(reason));
    }
  }

  /**
   * The institute's account that took a payment: its Checkout order's, else the account of the
   * newest payment link sent for this fee account (a link's payments have no order of ours).
   */
  private async merchantOf(tx: Tx, accountId: string, paymentId: string): Promise<string | null> {
    const [order] = await tx
      .select({ merchantAccountId: orders.merchantAccountId })
      .from(orders)
      .where(eq(orders.gatewayPaymentId, paymentId));
    if (order) return order.merchantAccountId;
    const [link] = await tx
      .select({ merchantAccountId: feePaymentLinks.merchantAccountId })
      .from(feePaymentLinks)
      .where(and(eq(feePaymentLinks.accountId, accountId), isNotNull(feePaymentLinks.merchantAccountId)))
      .orderBy(desc(feePaymentLinks.createdAt))
      .limit(1);
    return link?.merchantAccountId ?? null;
  }
}

function workingJson(w: RefundWorking, fromBatch: boolean): RefundWorkingJson {
  return {
    leftOn: w.leftOn,
    course: { ...w.course, from_batch: fromBatch },
    days: w.days,
    fee: toRupees(w.fee),
    nonRefundable: {
      amount: toRupees(w.nonRefundable.amount),
      heads: w.nonRefundable.heads.map((h) => ({ name: h.name, amount: toRupees(h.amount) })),
    },
    refundableFee: toRupees(w.refundableFee),
    usedFee: toRupees(w.usedFee),
    penalties: toRupees(w.penalties),
    kept: toRupees(w.kept),
    paid: toRupees(w.paid),
    proposed: toRupees(w.proposed),
    stillOwed: toRupees(w.stillOwed),
    refundBy: w.refundBy,
  };
}

function refundJson(row: FeeRefundRow): FeeRefundJson {
  const { course, ...rest } = workingJson(row.working, false);
  return {
    _id: row.id,
    number: row.number,
    accountId: row.accountId,
    leftOn: row.leftOn,
    amount: toRupees(row.amount),
    throughGateway: toRupees(row.throughGateway),
    paidOut: toRupees(row.paidOut),
    mode: row.mode as PayOutMode | null,
    reference: row.reference,
    reason: row.reason,
    working: { ...rest, course: { from: course.from, to: course.to } },
    gateway: row.gateway.map((g) => ({
      receiptId: g.receiptId,
      paymentId: g.paymentId,
      amount: toRupees(g.amount),
      refundId: g.gatewayRefundId,
      status: g.status,
    })),
    createdAt: row.createdAt.toISOString(),
  };
}
