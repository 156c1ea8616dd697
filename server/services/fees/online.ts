import { and, desc, eq, gt, inArray } from "drizzle-orm";
import { feeReceipts, orders } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { HttpError, badRequest, conflict, notFound, parseWith } from "../../http/errors.ts";
import type { OrderKind, OrderRow, Payments } from "../../payments/index.ts";
import type { OrderDesk } from "../orders.ts";
import { indiaDate } from "#common/india-dates.ts";
import { toRupees } from "#common/fees.ts";
import {
  FEE_DUE_NOT_FOUND,
  FEE_DUE_SETTLED,
  FEE_ONLINE_MINIMUM,
  FEE_PARTIAL_OFF,
  FeePayInput,
  moreThanAccountOwes,
  notTakingFeesOnline,
  type FeeCheckoutJson,
} from "#common/validation/fee-online.ts";
import type { FeeDesk } from "./desk.ts";
import type { FeeSettlement } from "./settlement.ts";
import type { FeeMandateDebits } from "./mandate-debits.ts";
import { dueOwner, owedOn, partialOnline } from "./due-owner.ts";

/** An unpaid order of the same payment is offered again for this long (a closed Checkout, a double click). */
const REUSE_PENDING_MS = 60 * 60 * 1000;

/**
 * A student paying a due on the institute's site (issue 42 §3, decision 0046): a Checkout order
 * on the institute's own connected account (never the platform's) through the order desk, for
 * the due's balance today, or, where the institute allows part payments, an amount of the
 * student's up to what the account owes. The "fee" order kind takes the money into the ledger
 * in the completion's transaction, whichever of the callback and the webhook comes first.
 */
export class FeeOnline {
  private readonly deps: {
    db: Db;
    payments: Payments;
    orders: OrderDesk;
    desk: FeeDesk;
    settlement: FeeSettlement;
    /** Told when a standing instruction's debit fails (its order is a fee order like any other). */
    debits: Pick<FeeMandateDebits, "failed">;
    now: () => Date;
  };

  constructor(deps: Omit<FeeOnline["deps"], "now"> & { now?: () => Date }) {
    this.deps = { ...deps, now: deps.now ?? (() => new Date()) };
  }

  /**
   * `payerId` (the student, or a parent linked to them: the route decided) pays due `dueId` of
   * `studentId`: the order to open Checkout with, bought by the payer.
   */
  async checkout(
    { payerId, studentId }: { payerId: string; studentId: string },
    dueId: string,
    input: unknown,
  ): Promise<FeeCheckoutJson> {
    const { db, payments } = this.deps;
    const body = parseWith(FeePayInput, input ?? {});
    const due = await dueOwner(db, dueId);
    if (!due || due.studentId !== studentId) throw notFound(FEE_DUE_NOT_FOUND);
    const owed = await owedOn(db, due, indiaDate(this.deps.now()));
    if (owed.due <= 0) throw conflict(FEE_DUE_SETTLED);
    let amount = Math.min(owed.due, owed.account);
    if (body.amount !== undefined) {
      if (!(await partialOnline(db, due.centerId))) throw badRequest(FEE_PARTIAL_OFF);
      if (body.amount > owed.account) throw badRequest(moreThanAccountOwes(toRupees(owed.account)));
      amount = body.amount;
    }
    // The institute is the merchant of record for its fees (decision 0040): its account, or none.
    const account = await payments.merchants.connectedOf(due.centerId);
    if (!account) throw new HttpError(409, notTakingFeesOnline(due.institute));
    const answer = (order: Pick<OrderRow, "gatewayOrderId" | "amount" | "currency">, keyId: string) => ({
      order: { id: order.gatewayOrderId, amount: order.amount, currency: order.currency },
      key_id: keyId,
      due: { _id: due.dueId, label: due.label },
      institute: due.institute,
    });
    const [pending] = await db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.buyerId, payerId),
          eq(orders.feeAccountId, due.accountId),
          inArray(orders.status, ["created", "failed"]),
          eq(orders.amount, amount),
          eq(orders.merchantAccountId, account.id),
          gt(orders.createdAt, new Date(this.deps.now().getTime() - REUSE_PENDING_MS)),
        ),
      )
      .orderBy(desc(orders.createdAt))
      .limit(1);
    if (pending) return answer(pending, account.keyId);
    const { order, keyId } = await this.deps.orders.place({
      buyerId: payerId,
      subject: { kind: "fee", fee: { accountId: due.accountId, amount } },
      sellerCenterId: due.centerId,
      account,
      belowMinimum: FEE_ONLINE_MINIMUM,
      notes: { feeAccountId: due.accountId, dueId: due.dueId },
    });
    return answer(order, keyId);
  }

  /** The "fee" kind of order: a paid one is taken into its fee account once, in the completion's transaction. */
  readonly orderKind: OrderKind = {
    subject: "fee",
    fulfil: async (tx, order, payment) => {
      await this.deps.settlement.settle(tx, {
        centerId: order.sellerCenterId!,
        accountId: order.feeAccountId!,
        amount: order.amount,
        paymentId: payment.paymentId,
        orderId: order.id,
        merchantAccountId: order.merchantAccountId,
        paidOn: indiaDate(this.deps.now()),
      });
    },
    failed: (order, failure) => this.deps.debits.failed(order, failure),
    // What /api/payment/verify answers: the receipt the payment made (none if nothing was owed by then).
    present: async (order) => {
      if (!order.gatewayPaymentId) return { receipt: null };
      const [row] = await this.deps.db
        .select({ id: feeReceipts.id })
        .from(feeReceipts)
        .where(eq(feeReceipts.gatewayPaymentId, order.gatewayPaymentId));
      return { receipt: row ? await this.deps.desk.receiptJson(row.id) : null };
    },
  };
}
