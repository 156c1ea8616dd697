import { eq } from "drizzle-orm";
import { feeReceipts, refunds } from "../../db/schema/index.ts";
import type { Tx } from "../../db/types.ts";
import { HttpError } from "../../http/errors.ts";
import type { Logger } from "../../runtime/logger.ts";
import type { Payments } from "../../payments/index.ts";
import { FEE_EXCESS_REFUND_FAILED } from "#common/validation/fee-online.ts";
import type { FeeDesk } from "./desk.ts";
import { dueStates } from "./statements.ts";

/** One online payment into a fee account: a Checkout order's, or one payment of a Payment Link. */
export interface OnlinePayment {
  centerId: string;
  accountId: string;
  /** Paise the gateway captured. */
  amount: number;
  /** The gateway's payment id: receipted once (the receipts' unique index is the last guard). */
  paymentId: string;
  /** Our order, for a Checkout payment (a link's payments have none of ours). */
  orderId: string | null;
  /** The merchant account that took the money (and gives back what is no longer owed). */
  merchantAccountId: string | null;
  /** The India date it counts as paid on. */
  paidOn: string;
}

export interface Settled {
  receiptId: string | null;
  /** Paise given back through the gateway because the account owed less by then. */
  refunded: number;
}

/** Razorpay refunds nothing below ₹1. */
const MINIMUM_REFUND = 100;

/**
 * Money that arrived online, taken into the fee ledger in the caller's transaction (the order's
 * completion, or the link's webhook) through `FeeDesk.take`, once per gateway payment id.
 *
 * Decision 0046: when the account owes less than was paid by then (the desk took the money
 * meanwhile), what is owed is receipted and the rest goes back through the gateway at once, on
 * the account that took it, with an idempotency key made from the payment id, so a retried
 * delivery returns the same refund rather than a second one. A refusal at the gateway undoes the
 * whole settlement (nothing is receipted), and the delivery's retry settles it again.
 */
export class FeeSettlement {
  private readonly deps: { desk: FeeDesk; payments: Payments; logger: Logger };

  constructor(deps: FeeSettlement["deps"]) {
    this.deps = deps;
  }

  async settle(tx: Tx, payment: OnlinePayment): Promise<Settled> {
    const { desk, logger } = this.deps;
    // Held first, so a desk payment or another delivery of this payment waits, then sees this one.
    await desk.holdAccount(tx, payment.centerId, payment.accountId);
    const [taken] = await tx
      .select({ id: feeReceipts.id })
      .from(feeReceipts)
      .where(eq(feeReceipts.gatewayPaymentId, payment.paymentId));
    if (taken) return { receiptId: taken.id, refunded: 0 };
    // A student whose refund is being made owes nothing more: what arrives now goes back whole.
    const owed = (await desk.refundUnderWay(tx, payment.accountId))
      ? 0
      : (await dueStates(tx, payment.accountId, payment.paidOn)).reduce((sum, d) => sum + d.balance, 0);
    const receipted = Math.max(0, Math.min(payment.amount, owed));
    const receipt =
      receipted > 0
        ? await desk.take(tx, null, payment.centerId, payment.accountId, {
            amount: receipted,
            mode: "online",
            reference: payment.paymentId,
            paidOn: payment.paidOn,
            chequeDate: null,
            gatewayPaymentId: payment.paymentId,
            merchantAccountId: payment.merchantAccountId,
          })
        : null;
    const excess = payment.amount - receipted;
    if (excess > 0) await this.giveBack(tx, payment, excess);
    logger.info("online fee payment settled", {
      paymentId: payment.paymentId,
      accountId: payment.accountId,
      receipted,
      refunded: excess,
    });
    return { receiptId: receipt?.id ?? null, refunded: excess };
  }

  /** Returns `amount` of the payment through the account that took it; recorded against our order, if any. */
  private async giveBack(tx: Tx, payment: OnlinePayment, amount: number): Promise<void> {
    const { payments, logger } = this.deps;
    if (amount < MINIMUM_REFUND) {
      // Below the gateway's smallest refund: a person settles it (the institute's accountant).
      logger.warn("online fee payment exceeds what is owed by less than the smallest refund", {
        paymentId: payment.paymentId,
        amount,
      });
      return;
    }
    let refund;
    try {
      const gateway = await payments.gatewayOf(payment.merchantAccountId);
      refund = await gateway.refund({
        paymentId: payment.paymentId,
        amount,
        idempotencyKey: `fee-excess-${payment.paymentId}`,
        notes: { reason: "fee no longer owed", accountId: payment.accountId },
      });
    } catch (error) {
      logger.error("refund of a fee payment's excess failed; not settled", { paymentId: payment.paymentId, error });
      throw new HttpError(502, FEE_EXCESS_REFUND_FAILED);
    }
    if (payment.orderId)
      await tx
        .insert(refunds)
        .values({
          orderId: payment.orderId,
          centerId: payment.centerId,
          amount,
          status: "processed",
          gatewayRefundId: refund.id,
          processedAt: new Date(),
        })
        .onConflictDoNothing();
    logger.info("fee payment's excess refunded", { paymentId: payment.paymentId, amount, refundId: refund.id });
  }
}
