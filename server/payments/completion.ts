import type { Db, Tx } from "../db/types.ts";
import type { Logger } from "../runtime/logger.ts";

/**
 * Completing paid orders exactly once, whoever reports the payment first: the browser's verify
 * call or a gateway webhook (or both, repeatedly, concurrently). Each kind of order (a plan
 * purchase, a content order, …) registers an `OrderKind`; completion finds the order by its
 * gateway order id, locks it, and applies the kind's effects in the same transaction that marks
 * it paid. A second report finds it paid and changes nothing.
 */

export type OrderStatus = "created" | "paid" | "failed";

/** The part of an order completion needs; kinds return their own richer row. */
export interface PayableOrder {
  status: OrderStatus;
  /** Minor units, as stored when the order was created from the server's own prices. */
  amount: number;
  currency: string;
  paymentId: string | null;
}

export interface CapturedPayment {
  /** The gateway's order id. */
  orderId: string;
  paymentId: string;
  /** Known from webhooks; the browser's verify does not carry it (its signature covers the ids only). */
  amount?: number;
  currency?: string;
  source: "checkout" | "webhook";
}

export interface FailedPayment {
  orderId: string;
  paymentId?: string;
  reason?: string;
}

export interface OrderKind<O extends PayableOrder = PayableOrder> {
  /** "plan", "content", …: used in logs and answers. */
  readonly name: string;
  /** This kind's order for a gateway order id, locked (`for update`) for the rest of the transaction; undefined when not this kind's. */
  lock(tx: Tx, gatewayOrderId: string): Promise<O | undefined>;
  /** Marks the order paid and grants what was bought. Runs once per order, inside the transaction. */
  fulfil(tx: Tx, order: O, payment: CapturedPayment): Promise<void>;
  /** Records a failed attempt on an unpaid order (the order stays payable). */
  markFailed?(tx: Tx, order: O, failure: FailedPayment): Promise<void>;
  /** After the transaction committed (cache invalidation, notices). Failures are logged, never undo the payment. */
  afterCommit?(order: O): Promise<void> | void;
  /**
   * The institute's merchant account the order was placed on (null: the platform's own account),
   * undefined when the order is not this kind's. Without it, the kind's orders are the platform's.
   */
  account?(gatewayOrderId: string): Promise<string | null | undefined>;
  /** What the verify answer tells the buyer about their order (e.g. the purchase and its center). */
  present?(gatewayOrderId: string): Promise<Record<string, unknown>>;
}

export type CompletionResult =
  | { outcome: "completed" | "already-paid"; kind: string; order: PayableOrder }
  | { outcome: "amount-mismatch"; kind: string; order: PayableOrder }
  | { outcome: "unknown-order" };

/** One transaction's worth of completions; effects of `afterCommit` run once it has committed. */
export class CompletionScope {
  readonly tx: Tx;
  private readonly kinds: readonly OrderKind<PayableOrder>[];
  private readonly after: (() => Promise<void> | void)[];
  private readonly logger: Logger;

  constructor(
    tx: Tx,
    kinds: readonly OrderKind<PayableOrder>[],
    after: (() => Promise<void> | void)[],
    logger: Logger,
  ) {
    this.tx = tx;
    this.kinds = kinds;
    this.after = after;
    this.logger = logger;
  }

  async complete(payment: CapturedPayment): Promise<CompletionResult> {
    const found = await this.find(payment.orderId);
    if (!found) return { outcome: "unknown-order" };
    const { kind, order } = found;
    if (order.status === "paid") {
      if (order.paymentId && order.paymentId !== payment.paymentId) {
        // Razorpay allows one captured payment per order; a second one needs a person to refund it.
        this.logger.error("second payment reported for an already paid order", {
          kind: kind.name,
          orderId: payment.orderId,
          paid: order.paymentId,
          reported: payment.paymentId,
        });
      }
      return { outcome: "already-paid", kind: kind.name, order };
    }
    const wrongAmount = payment.amount !== undefined && payment.amount !== order.amount;
    const wrongCurrency =
      payment.currency !== undefined && payment.currency.toUpperCase() !== order.currency.toUpperCase();
    if (wrongAmount || wrongCurrency) {
      this.logger.error("payment amount differs from the order; not completed", {
        kind: kind.name,
        orderId: payment.orderId,
        paymentId: payment.paymentId,
        expected: `${order.amount} ${order.currency}`,
        reported: `${payment.amount} ${payment.currency}`,
      });
      return { outcome: "amount-mismatch", kind: kind.name, order };
    }
    await kind.fulfil(this.tx, order, payment);
    if (kind.afterCommit) this.after.push(() => kind.afterCommit!(order));
    this.logger.info("order paid", {
      kind: kind.name,
      orderId: payment.orderId,
      paymentId: payment.paymentId,
      via: payment.source,
    });
    return { outcome: "completed", kind: kind.name, order: { ...order, status: "paid", paymentId: payment.paymentId } };
  }

  async fail(failure: FailedPayment): Promise<void> {
    const found = await this.find(failure.orderId);
    if (!found || found.order.status !== "created" || !found.kind.markFailed) return;
    await found.kind.markFailed(this.tx, found.order, failure);
  }

  private async find(gatewayOrderId: string) {
    for (const kind of this.kinds) {
      const order = await kind.lock(this.tx, gatewayOrderId);
      if (order) return { kind, order };
    }
    return undefined;
  }
}

export class PaymentCompletion {
  private readonly kinds = new Map<string, OrderKind<PayableOrder>>();
  private readonly db: Db;
  private readonly logger: Logger;

  constructor(db: Db, logger: Logger) {
    this.db = db;
    this.logger = logger;
  }

  /** Adds a kind of order (each module registers its own once, at start-up). */
  register<O extends PayableOrder>(kind: OrderKind<O>): void {
    if (this.kinds.has(kind.name)) throw new Error(`order kind "${kind.name}" is already registered`);
    this.kinds.set(kind.name, kind as unknown as OrderKind<PayableOrder>);
  }

  /** The kind's own account of a completed order, for answers to the browser. */
  async present(kindName: string, gatewayOrderId: string): Promise<Record<string, unknown>> {
    const kind = this.kinds.get(kindName);
    return kind?.present ? kind.present(gatewayOrderId) : {};
  }

  /** The merchant account an order was placed on: null for the platform's own (or an order we do not know). */
  async accountOf(gatewayOrderId: string): Promise<string | null> {
    for (const kind of this.kinds.values()) {
      const account = await kind.account?.(gatewayOrderId);
      if (account !== undefined) return account;
    }
    return null;
  }

  /** Completes one paid order, exactly once. */
  complete(payment: CapturedPayment): Promise<CompletionResult> {
    return this.transaction((scope) => scope.complete(payment));
  }

  /**
   * Runs `work` in one transaction: if it throws, nothing it did is kept (so a webhook can be
   * retried); once it commits, the completed orders' after-commit effects run.
   */
  async transaction<T>(work: (scope: CompletionScope) => Promise<T>): Promise<T> {
    const after: (() => Promise<void> | void)[] = [];
    const kinds = [...this.kinds.values()];
    const result = await this.db.transaction((tx) => work(new CompletionScope(tx, kinds, after, this.logger)));
    for (const effect of after) {
      try {
        await effect();
      } catch (error) {
        this.logger.warn("after-payment effect failed", { error });
      }
    }
    return result;
  }
}
