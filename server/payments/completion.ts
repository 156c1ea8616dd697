import type { Db, Tx } from "../db/types.ts";
import type { Logger } from "../runtime/logger.ts";
import type { OrderLedger, OrderRow, OrderSubject } from "./ledger.ts";

/**
 * Completing paid orders exactly once, whoever reports the payment first: the browser's verify
 * call or a gateway webhook (or both, repeatedly, concurrently). Each kind of order (a plan
 * purchase, a content order, …) registers an `OrderKind` for its subject; completion finds the
 * order in the ledger by its gateway order id, locks it, and applies the kind's effects in the
 * same transaction that marks it paid. A second report finds it paid and changes nothing.
 */

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

export interface OrderKind {
  /** The subject of the orders this kind completes. */
  readonly subject: OrderSubject;
  /** Grants what was bought (the ledger marks the order paid). Runs once per order, inside the transaction. */
  fulfil(tx: Tx, order: OrderRow, payment: CapturedPayment): Promise<void>;
  /** A failed attempt on an unpaid order (the ledger records it; the order stays payable). */
  failed?(order: OrderRow, failure: FailedPayment): void;
  /** After the transaction committed (cache invalidation, notices). Failures are logged, never undo the payment. */
  afterCommit?(order: OrderRow): Promise<void> | void;
  /** What the verify answer tells the buyer about their order (e.g. the purchase and its center). */
  present?(order: OrderRow): Promise<Record<string, unknown>>;
}

export type CompletionResult =
  | { outcome: "completed" | "already-paid"; kind: OrderSubject; order: OrderRow }
  | { outcome: "amount-mismatch"; kind: OrderSubject; order: OrderRow }
  | { outcome: "unknown-order" };

/** One transaction's worth of completions; effects of `afterCommit` run once it has committed. */
export class CompletionScope {
  readonly tx: Tx;
  private readonly ledger: OrderLedger;
  private readonly kinds: ReadonlyMap<OrderSubject, OrderKind>;
  private readonly after: (() => Promise<void> | void)[];
  private readonly logger: Logger;

  constructor(
    tx: Tx,
    ledger: OrderLedger,
    kinds: ReadonlyMap<OrderSubject, OrderKind>,
    after: (() => Promise<void> | void)[],
    logger: Logger,
  ) {
    this.tx = tx;
    this.ledger = ledger;
    this.kinds = kinds;
    this.after = after;
    this.logger = logger;
  }

  async complete(payment: CapturedPayment): Promise<CompletionResult> {
    const found = await this.find(payment.orderId);
    if (!found) return { outcome: "unknown-order" };
    const { kind, order } = found;
    if (order.status === "paid") {
      if (order.gatewayPaymentId && order.gatewayPaymentId !== payment.paymentId) {
        // Razorpay allows one captured payment per order; a second one needs a person to refund it.
        this.logger.error("second payment reported for an already paid order", {
          kind: kind.subject,
          orderId: payment.orderId,
          paid: order.gatewayPaymentId,
          reported: payment.paymentId,
        });
      }
      return { outcome: "already-paid", kind: kind.subject, order };
    }
    const wrongAmount = payment.amount !== undefined && payment.amount !== order.amount;
    const wrongCurrency =
      payment.currency !== undefined && payment.currency.toUpperCase() !== order.currency.toUpperCase();
    if (wrongAmount || wrongCurrency) {
      this.logger.error("payment amount differs from the order; not completed", {
        kind: kind.subject,
        orderId: payment.orderId,
        paymentId: payment.paymentId,
        expected: `${order.amount} ${order.currency}`,
        reported: `${payment.amount} ${payment.currency}`,
      });
      return { outcome: "amount-mismatch", kind: kind.subject, order };
    }
    await this.ledger.markPaid(this.tx, order.id, payment.paymentId);
    await kind.fulfil(this.tx, order, payment);
    if (kind.afterCommit) this.after.push(() => kind.afterCommit!(order));
    this.logger.info("order paid", {
      kind: kind.subject,
      orderId: payment.orderId,
      paymentId: payment.paymentId,
      via: payment.source,
    });
    return {
      outcome: "completed",
      kind: kind.subject,
      order: { ...order, status: "paid", gatewayPaymentId: payment.paymentId },
    };
  }

  async fail(failure: FailedPayment): Promise<void> {
    const found = await this.find(failure.orderId);
    if (!found || found.order.status !== "created") return;
    await this.ledger.markFailed(this.tx, found.order.id);
    found.kind.failed?.(found.order, failure);
  }

  private async find(gatewayOrderId: string) {
    const order = await this.ledger.lock(this.tx, gatewayOrderId);
    const kind = order && this.kinds.get(order.subject);
    if (!order || !kind) return undefined;
    return { kind, order };
  }
}

export class PaymentCompletion {
  private readonly kinds = new Map<OrderSubject, OrderKind>();
  private readonly db: Db;
  readonly ledger: OrderLedger;
  private readonly logger: Logger;

  constructor(db: Db, ledger: OrderLedger, logger: Logger) {
    this.db = db;
    this.ledger = ledger;
    this.logger = logger;
  }

  /** Adds the kind of a subject (each module registers its own once, at start-up). */
  register(kind: OrderKind): void {
    if (this.kinds.has(kind.subject)) throw new Error(`order kind "${kind.subject}" is already registered`);
    this.kinds.set(kind.subject, kind);
  }

  /** The kind's own account of a completed order, for answers to the browser. */
  async present(order: OrderRow): Promise<Record<string, unknown>> {
    const kind = this.kinds.get(order.subject);
    return kind?.present ? kind.present(order) : {};
  }

  /** The merchant account an order was placed on: null for the platform's own (or an order we do not know). */
  async accountOf(gatewayOrderId: string): Promise<string | null> {
    return (await this.ledger.accountOf(gatewayOrderId)) ?? null;
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
    const result = await this.db.transaction((tx) =>
      work(new CompletionScope(tx, this.ledger, this.kinds, after, this.logger)),
    );
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
