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
  type CreateGatewayCustomer,
  type CreateGatewayOrder,
  type CreateGatewayRefund,
  type CreateMandateOrder,
  type CreatePaymentLink,
  type CreateRecurringPayment,
  type GatewayPayment,
  type GatewayPaymentLink,
  type GatewayRefund,
  type GatewayOrder,
  type GatewayToken,
  type MandateMethod,
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
      throw sdkError("order creation failed", error);
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
      throw sdkError("payment link creation failed", error);
    }
  }

  /**
   * POST /v1/customers with `fail_existing: "0"`: the same payer's details give back the customer
   * made before instead of an error, so a second mandate hangs on the same customer.
   */
  async createCustomer(input: CreateGatewayCustomer): Promise<{ id: string }> {
    if (!input.name.trim()) throw new GatewayError("a customer needs a name");
    try {
      const customer = await this.client.customers.create({
        name: input.name,
        email: input.email,
        contact: input.contact,
        // Razorpay documents the string "0"; the SDK's typing knows only numbers and booleans.
        fail_existing: "0" as unknown as 0,
        notes: input.notes ?? {},
      });
      return { id: customer.id };
    } catch (error) {
      throw sdkError("customer creation failed", error);
    }
  }

  /**
   * POST /v1/orders with `customer_id`, `method` and `token` (Razorpay's authorisation transaction):
   * UPI Autopay's is a real payment, monthly, captured at once; an e-mandate's is 0 by netbanking.
   */
  async createMandateOrder(input: CreateMandateOrder): Promise<GatewayOrder> {
    if (input.method === "upi" && (!Number.isInteger(input.amount) || input.amount < 100))
      throw new GatewayError(`a UPI Autopay authorisation must be at least 100 minor units (got ${input.amount})`);
    if (input.method === "emandate" && input.amount !== 0)
      throw new GatewayError(`an e-mandate authorisation must be 0 (got ${input.amount})`);
    if (!Number.isInteger(input.maxAmount) || input.maxAmount < 100)
      throw new GatewayError(`a mandate's maximum must be at least 100 minor units (got ${input.maxAmount})`);
    const expireAt = Math.floor(input.expireAt.getTime() / 1000);
    if (!Number.isFinite(expireAt) || expireAt * 1000 <= Date.now())
      throw new GatewayError("a mandate must end in the future");
    const token =
      input.method === "upi"
        ? { max_amount: input.maxAmount, expire_at: expireAt, frequency: "monthly" }
        : { auth_type: "netbanking" as const, max_amount: input.maxAmount, expire_at: expireAt };
    try {
      const order = await this.client.orders.create({
        amount: input.amount,
        currency: "INR",
        customer_id: input.customerId,
        method: input.method,
        receipt: input.receipt,
        notes: input.notes ?? {},
        payment_capture: true,
        token,
      });
      return {
        id: order.id,
        amount: Number(order.amount),
        currency: order.currency,
        receipt: order.receipt ?? input.receipt,
        status: order.status,
      };
    } catch (error) {
      throw sdkError("mandate order creation failed", error);
    }
  }

  /** GET /v1/payments/:id: an authorisation's payment names the token it made. */
  async fetchPayment(paymentId: string): Promise<GatewayPayment> {
    try {
      const payment = (await this.client.payments.fetch(paymentId)) as unknown as RazorpayPaymentFields;
      return {
        id: payment.id,
        orderId: payment.order_id ?? null,
        amount: Number(payment.amount),
        status: payment.status,
        method: payment.method,
        tokenId: payment.token_id ?? null,
        customerId: payment.customer_id ?? null,
      };
    } catch (error) {
      throw sdkError("payment fetch failed", error);
    }
  }

  /**
   * GET /v1/customers/:customer_id/tokens/:token_id. A recurring token's state is in
   * `recurring_details.status` (Razorpay's `status` is the card vault's); `expired_at` is when it ends.
   */
  async fetchToken(customerId: string, tokenId: string): Promise<GatewayToken> {
    let token: RazorpayTokenFields;
    try {
      token = (await this.client.customers.fetchToken(customerId, tokenId)) as unknown as RazorpayTokenFields;
    } catch (error) {
      throw sdkError("token fetch failed", error);
    }
    if (token.method !== "upi" && token.method !== "emandate")
      throw new GatewayError(`token ${tokenId} is a ${token.method} token, not a UPI or e-mandate one`);
    const status = token.recurring_details?.status ?? token.status;
    if (!status) throw new GatewayError(`token ${tokenId} came without a status`);
    const expires = token.expired_at ?? token.expire_at;
    return {
      id: token.id,
      method: token.method satisfies MandateMethod,
      status,
      maxAmount: Number(token.max_amount ?? 0),
      expireAt: expires ? new Date(expires * 1000) : null,
    };
  }

  /** POST /v1/payments/create/recurring: the debit is presented now and settles by webhook. */
  async createRecurringPayment(input: CreateRecurringPayment): Promise<{ paymentId: string }> {
    if (!Number.isInteger(input.amount) || input.amount < 100)
      throw new GatewayError(`a recurring payment must be at least 100 minor units (got ${input.amount})`);
    let answer: { razorpay_payment_id?: string };
    try {
      answer = await this.client.payments.createRecurringPayment({
        email: input.email,
        contact: input.contact,
        amount: input.amount,
        currency: "INR",
        order_id: input.orderId,
        customer_id: input.customerId,
        token: input.tokenId,
        recurring: "1",
        description: input.description,
        notes: input.notes ?? {},
      });
    } catch (error) {
      throw sdkError("recurring payment failed", error);
    }
    if (!answer.razorpay_payment_id) throw new GatewayError("recurring payment answered without a payment id");
    return { paymentId: answer.razorpay_payment_id };
  }

  /** DELETE /v1/customers/:customer_id/tokens/:token_id: no debit can be made on it afterwards. */
  async cancelToken(customerId: string, tokenId: string): Promise<void> {
    try {
      await this.client.customers.deleteToken(customerId, tokenId);
    } catch (error) {
      throw sdkError("token cancellation failed", error);
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

/** The fields of a payment read here (the SDK's typing has no `token_id`). */
interface RazorpayPaymentFields {
  id: string;
  order_id?: string | null;
  amount: number | string;
  status: string;
  method: string;
  token_id?: string | null;
  customer_id?: string | null;
}

/** The fields of a recurring token read here: Razorpay has named its end both `expired_at` and `expire_at`. */
interface RazorpayTokenFields {
  id: string;
  method: string;
  status?: string | null;
  recurring_details?: { status?: string | null } | null;
  max_amount?: number | null;
  expired_at?: number | null;
  expire_at?: number | null;
}

/** An SDK call's refusal (`{statusCode, error: {description}}`) or failure, as a GatewayError. */
function sdkError(what: string, error: unknown): GatewayError {
  const e = error as { statusCode?: number; error?: { description?: string }; message?: string };
  return new GatewayError(`${what}: ${e.error?.description ?? e.message ?? "unknown error"}`, e.statusCode);
}

/**
 * The SDK has no option for its base URL; its axios instance is reached directly. If a future
 * SDK moves it, start-up fails here instead of payments silently going to the real API.
 */
function pointSdkAt(client: Razorpay, baseUrl: string) {
  const rq = sdkHttp(client);
  rq.defaults.baseURL = baseUrl;
  rq.defaults.timeout = ORDER_TIMEOUT_MS;
  // The API never redirects; without the redirect-following wrapper, a failed call's request is
  // Node's own, which says whether it went out on a kept-alive connection (`afterNoAnswer`).
  rq.defaults.maxRedirects = 0;
  rq.interceptors.response.use(undefined, (error: SdkHttpError) => afterNoAnswer(rq, error));
}

/** Calls already sent again once on a fresh connection. */
const resent = new WeakSet<object>();

/**
 * A call that got no answer. A kept-alive connection that the other end closed just as the call
 * went out fails at once with ECONNRESET, and Node's documentation's remedy is to send it again
 * on a new connection (`reusedSocket`): it never reached the gateway, so nothing is done twice.
 * Any other call without an answer is refused in the shape the SDK reads, naming the cause (the
 * SDK's own handler reads `response.status` and would throw a TypeError that hides it).
 */
async function afterNoAnswer(rq: SdkHttp, error: SdkHttpError): Promise<unknown> {
  if (error.response) throw error;
  const { config } = error;
  if (error.code === "ECONNRESET" && error.request?.reusedSocket && config && !resent.has(config)) {
    resent.add(config);
    return rq.request(config);
  }
  const cause = error.code ?? error.message ?? "unknown error";
  throw { response: { status: undefined, data: { error: { description: `no answer from the gateway (${cause})` } } } };
}

interface SdkHttpError {
  code?: string;
  message?: string;
  config?: object;
  request?: { reusedSocket?: boolean };
  response?: unknown;
}

interface SdkHttp {
  defaults: { baseURL?: string; timeout?: number; maxRedirects?: number };
  interceptors: {
    response: { use(onAnswer: undefined, onNoAnswer: (error: SdkHttpError) => Promise<unknown>): number };
  };
  request(config: object): Promise<unknown>;
  post(url: string, data: unknown, config: { headers: Record<string, string> }): Promise<{ data: unknown }>;
}

/** The SDK's axios instance (its base URL, key and secret already set). */
function sdkHttp(client: Razorpay): SdkHttp {
  const rq = (client.api as unknown as { rq?: SdkHttp }).rq;
  if (!rq?.defaults || typeof rq.post !== "function")
    throw new Error("the razorpay SDK changed: cannot reach its HTTP client (RAZORPAY_API_URL, refunds)");
  return rq;
}

/** Every call of a gateway that is off. */
const off = async (): Promise<never> => {
  throw new GatewayError("payments are not configured");
};

/** Payments off (no keys, no sandbox): nothing can be ordered, refunded or verified. */
export class NoGateway implements PaymentGateway {
  readonly name = "off";
  readonly keyId = "";
  readonly checkoutScript = "";
  readonly createOrder = off;
  readonly refund = off;
  readonly createPaymentLink = off;
  readonly createCustomer = off;
  readonly createMandateOrder = off;
  readonly fetchPayment = off;
  readonly fetchToken = off;
  readonly createRecurringPayment = off;
  readonly cancelToken = off;
  readonly checkKeys = off;

  verifyCheckout(): boolean {
    return false;
  }

  verifyWebhook(): boolean {
    return false;
  }
}
