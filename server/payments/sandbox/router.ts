import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Hono, type Context } from "hono";
import type { Logger } from "../../runtime/logger.ts";
import { LRUCache } from "lru-cache";
import type { PaymentConfig } from "../config.ts";
import { checkoutSignature, signaturesMatch, webhookSignature } from "../signatures.ts";
import { SANDBOX_CHECKOUT_SCRIPT } from "./checkout-script.ts";

/**
 * The offline stand-in of Razorpay (mounted at /_sandbox/razorpay only while the sandbox is on):
 * the Orders API the SDK calls, the Checkout script the browser loads, and the "bank" behind it.
 * A payment is signed with the key secret exactly as Razorpay signs it, and the signed webhooks
 * (payment.captured, order.paid, or payment.failed) are delivered to the app over HTTP.
 * Refunds follow Razorpay's `POST /v1/payments/:id/refund` (with `X-Refund-Idempotency`).
 * Orders and payments live in memory: the sandbox is for laptops, tests and demos, and a payment
 * made before it restarted is as unknown to it as a made-up id is to Razorpay.
 */

interface SandboxOrder {
  id: string;
  entity: "order";
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  offer_id: null;
  status: "created" | "attempted" | "paid";
  attempts: number;
  notes: Record<string, string>;
  created_at: number;
}

interface SandboxRefund {
  id: string;
  entity: "refund";
  amount: number;
  currency: string;
  payment_id: string;
  notes: Record<string, string>;
  receipt: string | null;
  acquirer_data: { arn: null };
  created_at: number;
  batch_id: null;
  status: "processed";
  speed_processed: "normal";
  speed_requested: string;
}

interface SandboxPayment {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  amount_refunded: number;
  refunds: SandboxRefund[];
  entity: ReturnType<typeof paymentEntity>;
}

export type WebhookDelivery = (body: string, headers: Record<string, string>) => Promise<number>;

export interface SandboxOptions {
  config: PaymentConfig;
  logger: Logger;
  /** Delay before webhooks are sent (Razorpay's arrive a moment after the payment). */
  webhookDelayMs?: number;
  /** Replaces the HTTP delivery (tests). */
  deliver?: WebhookDelivery;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Razorpay-style id: prefix + 14 base62 characters. */
export function sandboxId(prefix: string): string {
  const bytes = randomBytes(14);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

const apiError = (c: Context, status: 400 | 401 | 404, description: string, field?: string) =>
  c.json(
    {
      error: {
        code: "BAD_REQUEST_ERROR",
        description,
        source: "business",
        step: "payment_initiation",
        reason: "input_validation_failed",
        metadata: {},
        field: field ?? null,
      },
    },
    status,
  );

export function sandboxRouter({ config, logger, webhookDelayMs = 200, deliver }: SandboxOptions): Hono {
  const app = new Hono();
  const orders = new LRUCache<string, SandboxOrder>({ max: 20_000 });
  const payments = new LRUCache<string, SandboxPayment>({ max: 20_000 });
  /** Idempotency key → the body it came with and the refund it made. */
  const refundKeys = new LRUCache<string, { body: string; refund: SandboxRefund }>({ max: 20_000 });
  const log = logger.child({ component: "payment-sandbox" });
  const send = deliver ?? httpDelivery(config);

  const authorised = (c: Context) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Basic\s+(\S+)$/i.exec(header);
    if (!match) return false;
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return false;
    const keyId = decoded.slice(0, colon);
    const secret = decoded.slice(colon + 1);
    return (
      keyId === config.keyId &&
      signaturesMatch(Buffer.from(config.keySecret).toString("hex"), Buffer.from(secret).toString("hex"))
    );
  };

  app.post("/v1/orders", async (c) => {
    if (!authorised(c)) return apiError(c, 401, "Authentication failed");
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body || typeof body !== "object") return apiError(c, 400, "The request body must be JSON");
    const amount = Number(body.amount);
    if (!Number.isInteger(amount) || amount < 100)
      return apiError(c, 400, "The amount must be atleast INR 1.00", "amount");
    const currency = String(body.currency ?? "INR");
    if (currency !== "INR") return apiError(c, 400, "Currency is not supported", "currency");
    const receipt = body.receipt === undefined || body.receipt === null ? null : String(body.receipt);
    if (receipt && receipt.length > 40)
      return apiError(c, 400, "receipt: the length must be no more than 40.", "receipt");
    const notes =
      body.notes && typeof body.notes === "object"
        ? Object.fromEntries(Object.entries(body.notes).map(([k, v]) => [k, String(v)]))
        : {};
    const order: SandboxOrder = {
      id: sandboxId("order"),
      entity: "order",
      amount,
      amount_paid: 0,
      amount_due: amount,
      currency,
      receipt,
      offer_id: null,
      status: "created",
      attempts: 0,
      notes,
      created_at: Math.floor(Date.now() / 1000),
    };
    orders.set(order.id, order);
    return c.json(order);
  });

  app.get("/v1/orders/:id", (c) => {
    if (!authorised(c)) return apiError(c, 401, "Authentication failed");
    const order = orders.get(c.req.param("id"));
    return order ? c.json(order) : apiError(c, 404, "The id provided does not exist");
  });

  const paymentView = (p: SandboxPayment) => ({
    ...p.entity,
    amount_refunded: p.amount_refunded,
    refund_status: p.amount_refunded === 0 ? null : p.amount_refunded === p.amount ? "full" : "partial",
    status: p.amount_refunded === p.amount ? "refunded" : "captured",
  });

  app.get("/v1/payments/:id", (c) => {
    if (!authorised(c)) return apiError(c, 401, "Authentication failed");
    const payment = payments.get(c.req.param("id"));
    return payment ? c.json(paymentView(payment)) : apiError(c, 400, "The id provided does not exist");
  });

  app.get("/v1/payments/:id/refunds", (c) => {
    if (!authorised(c)) return apiError(c, 401, "Authentication failed");
    const payment = payments.get(c.req.param("id"));
    if (!payment) return apiError(c, 400, "The id provided does not exist");
    return c.json({ entity: "collection", count: payment.refunds.length, items: payment.refunds });
  });

  app.post("/v1/payments/:id/refund", async (c) => {
    if (!authorised(c)) return apiError(c, 401, "Authentication failed");
    const raw = await c.req.text();
    let body: Record<string, unknown> | null;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      body = null;
    }
    if (!body || typeof body !== "object") return apiError(c, 400, "The request body must be JSON");
    const key = c.req.header("x-refund-idempotency");
    if (key !== undefined && !/^[A-Za-z0-9_-]{10,}$/.test(key))
      return apiError(c, 400, "The idempotency key must be at least 10 characters of letters, digits, - and _");
    if (key) {
      const seen = refundKeys.get(key);
      if (seen)
        return seen.body === raw
          ? c.json(seen.refund)
          : apiError(c, 400, "Different request with the same idempotency key has already been processed.");
    }
    const payment = payments.get(c.req.param("id"));
    if (!payment) return apiError(c, 400, "The id provided does not exist");
    const left = payment.amount - payment.amount_refunded;
    if (left === 0) return apiError(c, 400, "The payment has been fully refunded already");
    const amount = body.amount === undefined ? left : Number(body.amount);
    if (!Number.isInteger(amount) || amount < 100)
      return apiError(c, 400, "The amount must be at least INR 1.00", "amount");
    if (amount > left) return apiError(c, 400, "The refund amount provided is greater than amount captured", "amount");
    const refund: SandboxRefund = {
      id: sandboxId("rfnd"),
      entity: "refund",
      amount,
      currency: payment.currency,
      payment_id: payment.id,
      notes:
        body.notes && typeof body.notes === "object"
          ? Object.fromEntries(Object.entries(body.notes).map(([k, v]) => [k, String(v)]))
          : {},
      receipt: typeof body.receipt === "string" ? body.receipt.slice(0, 40) : null,
      acquirer_data: { arn: null },
      created_at: Math.floor(Date.now() / 1000),
      batch_id: null,
      status: "processed",
      speed_processed: "normal",
      speed_requested: typeof body.speed === "string" ? body.speed : "normal",
    };
    payment.amount_refunded += amount;
    payment.refunds.push(refund);
    if (key) refundKeys.set(key, { body: raw, refund });
    return c.json(refund);
  });

  app.get("/checkout.js", (c) => {
    c.header("Content-Type", "application/javascript; charset=utf-8");
    c.header("Cache-Control", "no-cache");
    return c.body(SANDBOX_CHECKOUT_SCRIPT);
  });

  /** The checkout's request: which order, with which public key. */
  const readCheckout = async (c: Context) => {
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const key = String(body?.key ?? "");
    const order = orders.get(String(body?.order_id ?? ""));
    const email = typeof body?.email === "string" ? body.email.slice(0, 254) : "";
    const contact = typeof body?.contact === "string" ? body.contact.slice(0, 20) : "";
    return { key, order, email, contact };
  };

  app.post("/checkout/pay", async (c) => {
    const { key, order, email, contact } = await readCheckout(c);
    if (key !== config.keyId) return apiError(c, 400, "The api key provided is invalid");
    if (!order) return apiError(c, 400, "This order does not exist or has expired");
    if (order.status === "paid") return apiError(c, 400, "This order has already been paid");
    const paymentId = sandboxId("pay");
    order.attempts += 1;
    order.status = "paid";
    order.amount_paid = order.amount;
    order.amount_due = 0;
    const payment = paymentEntity(order, paymentId, "captured", { email, contact });
    payments.set(paymentId, {
      id: paymentId,
      order_id: order.id,
      amount: order.amount,
      currency: order.currency,
      amount_refunded: 0,
      refunds: [],
      entity: payment,
    });
    scheduleWebhooks(send, log, config, webhookDelayMs, [
      { event: "payment.captured", contains: ["payment"], payload: { payment: { entity: payment } } },
      {
        event: "order.paid",
        contains: ["payment", "order"],
        payload: { payment: { entity: payment }, order: { entity: { ...order } } },
      },
    ]);
    return c.json({
      razorpay_payment_id: paymentId,
      razorpay_order_id: order.id,
      razorpay_signature: checkoutSignature(config.keySecret, order.id, paymentId),
    });
  });

  app.post("/checkout/fail", async (c) => {
    const { key, order, email, contact } = await readCheckout(c);
    if (key !== config.keyId) return apiError(c, 400, "The api key provided is invalid");
    if (!order) return apiError(c, 400, "This order does not exist or has expired");
    const paymentId = sandboxId("pay");
    order.attempts += 1;
    if (order.status === "created") order.status = "attempted";
    const description = "Payment failed because the sandbox was asked to fail it. No money was taken.";
    const payment = {
      ...paymentEntity(order, paymentId, "failed", { email, contact }),
      error_code: "BAD_REQUEST_ERROR",
      error_description: description,
      error_source: "customer",
      error_step: "payment_authorization",
      error_reason: "payment_failed",
    };
    scheduleWebhooks(send, log, config, webhookDelayMs, [
      { event: "payment.failed", contains: ["payment"], payload: { payment: { entity: payment } } },
    ]);
    return c.json(
      {
        error: {
          code: "BAD_REQUEST_ERROR",
          description,
          source: "customer",
          step: "payment_authorization",
          reason: "payment_failed",
          metadata: { order_id: order.id, payment_id: paymentId },
        },
      },
      400,
    );
  });

  app.all("*", (c) => apiError(c, 404, "The requested URL was not found on the sandbox"));
  return app;
}

function paymentEntity(
  order: SandboxOrder,
  id: string,
  status: "captured" | "failed",
  who: { email: string; contact: string },
) {
  return {
    id,
    entity: "payment",
    amount: order.amount,
    currency: order.currency,
    status,
    order_id: order.id,
    invoice_id: null,
    international: false,
    method: "card",
    amount_refunded: 0,
    refund_status: null,
    captured: status === "captured",
    description: "Sandbox payment",
    card_id: null,
    bank: null,
    wallet: null,
    vpa: null,
    email: who.email,
    contact: who.contact,
    notes: order.notes,
    fee: 0,
    tax: 0,
    error_code: null,
    error_description: null,
    created_at: Math.floor(Date.now() / 1000),
  };
}

/** Sends each event like Razorpay: signed raw body, a unique event id, retried a few times on failure. */
function scheduleWebhooks(
  send: WebhookDelivery,
  log: Logger,
  config: PaymentConfig,
  delayMs: number,
  events: { event: string; contains: string[]; payload: unknown }[],
) {
  const timer = setTimeout(async () => {
    for (const e of events) {
      const body = JSON.stringify({
        entity: "event",
        account_id: "acc_sandbox",
        event: e.event,
        contains: e.contains,
        payload: e.payload,
        created_at: Math.floor(Date.now() / 1000),
      });
      const headers = {
        "content-type": "application/json",
        "x-razorpay-signature": webhookSignature(config.webhookSecret, body),
        "x-razorpay-event-id": sandboxId("evt"),
      };
      for (let attempt = 1; attempt <= 3; attempt++) {
        try {
          const status = await send(body, headers);
          if (status >= 200 && status < 300) break;
          log.warn("sandbox webhook refused", { event: e.event, status, attempt });
        } catch (error) {
          log.warn("sandbox webhook not delivered", { event: e.event, attempt, error: (error as Error).message });
        }
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
  }, delayMs);
  timer.unref();
}

/** POSTs to the app's own webhook endpoint, naming one of its platform hosts. */
function httpDelivery(config: PaymentConfig): WebhookDelivery {
  const target = new URL(config.webhookTarget.url);
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  return (body, headers) =>
    new Promise((resolve, reject) => {
      const req = request(
        target,
        {
          method: "POST",
          headers: { ...headers, host: config.webhookTarget.host, "content-length": String(Buffer.byteLength(body)) },
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("timeout", () => req.destroy(new Error("timed out")));
      req.on("error", reject);
      req.end(body);
    });
}
