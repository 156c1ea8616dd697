import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import {
  batchStudents,
  batches,
  feeAccounts,
  feeCheques,
  feePlans,
  feeReceiptReversals,
  feeReceipts,
  feeRefundRequests,
  feeRefunds,
  feeEntries,
  users,
  type FeeRefundPart,
  type FeeRefundRequestRow,
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
  FEE_REFUND_UNDER_WAY,
  LEFT_IN_FUTURE,
  PAY_OUT_MODE_REQUIRED,
  RefundInput,
  RefundQuoteQuery,
  chequeNotCleared,
  refundAbovePaid,
  refundFailedAtGateway,
  type FeeRefundJson,
  type PayOutMode,
  type RefundQuoteJson,
  type RefundWorkingJson,
  type UnclearedChequeJson,
  type UnfinishedRefundJson,
} from "#common/validation/fee-refunds.ts";
import { closeAccount, refundWorking, type RefundWorking } from "#common/fee-refunds.ts";
import { toRupees } from "#common/fees.ts";
import { indiaDate } from "#common/india-dates.ts";
import { financialYear } from "#common/gst.ts";
import type { FeeDesk } from "./desk.ts";
import type { FeeMandates } from "./mandates.ts";
import { ledgerDues, type DueLedger } from "./statements.ts";

type FeeRefundRow = typeof feeRefunds.$inferSelect;

/** "RFV/26-27/00001": an institute's refund vouchers, numbered without gaps in each financial year. */
const refundVoucherNumber = (fy: string, seq: number) => `RFV/${fy.slice(2)}/${String(seq).padStart(5, "0")}`;

const MANDATE_ENDS_WITH_REFUND = "The student left and was refunded.";

/** Razorpay refunds nothing below ₹1: a smaller online part is paid out at the desk instead. */
const MINIMUM_GATEWAY_REFUND = 100;

/**
 * How long a try of a refund is taken to be still running (FEE_REFUND_UNDER_WAY says two
 * minutes): each gateway call gives up after 15 s (server/payments/razorpay.ts), so an older
 * `pending` try is one whose process died. Were two tries to overlap, they would send the same
 * idempotency keys and still refund each payment once.
 */
const TRY_RUNS_MS = 2 * 60_000;

/** An online receipt whose payment can go back through the gateway of the account that took it. */
interface OnlineReceipt {
  receiptId: string;
  number: string;
  paymentId: string;
  merchantAccountId: string;
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
 * owner confirms it, once per account, when no cheque of the account is waiting to clear. Online
 * payments go back through the gateway of the institute's account that took each one (kept on its
 * receipt), newest first; the rest is recorded as paid out at the desk. The ledger gets `refund`
 * and `cancellation` entries that close the account at zero, and a numbered Refund Voucher is
 * issued.
 *
 * The gateway is never asked while the account is held: the confirmation is written first
 * (`fee_refund_requests`, with each online part's idempotency key), the gateway is asked with no
 * transaction open, each answer is kept as it comes, and a second short transaction posts the
 * ledger and numbers the voucher. A refusal or a crash leaves the request unfinished, and the
 * same confirmation again finishes it with the same keys.
 */
export class FeeRefunds {
  private readonly deps: {
    db: Db;
    payments: Payments;
    desk: FeeDesk;
    /** The account's standing instruction ends with it (decision 0051). */
    mandates: Pick<FeeMandates, "endFor">;
    logger: Logger;
    now: () => Date;
  };

  constructor(deps: Omit<FeeRefunds["deps"], "now"> & { now?: () => Date }) {
    this.deps = { ...deps, now: deps.now ?? (() => new Date()) };
  }

  async quote(centerId: string, accountId: string, query: unknown): Promise<RefundQuoteJson> {
    const q = parseWith(RefundQuoteQuery, query);
    this.notInFuture(q.leftOn);
    const { db } = this.deps;
    const prepared = await this.prepare(db, centerId, accountId, q);
    const [done] = await db.select().from(feeRefunds).where(eq(feeRefunds.accountId, accountId));
    const [unfinished] = await db
      .select()
      .from(feeRefundRequests)
      .where(and(eq(feeRefundRequests.accountId, accountId), ne(feeRefundRequests.status, "done")));
    const uncleared = await unclearedCheques(db, accountId);
    const online = prepared.online.reduce((s, r) => s + r.amount, 0);
    return {
      accountId,
      student: { _id: prepared.studentId, name: prepared.name },
      planName: prepared.planName,
      working: workingJson(prepared.working, prepared.fromBatch),
      online: prepared.online.map(({ merchantAccountId: _, ...r }) => ({ ...r, amount: toRupees(r.amount) })),
      atDesk: toRupees(Math.max(0, prepared.working.paid - online)),
      uncleared,
      blocked: uncleared.length > 0 && !unfinished ? chequeNotCleared(uncleared[0]) : null,
      unfinished: unfinished ? unfinishedJson(unfinished) : null,
      refund: done ? refundJson(done) : null,
    };
  }

  /**
   * The owner confirms a refund, or confirms again one that did not finish (which is then
   * finished as it was first confirmed, whatever this body says).
   */
  async refund(actorId: string, centerId: string, accountId: string, input: unknown): Promise<FeeRefundJson> {
    const body = parseWith(RefundInput, input);
    this.notInFuture(body.leftOn);
    const request = await this.confirm(actorId, centerId, accountId, body);
    const parts = await this.giveBack(request);
    const row = await this.finish(request, parts);
    await this.deps.mandates.endFor(accountId, actorId, MANDATE_ENDS_WITH_REFUND);
    this.deps.logger.info("fee refund made", {
      refundId: row.id,
      accountId,
      amount: row.amount,
      throughGateway: row.throughGateway,
      attempt: request.attempt,
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
    return (await this.ofAccounts([accountId])).get(accountId) ?? null;
  }

  /** The refunds of many accounts (at most one each), by account. */
  async ofAccounts(accountIds: string[]): Promise<Map<string, FeeRefundJson>> {
    if (accountIds.length === 0) return new Map();
    const rows = await this.deps.db.select().from(feeRefunds).where(inArray(feeRefunds.accountId, accountIds));
    return new Map(rows.map((row) => [row.accountId, refundJson(row)]));
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

  /**
   * The first step, holding the account for a moment: once per account, no cheque waiting to
   * clear, the amounts worked out and written with each online part's idempotency key. An
   * unfinished refund is taken up again instead (a new try), unless a try is running now.
   */
  private confirm(
    actorId: string,
    centerId: string,
    accountId: string,
    body: RefundInput,
  ): Promise<FeeRefundRequestRow> {
    return this.deps.db.transaction(async (tx) => {
      // A second click waits here, then finds the refund confirmed.
      await this.deps.desk.holdAccount(tx, centerId, accountId);
      const [done] = await tx.select({ id: feeRefunds.id }).from(feeRefunds).where(eq(feeRefunds.accountId, accountId));
      if (done) throw conflict(FEE_REFUND_DONE);
      const [unfinished] = await tx.select().from(feeRefundRequests).where(eq(feeRefundRequests.accountId, accountId));
      if (unfinished) return this.tryAgain(tx, unfinished);
      // A cheque not yet paid by the bank is not money received: it may still bounce or go back.
      const [uncleared] = await unclearedCheques(tx, accountId);
      if (uncleared) throw conflict(chequeNotCleared(uncleared));
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
      const parts: FeeRefundPart[] = [];
      for (const receipt of prepared.online) {
        const take = Math.min(left, receipt.amount);
        if (take < MINIMUM_GATEWAY_REFUND) continue;
        parts.push({
          ...receipt,
          amount: take,
          // The account's and the payment's: a student leaves once, so every try asks for the same refund.
          idempotencyKey: `fee-refund-${accountId}-${receipt.paymentId}`,
          gatewayRefundId: null,
          status: null,
        });
        left -= take;
      }
      const paidOut = left;
      if (paidOut > 0 && !body.mode)
        throw badRequest(PAY_OUT_MODE_REQUIRED, { issues: [{ field: "mode", message: PAY_OUT_MODE_REQUIRED }] });
      const now = this.deps.now();
      const [request] = await tx
        .insert(feeRefundRequests)
        .values({
          centerId,
          accountId,
          leftOn: body.leftOn,
          confirmedOn: indiaDate(now),
          amount,
          throughGateway: amount - paidOut,
          paidOut,
          mode: paidOut > 0 ? (body.mode as PayOutMode) : null,
          reference: body.reference || null,
          reason: body.reason,
          working,
          parts,
          attemptedAt: now,
          requestedById: actorId,
        })
        .returning();
      return request;
    });
  }

  /** An unfinished refund taken up again as the next try, unless the latest try may still be running. */
  private async tryAgain(tx: Tx, request: FeeRefundRequestRow): Promise<FeeRefundRequestRow> {
    const now = this.deps.now();
    if (request.status === "pending" && now.getTime() - request.attemptedAt.getTime() < TRY_RUNS_MS)
      throw conflict(FEE_REFUND_UNDER_WAY);
    const [again] = await tx
      .update(feeRefundRequests)
      .set({ status: "pending", attempt: sql`${feeRefundRequests.attempt} + 1`, attemptedAt: now, failure: null })
      .where(eq(feeRefundRequests.id, request.id))
      .returning();
    this.deps.logger.info("fee refund taken up again", {
      accountId: request.accountId,
      was: request.status,
      attempt: again.attempt,
    });
    return again;
  }

  /**
   * The second step, with no transaction open: each online part not yet answered goes back
   * through the gateway of the account that took it, under its own idempotency key, and its
   * answer is kept at once, so a later try does not ask for it again. A refusal (or no answer)
   * marks the refund failed with the gateway's words.
   */
  private async giveBack(request: FeeRefundRequestRow): Promise<FeeRefundPart[]> {
    const { db, payments, logger } = this.deps;
    const parts = [...request.parts];
    // Only the latest try writes: an older one that wakes late changes nothing.
    const thisTry = and(eq(feeRefundRequests.id, request.id), eq(feeRefundRequests.attempt, request.attempt));
    for (const [i, part] of parts.entries()) {
      if (part.gatewayRefundId) continue;
      let answer;
      try {
        const gateway = await payments.gatewayOf(part.merchantAccountId);
        answer = await gateway.refund({
          paymentId: part.paymentId,
          amount: part.amount,
          idempotencyKey: part.idempotencyKey,
          receipt: part.number,
          notes: { subject: "fee-refund", accountId: request.accountId, receipt: part.number },
        });
      } catch (error) {
        const reason = error instanceof GatewayError ? error.message.replace(/^refund failed: /, "") : "no answer";
        logger.error("fee refund not finished: the gateway did not refund a payment", {
          accountId: request.accountId,
          paymentId: part.paymentId,
          attempt: request.attempt,
          error,
        });
        await db
          .update(feeRefundRequests)
          .set({ status: "failed", failure: reason.slice(0, 500), parts })
          .where(and(thisTry, eq(feeRefundRequests.status, "pending")));
        throw new HttpError(502, refundFailedAtGateway(reason));
      }
      parts[i] = { ...part, gatewayRefundId: answer.id, status: answer.status };
      await db.update(feeRefundRequests).set({ parts }).where(thisTry);
    }
    return parts;
  }

  /**
   * The last step, holding the account for a moment: the late fees the working kept are posted
   * (those earned by the day it was confirmed), the voucher numbered, the ledger closed at zero
   * and the request marked done. A try that finds it done (a slower try finished it) answers
   * with the refund made.
   */
  private finish(request: FeeRefundRequestRow, parts: FeeRefundPart[]): Promise<FeeRefundRow> {
    const { centerId, accountId } = request;
    return this.deps.db.transaction(async (tx) => {
      await this.deps.desk.holdAccount(tx, centerId, accountId);
      const [current] = await tx.select().from(feeRefundRequests).where(eq(feeRefundRequests.id, request.id));
      if (current.status === "done" && current.refundId) {
        const [made] = await tx.select().from(feeRefunds).where(eq(feeRefunds.id, current.refundId));
        return made;
      }
      const dues = await ledgerDues(tx, { accountIds: [accountId] }, request.confirmedOn);
      const today = indiaDate(this.deps.now());
      const fy = financialYear(new Date(`${today}T12:00:00+05:30`));
      const seq = await nextInSeries(tx, `${centerId}:fee-refund`, fy);
      const actor = request.requestedById;
      const [refund] = await tx
        .insert(feeRefunds)
        .values({
          centerId,
          accountId,
          number: refundVoucherNumber(fy, seq),
          financialYear: fy,
          seq,
          leftOn: request.leftOn,
          amount: request.amount,
          throughGateway: request.throughGateway,
          paidOut: request.paidOut,
          mode: request.mode,
          reference: request.reference,
          reason: request.reason,
          working: request.working,
          gateway: parts.map((p) => ({
            receiptId: p.receiptId,
            paymentId: p.paymentId,
            merchantAccountId: p.merchantAccountId,
            amount: p.amount,
            gatewayRefundId: p.gatewayRefundId!,
            status: p.status!,
          })),
          createdById: actor,
        })
        .returning();
      // The late fees earned by then are posted first, as the desk does before it takes money: the working kept them.
      const earned = dues.filter((d) => d.figures.accrued > 0);
      if (earned.length)
        await tx.insert(feeEntries).values(
          earned.map((d) => ({
            accountId,
            centerId,
            dueId: d.due.id,
            kind: "late-fee" as const,
            amount: d.figures.accrued,
            createdById: actor,
          })),
        );
      const lines = closeAccount(
        dues.map(({ due, figures }) => ({
          dueId: due.id,
          paid: figures.paid,
          charged: figures.balance + figures.paid,
        })),
        request.amount,
      );
      const base = { accountId, centerId, refundId: refund.id, createdById: actor, reason: request.reason };
      const entries = lines.flatMap((line) => [
        ...(line.refund > 0 ? [{ ...base, dueId: line.dueId, kind: "refund" as const, amount: line.refund }] : []),
        ...(line.cancellation > 0
          ? [
              {
                ...base,
                dueId: line.dueId,
                kind: "cancellation" as const,
                amount: line.cancellation,
                reason: `Not charged: left on ${request.leftOn}`,
              },
            ]
          : []),
      ]);
      if (entries.length) await tx.insert(feeEntries).values(entries);
      await tx
        .update(feeRefundRequests)
        .set({ status: "done", refundId: refund.id, parts, failure: null })
        .where(eq(feeRefundRequests.id, request.id));
      return refund;
    });
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
    // A payment whose account is not known (a link payment from before it was kept, decision 0048)
    // cannot go back through the gateway: it counts with the money paid out at the desk.
    const online = await db
      .select({
        receiptId: feeReceipts.id,
        number: feeReceipts.number,
        paymentId: feeReceipts.gatewayPaymentId,
        merchantAccountId: feeReceipts.merchantAccountId,
        amount: feeReceipts.amount,
      })
      .from(feeReceipts)
      .leftJoin(feeReceiptReversals, eq(feeReceiptReversals.receiptId, feeReceipts.id))
      .where(
        and(
          eq(feeReceipts.accountId, accountId),
          isNotNull(feeReceipts.gatewayPaymentId),
          isNotNull(feeReceipts.merchantAccountId),
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
      online: online.map((r) => ({ ...r, paymentId: r.paymentId!, merchantAccountId: r.merchantAccountId! })),
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
}

/** The account's cheques and DDs the bank has not yet paid (held or deposited), by their dates. */
async function unclearedCheques(db: DbOrTx, accountId: string): Promise<UnclearedChequeJson[]> {
  const rows = await db
    .select({
      _id: feeCheques.id,
      kind: feeCheques.kind,
      number: feeCheques.number,
      chequeDate: feeCheques.chequeDate,
      amount: feeCheques.amount,
      status: feeCheques.status,
    })
    .from(feeCheques)
    .where(and(eq(feeCheques.accountId, accountId), inArray(feeCheques.status, ["held", "deposited"])))
    .orderBy(asc(feeCheques.chequeDate), asc(feeCheques.createdAt));
  return rows.map((c) => ({
    ...c,
    kind: c.kind === "dd" ? "dd" : "cheque",
    amount: toRupees(c.amount),
    status: c.status === "held" ? "held" : "deposited",
  }));
}

function unfinishedJson(r: FeeRefundRequestRow): UnfinishedRefundJson {
  return {
    status: r.status === "failed" ? "failed" : "pending",
    leftOn: r.leftOn,
    amount: toRupees(r.amount),
    throughGateway: toRupees(r.throughGateway),
    paidOut: toRupees(r.paidOut),
    failure: r.failure,
    createdAt: r.createdAt.toISOString(),
    attemptedAt: r.attemptedAt.toISOString(),
  };
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
