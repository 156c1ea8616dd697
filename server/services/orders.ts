import { randomUUID } from "node:crypto";
import type { Db, DbOrTx, Tx } from "../db/types.ts";
import { HttpError, badRequest } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import type { Payments } from "../payments/index.ts";
import type { OrderRow } from "../payments/ledger.ts";
import type { Billing } from "#common/validation/plans.ts";
import type { PlanRow } from "./plans.ts";
import { RATE_RULES, type RateLimiter } from "./rate-limit.ts";
import { tooMany } from "./accounts.ts";

export const ORDER_FAILED = "Failed to create order";

/** Razorpay's smallest order: ₹1. */
const MINIMUM_ORDER = 100;

/** The thing an order sells, as the seller offers it now. */
export type Subject =
  | { kind: "plan"; plan: Pick<PlanRow, "id" | "monthlyPrice" | "quarterlyPrice" | "yearlyPrice">; billing: Billing }
  | { kind: "content"; content: { id: string; price: number; creatorId: string } }
  /** What a student pays into a fee account: figured by the fee service from the account's ledger. */
  | { kind: "fee"; fee: { accountId: string; amount: number } };

/**
 * What `buyerId` pays for `subject`, in paise: the one price computation of every sale, where
 * discounts and coupons plug in. Always from the stored offer, never from the client.
 */
export function priceOf(subject: Subject, _buyerId: string): { amount: number; currency: "INR" } {
  if (subject.kind === "content") return { amount: subject.content.price, currency: "INR" };
  if (subject.kind === "fee") return { amount: subject.fee.amount, currency: "INR" };
  const { plan, billing } = subject;
  const amount =
    billing === "monthly" ? plan.monthlyPrice : billing === "quarterly" ? plan.quarterlyPrice : plan.yearlyPrice;
  return { amount, currency: "INR" };
}

export interface PlaceOrder {
  buyerId: string;
  subject: Subject;
  /** The institute selling (merchant of record), or null when the platform sells. */
  sellerCenterId: string | null;
  /** The institute's merchant account to place it on; null for the platform's own. */
  account: { id: string; keyId: string } | null;
  /** The refusal when the price is below the gateway's smallest order. */
  belowMinimum: string;
  /** What the gateway order carries besides the order's id (shown in its dashboard). */
  notes: Record<string, string>;
  /** The subject's own rows beside the ledger's, in the same transaction. */
  details?: (tx: Tx, order: OrderRow) => Promise<void>;
}

export interface OrderDeskDeps {
  db: Db;
  payments: Payments;
  rateLimiter: RateLimiter;
  logger: Logger;
}

/**
 * Placing orders of every kind the same way: priced by `priceOf`, limited per buyer, placed with
 * the gateway of the seller's account (our order id as its receipt), and recorded in the ledger
 * as `created` with whatever the subject keeps beside it. Completion is the payment layer's.
 */
export class OrderDesk {
  private readonly deps: OrderDeskDeps;

  constructor(deps: OrderDeskDeps) {
    this.deps = deps;
  }

  async place(input: PlaceOrder): Promise<{ order: OrderRow; keyId: string }> {
    const { db, payments, logger, rateLimiter } = this.deps;
    const { amount, currency } = priceOf(input.subject, input.buyerId);
    if (amount < MINIMUM_ORDER) throw badRequest(input.belowMinimum);
    payments.ensureConfigured();
    const limit = await rateLimiter.hit(RATE_RULES.paymentOrderUser, input.buyerId);
    if (!limit.allowed) throw tooMany(limit.retryAfter);

    const id = randomUUID();
    let placed;
    try {
      const gateway = await payments.gatewayOf(input.account?.id ?? null);
      placed = await gateway.createOrder({
        amount,
        currency,
        receipt: id,
        notes: { subject: input.subject.kind, orderId: id, ...input.notes },
      });
    } catch (error) {
      logger.error("gateway order creation failed", { error, orderId: id });
      throw new HttpError(502, ORDER_FAILED);
    }
    if (placed.amount !== amount || placed.currency !== currency) {
      logger.error("gateway answered a different amount", { expected: amount, got: placed.amount, orderId: placed.id });
      throw new HttpError(502, ORDER_FAILED);
    }
    const { subject } = input;
    const record = async (tx: DbOrTx) => {
      const row = await payments.completion.ledger.insert(tx, {
        id,
        subject: subject.kind,
        planId: subject.kind === "plan" ? subject.plan.id : null,
        contentId: subject.kind === "content" ? subject.content.id : null,
        creatorId: subject.kind === "content" ? subject.content.creatorId : null,
        feeAccountId: subject.kind === "fee" ? subject.fee.accountId : null,
        buyerId: input.buyerId,
        sellerCenterId: input.sellerCenterId,
        merchantAccountId: input.account?.id ?? null,
        amount,
        currency,
        gatewayOrderId: placed.id,
      });
      return row;
    };
    const { details } = input;
    // The subject's own rows are written with the ledger's, or neither is.
    const order = details
      ? await db.transaction(async (tx) => {
          const row = await record(tx);
          await details(tx, row);
          return row;
        })
      : await record(db);
    return { order, keyId: input.account?.keyId ?? payments.gateway.keyId };
  }
}
