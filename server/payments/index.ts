import type { Db } from "../db/types.ts";
import { HttpError } from "../http/errors.ts";
import type { Env } from "../runtime/env.ts";
import type { Logger } from "../runtime/logger.ts";
import { resolvePaymentConfig, type PaymentConfig } from "./config.ts";
import { PaymentCompletion, type CompletionResult } from "./completion.ts";
import type { CheckoutResult, PaymentGateway } from "./gateway.ts";
import { NoGateway, RazorpayGateway } from "./razorpay.ts";
import { handleWebhook, type WebhookOutcome } from "./webhooks.ts";

export type { CapturedPayment, CompletionResult, OrderKind, PayableOrder } from "./completion.ts";
export type { PaymentGateway, CreateGatewayOrder, GatewayOrder, CheckoutResult } from "./gateway.ts";
export { GatewayError } from "./gateway.ts";

export const INVALID_SIGNATURE = "The payment signature is not valid.";
export const PAYMENTS_OFF = "Online payments are not set up on this server yet. Please contact support.";
export const UNKNOWN_ORDER = "We could not find this order.";

/**
 * The payment layer every paid thing goes through: one gateway (Razorpay or its sandbox), one
 * completion registry (order kinds register themselves), one webhook entry point.
 */
export class Payments {
  readonly config: PaymentConfig;
  readonly gateway: PaymentGateway;
  readonly completion: PaymentCompletion;
  private readonly logger: Logger;

  constructor(deps: { config: PaymentConfig; gateway: PaymentGateway; completion: PaymentCompletion; logger: Logger }) {
    this.config = deps.config;
    this.gateway = deps.gateway;
    this.completion = deps.completion;
    this.logger = deps.logger;
  }

  /** Refuses (503) when payments are off: no keys and no sandbox switched on. */
  ensureConfigured(): void {
    if (this.config.mode === "off") throw new HttpError(503, PAYMENTS_OFF);
  }

  /**
   * The browser's report of a Checkout payment: its signature checked, then the order completed
   * exactly once (whatever kind it is). 422 for a forged signature or an order we never placed.
   */
  async confirmCheckout(
    checkout: CheckoutResult,
  ): Promise<Extract<CompletionResult, { outcome: "completed" | "already-paid" }>> {
    if (!this.gateway.verifyCheckout(checkout)) throw new HttpError(422, INVALID_SIGNATURE);
    const result = await this.completion.complete({
      orderId: checkout.orderId,
      paymentId: checkout.paymentId,
      source: "checkout",
    });
    if (result.outcome === "unknown-order" || result.outcome === "amount-mismatch")
      throw new HttpError(422, UNKNOWN_ORDER);
    return result;
  }

  /** A webhook delivery: raw body and the two Razorpay headers. */
  webhook(rawBody: string, headers: { signature?: string; eventId?: string }): Promise<WebhookOutcome> {
    return handleWebhook({ gateway: this.gateway, completion: this.completion, logger: this.logger }, rawBody, headers);
  }
}

export function createPayments(env: Env, db: Db, logger: Logger): Payments {
  const config = resolvePaymentConfig(env);
  const log = logger.child({ component: "payments" });
  return new Payments({
    config,
    gateway: config.mode === "off" ? new NoGateway() : new RazorpayGateway(config),
    completion: new PaymentCompletion(db, log),
    logger: log,
  });
}
