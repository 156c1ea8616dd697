import Razorpay from "razorpay";
import type { PaymentConfig } from "./config.ts";

/**
 * One Razorpay account's keys and where its API and Checkout are (the platform's or an institute's).
 * With `oauthToken` the API is called with `Authorization: Bearer` (an account connected by OAuth:
 * `keyId` is then its public token, `keySecret` the secret its Checkout results are signed with).
 */
export type GatewayKeys = Pick<
  PaymentConfig,
  "keyId" | "keySecret" | "webhookSecret" | "apiUrl" | "checkoutScript" | "sandbox"
> & { oauthToken?: string };
import {
  GatewayError,
  type CheckoutResult,
  type CreateGatewayOrder,
  type CreateGatewayRefund,
  type CreatePaymentLink,
  type GatewayPaymentLink,
  type GatewayRefund,
  type GatewayOrder,
  type PaymentGateway,
} from "./gateway.ts";
import { checkoutSignature, signaturesMatch, webhookSignature } from "./signatures.ts";

const ORDER_TIMEOUT_MS = 15_000;

/** Razorpay through its official SDK; with the sandbox on, the SDK talks to our stand-in. */
export class RazorpayGateway implements PaymentGateway {
  readonly name: string;
  readonly keyId: string;
  readonly checkoutScript: string;
  private readonly client: Razorpay;
  private readonly keySecret: string;
  private readonly webhookSecret: string;

  constructor(config: GatewayKeys) {
    this.name = config.sandbox ? "sandbox" : "razorpay";
    this.keyId = config.keyId;
    this.checkoutScript = config.checkoutScript;
    this.keySecret = config.keySecret;
    this.webhookSecret = config.webhookSecret;
    this.client = new Razorpay(
      config.oauthToken ? { oauthToken: config.oauthToken } : { key_id: config.keyId, key_secret: config.keySecret },
    );
    pointSdkAt(this.client, config.apiUrl);
  }

  async createOrder(input: CreateGatewayOrder): Promise<GatewayOrder> {
    if (!Number.isInteger(input.amount) || input.amount < 100)
      throw new GatewayError(`amount must be at least 100 minor units (got ${input.amount})`);
    try {
      const order = await this.client.orders.create({
        amount: input.amount,
        currency: input.currency,
        receipt: input.receipt,
        notes: input.notes ?? {},
      });
      return {
        id: order.id,
        amount: Number(order.amount),
        currency: order.currency,
        receipt: order.receipt ?? input.receipt,
        status: order.status,
      };
    } catch (error) {
      const e = error as { statusCode?: number; error?: { description?: string }; message?: string };
      throw new GatewayError(
        `order creation failed: ${e.error?.description ?? e.message ?? "unknown error"}`,
        e.statusCode,
      );
    }
  }

  /**
   * Whether Razorpay accepts this key id and secret: the cheapest authenticated call (the latest
   * order, `count=1`). False for refused keys (401); a GatewayError when it cannot tell.
   */
  async checkKeys(): Promise<boolean> {
    try {
      await this.client.orders.all({ count: 1 });
      return true;
    } catch (error) {
      const e = error as { statusCode?: number; error?: { description?: string }; message?: string };
      if (e.statusCode === 401) return false;
      throw new GatewayError(`key check failed: ${e.error?.description ?? e.message ?? "unknown error"}`, e.statusCode);
    }
  }

  /**
   * POST /v1/payments/:id/refund with `X-Refund-Idempotency` (Razorpay's idempotent refund). The
   * SDK's `payments.refund` cannot send that header, so its own HTTP client is called directly.
   */
  async refund(input: CreateGatewayRefund): Promise<GatewayRefund> {
    if (!Number.isInteger(input.amount) || input.amount < 100)
      throw new GatewayError(`refund amount must be at least 100 minor units (got ${input.amount})`);
    try {
      const res = await sdkHttp(this.client).post(
        `/v1/payments/${encodeURIComponent(input.paymentId)}/refund`,
        { amount: input.amount, speed: "normal", receipt: input.receipt, notes: input.notes ?? {} },
        { headers: { "X-Refund-Idempotency": input.idempotencyKey } },
      );
      const refund = res.data as { id: string; payment_id: string; amount: number; currency: string; status: string };
      return {
        id: refund.id,
        paymentId: refund.payment_id,
        amount: Number(refund.amount),
        currency: refund.currency,
        status: refund.status,
      };
    } catch (error) {
      const e = error as {
        response?: { status?: number; data?: { error?: { description?: string } } };
        message?: string;
      };
      throw new GatewayError(
        `refund failed: ${e.response?.data?.error?.description ?? e.message ?? "unknown error"}`,
        e.response?.status,
      );
    }
  }

  /**
   * POST /v1/payment_links through the SDK. Razorpay's own SMS and e-mail are off (`notify`): the
   * link goes out through our messaging layer, under its recipient policy.
   */
  async createPaymentLink(input: CreatePaymentLink): Promise<GatewayPaymentLink> {
    if (!Number.isInteger(input.amount) || input.amount < 100)
      throw new GatewayError(`payment link amount must be at least 100 minor units (got ${input.amount})`);
    try {
      const link = await this.client.paymentLink.create({
        amount: input.amount,
        currency: input.currency,
        accept_partial: input.acceptPartial,
        expire_by: Math.floor(input.expireBy.getTime() / 1000),
        reference_id: input.referenceId,
        description: input.description.slice(0, 2048),
        customer: input.customer,
        notify: { sms: false, email: false },
        reminder_enable: false,
        notes: input.notes ?? {},
      });
      return {
        id: link.id,
        shortUrl: link.short_url,
        amount: Number(link.amount),
        status: link.status,
        referenceId: link.reference_id ?? input.referenceId,
      };
    } catch (error) {
      const e = error as { statusCode?: number; error?: { description?: string }; message?: string };
      throw new GatewayError(
        `payment link creation failed: ${e.error?.description ?? e.message ?? "unknown error"}`,
        e.statusCode,
      );
    }
  }

  verifyCheckout({ orderId, paymentId, signature }: CheckoutResult): boolean {
    return signaturesMatch(checkoutSignature(this.keySecret, orderId, paymentId), signature);
  }

  verifyWebhook(rawBody: string, signature: string | undefined): boolean {
    if (!signature) return false;
    return signaturesMatch(webhookSignature(this.webhookSecret, rawBody), signature);
  }
}

/**
 * The SDK has no option for its base URL; its axios instance is reached directly. If a future
 * SDK moves it, start-up fails here instead of payments silently going to the real API.
 */
function pointSdkAt(client: Razorpay, baseUrl: string) {
  const rq = sdkHttp(client);
  rq.defaults.baseURL = baseUrl;
  rq.defaults.timeout = ORDER_TIMEOUT_MS;
}

interface SdkHttp {
  defaults: { baseURL?: string; timeout?: number };
  post(url: string, data: unknown, config: { headers: Record<string, string> }): Promise<{ data: unknown }>;
}

/** The SDK's axios instance (its base URL, key and secret already set). */
function sdkHttp(client: Razorpay): SdkHttp {
  const rq = (client.api as unknown as { rq?: SdkHttp }).rq;
  if (!rq?.defaults || typeof rq.post !== "function")
    throw new Error("the razorpay SDK changed: cannot reach its HTTP client (RAZORPAY_API_URL, refunds)");
  return rq;
}

/** Payments off (no keys, no sandbox): nothing can be ordered, refunded or verified. */
export class NoGateway implements PaymentGateway {
  readonly name = "off";
  readonly keyId = "";
  readonly checkoutScript = "";

  async createOrder(): Promise<GatewayOrder> {
    throw new GatewayError("payments are not configured");
  }

  async refund(): Promise<GatewayRefund> {
    throw new GatewayError("payments are not configured");
  }

  async createPaymentLink(): Promise<GatewayPaymentLink> {
    throw new GatewayError("payments are not configured");
  }
  async checkKeys(): Promise<boolean> {
    throw new GatewayError("payments are not configured");
  }

  verifyCheckout(): boolean {
    return false;
  }

  verifyWebhook(): boolean {
    return false;
  }
}
