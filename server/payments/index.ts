import type { Db } from "../db/types.ts";
import { HttpError } from "../http/errors.ts";
import type { Env } from "../runtime/env.ts";
import type { Logger } from "../runtime/logger.ts";
import { resolvePaymentConfig, type PaymentConfig } from "./config.ts";
import { PaymentCompletion, type CompletionResult } from "./completion.ts";
import type { CheckoutResult, PaymentGateway } from "./gateway.ts";
import { NoGateway, RazorpayGateway } from "./razorpay.ts";
import { handleWebhook, type WebhookOutcome } from "./webhooks.ts";
import { MerchantAccounts } from "./merchant-accounts.ts";
import { OrderLedger } from "./ledger.ts";
import { PaymentLinks } from "./payment-links.ts";
import { MandateEvents } from "./mandate-events.ts";
import { signaturesMatch, webhookSignature } from "./signatures.ts";
import type { SecretBox } from "./secrets.ts";

export type { CapturedPayment, CompletionResult, OrderKind } from "./completion.ts";
export type { OrderRow } from "./ledger.ts";
export type { PaymentGateway, CreateGatewayOrder, GatewayOrder, CheckoutResult } from "./gateway.ts";
export { GatewayError } from "./gateway.ts";
export { MerchantAccounts } from "./merchant-accounts.ts";
export type { PaymentLinkEvent, PaymentLinkHandler } from "./payment-links.ts";

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
  /** Institutes' own accounts: their students' payments are made, verified and refunded on them. */
  readonly merchants: MerchantAccounts;
  /** Payment Links' webhooks, applied by the one handler registered (fees: server/services/fees/links.ts). */
  readonly links = new PaymentLinks();
  /** Recurring tokens' webhooks (mandates), applied by the one handler registered (the fee mandate service). */
  readonly mandates = new MandateEvents();
  private readonly logger: Logger;

  constructor(deps: {
    config: PaymentConfig;
    gateway: PaymentGateway;
    completion: PaymentCompletion;
    merchants: MerchantAccounts;
    logger: Logger;
  }) {
    this.config = deps.config;
    this.gateway = deps.gateway;
    this.completion = deps.completion;
    this.merchants = deps.merchants;
    this.logger = deps.logger;
  }

  /** The gateway of a merchant account, or the platform's own for null. */
  gatewayOf(accountId: string | null): Promise<PaymentGateway> {
    return accountId ? this.merchants.gateway(accountId) : Promise.resolve(this.gateway);
  }

  /** The gateway of the account an order was placed on: its Checkout signature, webhooks and refunds. */
  async gatewayForOrder(gatewayOrderId: string): Promise<PaymentGateway> {
    return this.gatewayOf(await this.completion.accountOf(gatewayOrderId));
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
    const gateway = await this.gatewayForOrder(checkout.orderId);
    if (!gateway.verifyCheckout(checkout)) throw new HttpError(422, INVALID_SIGNATURE);
    const result = await this.completion.complete({
      orderId: checkout.orderId,
      paymentId: checkout.paymentId,
      source: "checkout",
    });
    if (result.outcome === "unknown-order" || result.outcome === "amount-mismatch")
      throw new HttpError(422, UNKNOWN_ORDER);
    return result;
  }

  /**
   * A webhook delivery: raw body and the two Razorpay headers; `accountId` when its URL names an
   * institute's account (its secret then signs it, and only that account's orders are completed).
   * The partner webhook's deliveries arrive here too: those about an order of an account connected
   * by OAuth (signed with the partner webhook's secret, naming that account), and
   * `account.app.authorization_revoked`, which disconnects the named account as revoked. A
   * payment link's and a recurring token's deliveries are signed by the account they were made on.
   */
  webhook(
    rawBody: string,
    headers: { signature?: string; eventId?: string },
    accountId?: string,
  ): Promise<WebhookOutcome> {
    const signers = {
      routeAccount: accountId,
      // An order of the ledger, else a mandate's authorisation order (made outside the ledger).
      accountOf: async (orderId: string) =>
        (await this.completion.ledger.accountOf(orderId)) ?? (await this.mandates.accountOfOrder(orderId)) ?? null,
      linkAccountOf: (linkId: string) => this.links.accountOf(linkId),
      tokenAccountOf: (tokenId: string) => this.mandates.accountOf(tokenId),
      gatewayOf: async (id: string | null) => {
        if (id && !UUID.test(id)) return undefined;
        try {
          return await this.gatewayOf(id);
        } catch (error) {
          this.logger.warn("webhook for an account whose gateway cannot be made", { accountId: id, error });
          return undefined;
        }
      },
      razorpayAccountOf: (id: string) => this.merchants.razorpayAccountOf(id),
      partner: this.config.partner ? (raw: string, sig: string | undefined) => this.partnerSigned(raw, sig) : undefined,
    };
    return handleWebhook(
      {
        signers,
        completion: this.completion,
        revocations: this.merchants,
        links: this.links,
        mandates: this.mandates,
        logger: this.logger,
      },
      rawBody,
      headers,
    );
  }

  /** Whether the partner webhook's secret signed this delivery. */
  private partnerSigned(rawBody: string, signature: string | undefined): boolean {
    const secret = this.config.partner?.webhookSecret;
    return Boolean(secret && signature && signaturesMatch(webhookSignature(secret, rawBody), signature));
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createPayments(
  env: Env,
  db: Db,
  logger: Logger,
  merchants: {
    box: SecretBox | null;
    webhookUrl: (accountId: string) => string;
    platformUrl: (path: string) => string;
    centerChanged: () => void;
  },
): Payments {
  const config = resolvePaymentConfig(env);
  const log = logger.child({ component: "payments" });
  return new Payments({
    config,
    gateway: config.mode === "off" ? new NoGateway() : new RazorpayGateway(config),
    completion: new PaymentCompletion(db, new OrderLedger(db), log),
    merchants: new MerchantAccounts({
      db,
      config,
      logger: log,
      ...merchants,
      gatewayFor: config.mode === "off" ? () => new NoGateway() : undefined,
    }),
    logger: log,
  });
}
