import { and, asc, desc, eq, inArray, type SQL } from "drizzle-orm";
import {
  feeAccounts,
  feeDues,
  feeEntries,
  feeReceiptReversals,
  feeReceipts,
  feeRefundRequests,
  feeRefunds,
} from "../../db/schema/index.ts";
import type { Db, Tx } from "../../db/types.ts";
import { badRequest, conflict, notFound, parseWith } from "../../http/errors.ts";
import { nextInSeries } from "../../db/counters.ts";
import {
  DeskPaymentInput,
  FEE_ACCOUNT_NOT_FOUND,
  FEE_ALREADY_REVERSED,
  FEE_NOTHING_OWED,
  FEE_RECEIPT_NOT_FOUND,
  FEE_REFUNDED_NO_REVERSAL,
  CHEQUE_ON_CHEQUE_DESK,
  FUTURE_PAYMENT,
  ReversalInput,
  moreThanOwed,
  type DeskMode,
  type FeeReceiptJson,
} from "#common/validation/fees.ts";
import { FEE_REFUND_UNFINISHED } from "#common/validation/fee-refunds.ts";
import { allocateOldestFirst, toRupees } from "#common/fees.ts";
import { indiaDate } from "#common/india-dates.ts";
import { financialYear } from "#common/gst.ts";
import { dueStates } from "./statements.ts";
import { refundAskedOf } from "./left.ts";

export type FeeReceiptRow = typeof feeReceipts.$inferSelect;

/** "RCT/26-27/00001": an institute's receipts, numbered without gaps in each financial year. */
export const receiptNumber = (fy: string, seq: number) => `RCT/${fy.slice(2)}/${String(seq).padStart(5, "0")}`;

export interface PaymentTaken {
  amount: number;
  mode: DeskMode | "online";
  reference: string | null;
  paidOn: string;
  chequeDate: string | null;
  /** An online payment's gateway payment id (receipted once: a unique index). */
  gatewayPaymentId?: string | null;
  /** The institute's account that took an online payment: a refund goes back through it. */
  merchantAccountId?: string | null;
}

/**
 * Money received against a fee account (issue 42 §3) and its reversal. Taking a payment locks
 * the account, so a due paid at the desk and online at once is settled once: the second finds
 * less owed. The late fee a due has earned by the day of payment is posted first, then the money
 * settles the oldest dues first, and a numbered receipt is issued in the same transaction. A
 * receipt is never changed: a mistake is reversed, with a reason, by entries that undo it.
 */
export class FeeDesk {
  private readonly db: Db;
  private readonly now: () => Date;

  constructor(deps: { db: Db; now?: () => Date }) {
    this.db = deps.db;
    this.now = deps.now ?? (() => new Date());
  }

  async takeAtDesk(actorId: string, centerId: string, accountId: string, input: unknown): Promise<FeeReceiptJson> {
    const body = parseWith(DeskPaymentInput, input);
    // A cheque's life (deposit, clearing, a bounce) is the cheque desk's (FeeCounter sends it there).
    if (body.mode === "cheque" || body.mode === "dd")
      throw badRequest(CHEQUE_ON_CHEQUE_DESK, { issues: [{ field: "mode", message: CHEQUE_ON_CHEQUE_DESK }] });
    const today = indiaDate(this.now());
    const paidOn = body.paidOn ?? today;
    if (paidOn > today) throw badRequest(FUTURE_PAYMENT, { issues: [{ field: "paidOn", message: FUTURE_PAYMENT }] });
    const receipt = await this.db.transaction((tx) =>
      this.take(tx, actorId, centerId, accountId, {
        amount: body.amount,
        mode: body.mode,
        reference: body.reference || null,
        paidOn,
        chequeDate: body.chequeDate ?? null,
      }),
    );
    return this.receiptJson(receipt.id);
  }

  /** One payment in `tx` (the desk's, and the online one's when it comes): post late fees, allocate, number. */
  async take(tx: Tx, actorId: string | null, centerId: string, accountId: string, payment: PaymentTaken) {
    await this.lockAccount(tx, centerId, accountId);
    const dues = await dueStates(tx, accountId, payment.paidOn);
    const owed = dues.reduce((sum, d) => sum + d.balance, 0);
    if (owed <= 0) throw conflict(FEE_NOTHING_OWED);
    if (payment.amount > owed) throw conflict(moreThanOwed(toRupees(owed)));
    const base = { accountId, centerId, createdById: actorId };
    const earned = dues.filter((d) => d.accrued > 0);
    if (earned.length)
      await tx
        .insert(feeEntries)
        .values(earned.map((d) => ({ ...base, dueId: d.due.id, kind: "late-fee" as const, amount: d.accrued })));
    const fy = financialYear(new Date(`${payment.paidOn}T12:00:00+05:30`));
    const seq = await nextInSeries(tx, `${centerId}:fee-receipt`, fy);
    const [receipt] = await tx
      .insert(feeReceipts)
      .values({
        centerId,
        accountId,
        number: receiptNumber(fy, seq),
        financialYear: fy,
        seq,
        ...payment,
        receivedById: actorId,
      })
      .returning();
    const allocations = allocateOldestFirst(
      payment.amount,
      dues.map((d) => ({ dueId: d.due.id, balance: d.balance })),
    );
    await tx.insert(feeEntries).values(
      allocations.map((a) => ({
        ...base,
        dueId: a.dueId,
        kind: "payment" as const,
        amount: a.amount,
        receiptId: receipt.id,
      })),
    );
    return receipt;
  }

  /** Reverse a receipt, once, with a reason: its payments are undone on the dues they settled. */
  async reverse(actorId: string, centerId: string, receiptId: string, input: unknown) {
    const { reason } = parseWith(ReversalInput, input);
    await this.db.transaction((tx) => this.reverseIn(tx, actorId, centerId, receiptId, reason));
    const receipt = await this.receiptJson(receiptId);
    return { receiptId, number: receipt.number, amount: receipt.amount, reason, at: receipt.reversed!.at };
  }

  /** `reverse` in `tx`, with a reason already checked (a bounced cheque's, in the cheque's own step). */
  async reverseIn(tx: Tx, actorId: string | null, centerId: string, receiptId: string, reason: string) {
    const [receipt] = await tx
      .select()
      .from(feeReceipts)
      .where(and(eq(feeReceipts.id, receiptId), eq(feeReceipts.centerId, centerId)));
    if (!receipt) throw notFound(FEE_RECEIPT_NOT_FOUND);
    await this.lockAccount(tx, centerId, receipt.accountId);
    // A refunded account is closed (decision 0048): undoing a payment now would owe money that was given back.
    const [refunded] = await tx
      .select({ id: feeRefunds.id })
      .from(feeRefunds)
      .where(eq(feeRefunds.accountId, receipt.accountId));
    if (refunded) throw conflict(FEE_REFUNDED_NO_REVERSAL);
    const [done] = await tx
      .insert(feeReceiptReversals)
      .values({ receiptId, centerId, reason, reversedById: actorId })
      .onConflictDoNothing()
      .returning();
    if (!done) throw conflict(FEE_ALREADY_REVERSED);
    const payments = await tx
      .select()
      .from(feeEntries)
      .where(and(eq(feeEntries.receiptId, receiptId), eq(feeEntries.kind, "payment")));
    await tx.insert(feeEntries).values(
      payments.map((p) => ({
        accountId: p.accountId,
        centerId,
        dueId: p.dueId,
        kind: "reversal" as const,
        amount: p.amount,
        receiptId,
        reversesId: p.id,
        reason,
        createdById: actorId,
      })),
    );
  }

  async centerOfReceipt(receiptId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ centerId: feeReceipts.centerId })
      .from(feeReceipts)
      .where(eq(feeReceipts.id, receiptId));
    return row?.centerId ?? null;
  }

  async receiptJson(receiptId: string): Promise<FeeReceiptJson> {
    const [receipt] = await this.receipts(eq(feeReceipts.id, receiptId));
    if (!receipt) throw notFound(FEE_RECEIPT_NOT_FOUND);
    return receipt;
  }

  /** An account's receipts, newest first. */
  receiptsOf(accountId: string): Promise<FeeReceiptJson[]> {
    return this.receipts(eq(feeReceipts.accountId, accountId));
  }

  /** The receipts of many accounts (a family's Fees page), newest first, by account. */
  async receiptsOfAccounts(accountIds: string[]): Promise<Map<string, FeeReceiptJson[]>> {
    const byAccount = new Map(accountIds.map((id) => [id, [] as FeeReceiptJson[]]));
    if (accountIds.length === 0) return byAccount;
    for (const receipt of await this.receipts(inArray(feeReceipts.accountId, accountIds)))
      byAccount.get(receipt.accountId)?.push(receipt);
    return byAccount;
  }

  private async receipts(where: SQL): Promise<FeeReceiptJson[]> {
    const rows = await this.db
      .select({ receipt: feeReceipts, reversal: feeReceiptReversals })
      .from(feeReceipts)
      .leftJoin(feeReceiptReversals, eq(feeReceiptReversals.receiptId, feeReceipts.id))
      .where(where)
      .orderBy(desc(feeReceipts.createdAt));
    if (rows.length === 0) return [];
    const allocations = await this.db
      .select({
        receiptId: feeEntries.receiptId,
        dueId: feeEntries.dueId,
        label: feeDues.label,
        amount: feeEntries.amount,
      })
      .from(feeEntries)
      .innerJoin(feeDues, eq(feeDues.id, feeEntries.dueId))
      .where(
        and(
          inArray(
            feeEntries.receiptId,
            rows.map((r) => r.receipt.id),
          ),
          eq(feeEntries.kind, "payment"),
        ),
      )
      .orderBy(asc(feeDues.dueOn), asc(feeDues.position));
    return rows.map(({ receipt, reversal }) => ({
      _id: receipt.id,
      number: receipt.number,
      accountId: receipt.accountId,
      amount: toRupees(receipt.amount),
      mode: receipt.mode,
      reference: receipt.reference,
      paidOn: receipt.paidOn,
      chequeDate: receipt.chequeDate,
      allocations: allocations
        .filter((a) => a.receiptId === receipt.id)
        .map((a) => ({ dueId: a.dueId, label: a.label, amount: toRupees(a.amount) })),
      reversed: reversal ? { reason: reversal.reason, at: reversal.reversedAt.toISOString() } : null,
      createdAt: receipt.createdAt.toISOString(),
    }));
  }

  /**
   * Whether a refund of the account was confirmed and is not finished (decision 0048): it counted
   * the money paid so far, so until it is made no payment comes in and none is undone.
   */
  async refundUnderWay(tx: Tx, accountId: string): Promise<boolean> {
    const [open] = await tx
      .select({ id: feeRefundRequests.id })
      .from(feeRefundRequests)
      .where(and(eq(feeRefundRequests.accountId, accountId), inArray(feeRefundRequests.status, ["pending", "failed"])));
    return Boolean(open);
  }

  /** Whether the student left: a refund of the account was asked for (made, or under way). */
  async refundAsked(tx: Tx, accountId: string): Promise<boolean> {
    const [asked] = await tx
      .select({ id: feeAccounts.id })
      .from(feeAccounts)
      .where(and(eq(feeAccounts.id, accountId), refundAskedOf(tx, feeAccounts.id)));
    return Boolean(asked);
  }

  /**
   * Holds the account (of this institute, else 404) until `tx` ends: one payment, reversal or
   * discount at a time. While a refund is under way nothing else changes it (409 in words): the
   * refund counted the money as it stood.
   */
  async lockAccount(tx: Tx, centerId: string, accountId: string): Promise<void> {
    await this.holdAccount(tx, centerId, accountId);
    if (await this.refundUnderWay(tx, accountId)) throw conflict(FEE_REFUND_UNFINISHED);
  }

  /** The lock alone: for the refund's own steps, which finish what is under way. */
  async holdAccount(tx: Tx, centerId: string, accountId: string): Promise<void> {
    const [row] = await tx
      .select({ id: feeAccounts.id })
      .from(feeAccounts)
      .where(and(eq(feeAccounts.id, accountId), eq(feeAccounts.centerId, centerId)))
      .for("update");
    if (!row) throw notFound(FEE_ACCOUNT_NOT_FOUND);
  }
}
