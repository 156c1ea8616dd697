import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Hono, type Context } from "hono";
import type { Logger } from "../../runtime/logger.ts";
import { LRUCache } from "lru-cache";
import type { PaymentConfig } from "../config.ts";
import { checkoutSignature, signaturesMatch, webhookSignature } from "../signatures.ts";
import { SANDBOX_CHECKOUT_SCRIPT } from "./checkout-script.ts";
import {
  newSandboxAccount,
  sandboxAccount,
  sandboxAccountId,
  sandboxAccountOfPublicToken,
  sandboxPublicToken,
  type SandboxAccount,
} from "./accounts.ts";
import { mountSandboxOAuth } from "./oauth.ts";
import { mountSandboxPaymentLinks } from "./payment-links.ts";
import { isOn, mountSandboxRecurring } from "./recurring.ts";
import { paymentEntity, type PaymentEntity, type SandboxOrder } from "./entities.ts";

/**
 * The offline stand-in of Razorpay (mounted at /_sandbox/razorpay only while the sandbox is on):
 * the Orders API the SDK calls, the Checkout script the browser loads, and the "bank" behind it.
 * A payment is signed with the key secret exactly as Razorpay signs it, and the signed webhooks
 * (payment.captured, order.paid, or payment.failed) are delivered to the app over HTTP.
 * Refunds follow Razorpay's `POST /v1/payments/:id/refund` (with `X-Refund-Idempotency`).
 * Payment Links (`/v1/payment_links`, the payer's page `/l/{id}`, part payments, expiry and
 * cancellation with their `payment_link.*` webhooks) are ./payment-links.ts; recurring payments
 * (customers, authorisation orders paid in Checkout opened with `recurring: 1`, tokens, debits on
 * them, and the payer's side of a mandate) are ./recurring.ts.
 * Several merchant accounts: the platform's own (the configured keys) and the institutes' (any
 * well-formed test key id, its secrets derived from it: ./accounts.ts); each account sees only its
 * own orders and payments, Checkout signs with the order's account and its webhooks are signed
 * with that account's webhook secret. `/accounts/new` is the sandbox's dashboard page that makes
 * a test account and shows its keys, as Razorpay's dashboard does. The platform's partner
 * application connects accounts by OAuth too (./oauth.ts): an order made with an account's Bearer
 * access token is paid in Checkout opened with the account's public token, its Checkout result is
 * signed with the partner's client secret and its webhooks with the partner webhook's secret,
 * naming the account in `account_id`, as Razorpay does for partners; `/oauth/dashboard-revoke`
 * is the account holder revoking that access, and sends `account.app.authorization_revoked`.
 * Orders and payments live in memory: the sandbox is for laptops, tests and demos, and a payment
 * made before it restarted is as unknown to it as a made-up id is to Razorpay.
 */

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
  /** The merchant account (key id) it was paid to: only that account sees and refunds it. */
  keyId: string;
  order_id: string;
  amount: number;
  currency: string;
  amount_refunded: number;
  refunds: SandboxRefund[];
  entity: PaymentEntity;
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

import { sandboxId } from "./ids.ts";
export { sandboxId };

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

  /** Which order belongs to which account (key id), and whether it was made by OAuth (a Bearer token). */
  const orderAccounts = new LRUCache<string, string>({ max: 20_000 });
  const oauthOrders = new LRUCache<string, true>({ max: 20_000 });
  const accountFor = (keyId: string): SandboxAccount | undefined =>
    keyId === config.keyId
      ? { keyId, keySecret: config.keySecret, webhookSecret: config.webhookSecret }
      : (sandboxAccount(keyId) ?? (config.partner ? sandboxAccountOfPublicToken(keyId) : undefined));
  const oauth = mountSandboxOAuth(app, config.partner, (account) => {
    const partner = config.partner!;
    // The partner webhook's event about the account, signed with the partner webhook's secret. Only
    // `account_id` and `event` are relied on; what else Razorpay's payload carries is not modelled.
    scheduleWebhooks(
      send,
      log,
      { keyId: account.keyId, keySecret: partner.clientSecret, webhookSecret: partner.webhookSecret },
      webhookDelayMs,
      [{ event: "account.app.authorization_revoked", contains: [], payload: {} }],
    );
  });
  /** Calls authorised by OAuth, by request. */
  const viaOAuth = new WeakSet<Request>();

  /**
   * The account whose key id and secret the request's Basic authorization names, if they match, or
   * whose access token its Bearer authorization carries (the partner's, connected by OAuth).
   */
  const authorised = (c: Context): SandboxAccount | undefined => {
    const header = c.req.header("authorization") ?? "";
    const bearer = /^Bearer\s+(\S+)$/i.exec(header);
    if (bearer) {
      const account = config.partner ? oauth.accountOfAccessToken(bearer[1]) : undefined;
      if (account) viaOAuth.add(c.req.raw);
      return account;
    }
    const match = /^Basic\s+(\S+)$/i.exec(header);
    if (!match) return undefined;
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return undefined;
    const account = accountFor(decoded.slice(0, colon));
    const secret = decoded.slice(colon + 1);
    return account &&
      signaturesMatch(Buffer.from(account.keySecret).toString("hex"), Buffer.from(secret).toString("hex"))
      ? account
      : undefined;
  };

  app.post("/v1/orders", async (c) => {
    const account = authorised(c);
    if (!account) return apiError(c, 401, "Authentication failed");
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body || typeof body !== "object") return apiError(c, 400, "The request body must be JSON");
    const amount = Number(body.amount);
    // An authorisation order (with a `token`) has its own rules: an e-mandate's is 0.
    const mandate = recurring.orderTerms(account.keyId, body);
    if (mandate && "error" in mandate) return apiError(c, 400, mandate.error, mandate.field);
    if (!mandate && (!Number.isInteger(amount) || amount < 100))
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
      ...mandate?.terms,
    };
    orders.set(order.id, order);
    orderAccounts.set(order.id, account.keyId);
    if (viaOAuth.has(c.req.raw)) oauthOrders.set(order.id, true);
    return c.json(order);
  });

  /** The account's own orders, newest first (`count`, at most 100): what a key check asks for. */
  app.get("/v1/orders", (c) => {
    const account = authorised(c);
    if (!account) return apiError(c, 401, "Authentication failed");
    const count = Math.min(100, Math.max(1, Number(c.req.query("count") ?? 10) || 10));
    const items = [...orders.values()].filter((o) => orderAccounts.get(o.id) === account.keyId).slice(0, count);
    return c.json({ entity: "collection", count: items.length, items });
  });

  app.get("/v1/orders/:id", (c) => {
    const account = authorised(c);
    if (!account) return apiError(c, 401, "Authentication failed");
    const order = orders.get(c.req.param("id"));
    return order && orderAccounts.get(order.id) === account.keyId
      ? c.json(order)
      : apiError(c, 404, "The id provided does not exist");
  });

  /** A payment of the calling account (another account's is as unknown as a made-up id). */
  const paymentOf = (c: Context, account: SandboxAccount) => {
    const payment = payments.get(c.req.param("id") ?? "");
    return payment?.keyId === account.keyId ? payment : undefined;
  };

  const paymentView = (p: SandboxPayment) => ({
    ...p.entity,
    amount_refunded: p.amount_refunded,
    refund_status: p.amount_refunded === 0 ? null : p.amount_refunded === p.amount ? "full" : "partial",
    // A debit not yet settled is "created", one declined "failed"; only a captured one can be refunded.
    status:
      p.entity.status !== "captured"
        ? p.entity.status
        : p.amount_refunded > 0 && p.amount_refunded === p.amount
          ? "refunded"
          : "captured",
  });

  app.get("/v1/payments/:id", (c) => {
    const account = authorised(c);
    if (!account) return apiError(c, 401, "Authentication failed");
    const payment = paymentOf(c, account);
    return payment ? c.json(paymentView(payment)) : apiError(c, 400, "The id provided does not exist");
  });

  app.get("/v1/payments/:id/refunds", (c) => {
    const account = authorised(c);
    if (!account) return apiError(c, 401, "Authentication failed");
    const payment = paymentOf(c, account);
    if (!payment) return apiError(c, 400, "The id provided does not exist");
    return c.json({ entity: "collection", count: payment.refunds.length, items: payment.refunds });
  });

  app.post("/v1/payments/:id/refund", async (c) => {
    const account = authorised(c);
    if (!account) return apiError(c, 401, "Authentication failed");
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
    const payment = paymentOf(c, account);
    if (!payment) return apiError(c, 400, "The id provided does not exist");
    if (payment.entity.status !== "captured") return apiError(c, 400, "The payment has not been captured");
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

  /**
   * The account an API call is for, and whose secrets sign what it makes: a link or a token made
   * with an OAuth token is the partner's to be told about, signed with its secret.
   */
  const caller = (c: Context) => {
    const account = authorised(c);
    if (!account) return undefined;
    const partner = viaOAuth.has(c.req.raw) ? config.partner : null;
    return {
      account,
      signer: partner
        ? { keyId: account.keyId, keySecret: partner.clientSecret, webhookSecret: partner.webhookSecret }
        : account,
    };
  };

  mountSandboxPaymentLinks(app, {
    base: config.apiUrl,
    authorised: caller,
    capture: (signer, order, who) => {
      const id = sandboxId("pay");
      const entity = paymentEntity(order, id, "captured", who);
      payments.set(id, {
        id,
        keyId: signer.keyId,
        order_id: order.id,
        amount: order.amount,
        currency: order.currency,
        amount_refunded: 0,
        refunds: [],
        entity,
      });
      return entity;
    },
    announce: (signer, events) => scheduleWebhooks(send, log, signer, webhookDelayMs, events),
  });

  const recurring = mountSandboxRecurring(app, {
    authorised: caller,
    order: (keyId, id) => {
      const order = orders.get(id);
      return order && orderAccounts.get(order.id) === keyId ? order : undefined;
    },
    signerOf: (order) => orderSigner(order)!,
    checkout: (key, orderId) => {
      const order = orders.get(orderId);
      const account = checkoutAccount(key, order);
      return order && account ? { order, account } : undefined;
    },
    record: (keyId, order, status, who, extra) => {
      const id = sandboxId("pay");
      const entity: PaymentEntity = { ...paymentEntity(order, id, status, who), ...extra };
      payments.set(id, {
        id,
        keyId,
        order_id: order.id,
        amount: order.amount,
        currency: order.currency,
        amount_refunded: 0,
        refunds: [],
        entity,
      });
      return entity;
    },
    announce: (signer, events, delayMs = webhookDelayMs) => scheduleWebhooks(send, log, signer, delayMs, events),
    delayMs: webhookDelayMs,
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
    // Checkout opened for a mandate: `recurring: 1` and the order's customer.
    const mandate = { recurring: isOn(body?.recurring), customerId: String(body?.customer_id ?? "") };
    return { key, order, email, contact, mandate };
  };

  /**
   * The account Checkout was opened with: it must be the order's own, by its key id, or by its
   * public token for an order made by OAuth. Such an order's results and webhooks are signed with
   * the partner's secrets (the account has none of its own in that connection).
   */
  const checkoutAccount = (key: string, order: SandboxOrder | undefined): SandboxAccount | undefined => {
    if (!order) return undefined;
    const owner = accountFor(orderAccounts.get(order.id) ?? "");
    if (!owner) return undefined;
    if (oauthOrders.has(order.id))
      return config.partner && key === sandboxPublicToken(owner) ? orderSigner(order) : undefined;
    return key === owner.keyId ? owner : undefined;
  };

  /** Who signs an order's results and webhooks: its account, or the partner for an order made by OAuth. */
  function orderSigner(order: SandboxOrder): SandboxAccount | undefined {
    const owner = accountFor(orderAccounts.get(order.id) ?? "");
    if (!owner || !oauthOrders.has(order.id)) return owner;
    return config.partner
      ? { keyId: owner.keyId, keySecret: config.partner.clientSecret, webhookSecret: config.partner.webhookSecret }
      : undefined;
  }

  app.post("/checkout/pay", async (c) => {
    const { key, order, email, contact, mandate } = await readCheckout(c);
    if (!accountFor(key)) return apiError(c, 400, "The api key provided is invalid");
    const account = checkoutAccount(key, order);
    if (!order || !account) return apiError(c, 400, "This order does not exist or has expired");
    if (order.status === "paid") return apiError(c, 400, "This order has already been paid");
    if (order.token) return recurring.authorise(c, account, order, { ...mandate, email, contact });
    const paymentId = sandboxId("pay");
    order.attempts += 1;
    order.status = "paid";
    order.amount_paid = order.amount;
    order.amount_due = 0;
    const payment = paymentEntity(order, paymentId, "captured", { email, contact });
    payments.set(paymentId, {
      id: paymentId,
      keyId: account.keyId,
      order_id: order.id,
      amount: order.amount,
      currency: order.currency,
      amount_refunded: 0,
      refunds: [],
      entity: payment,
    });
    scheduleWebhooks(send, log, account, webhookDelayMs, [
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
      razorpay_signature: checkoutSignature(account.keySecret, order.id, paymentId),
    });
  });

  app.post("/checkout/fail", async (c) => {
    const { key, order, email, contact } = await readCheckout(c);
    if (!accountFor(key)) return apiError(c, 400, "The api key provided is invalid");
    const account = checkoutAccount(key, order);
    if (!order || !account) return apiError(c, 400, "This order does not exist or has expired");
    const paymentId = sandboxId("pay");
    order.attempts += 1;
    if (order.status === "created") order.status = "attempted";
    const description = "Payment failed because the sandbox was asked to fail it. No money was taken.";
    // A failed authorisation makes no token; its payment is still the mandate's method.
    const payment = {
      ...paymentEntity(order, paymentId, "failed", { email, contact }),
      ...(order.token ? { method: order.method, customer_id: order.customer_id, recurring: true } : {}),
      error_code: "BAD_REQUEST_ERROR",
      error_description: description,
      error_source: "customer",
      error_step: "payment_authorization",
      error_reason: "payment_failed",
    };
    scheduleWebhooks(send, log, account, webhookDelayMs, [
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

  // The sandbox's dashboard: a new test merchant account and its keys, to connect on Website Details.
  app.get("/accounts/new", (c) => {
    const account = newSandboxAccount();
    c.header("Cache-Control", "no-store");
    return c.html(accountPage(account));
  });

  app.all("*", (c) => apiError(c, 404, "The requested URL was not found on the sandbox"));
  return app;
}

/** Sends each event like Razorpay: signed raw body, a unique event id, retried a few times on failure. */
function scheduleWebhooks(
  send: WebhookDelivery,
  log: Logger,
  account: SandboxAccount,
  delayMs: number,
  events: { event: string; contains: string[]; payload: unknown }[],
) {
  const timer = setTimeout(async () => {
    for (const e of events) {
      const body = JSON.stringify({
        entity: "event",
        account_id: sandboxAccountId(account),
        event: e.event,
        contains: e.contains,
        payload: e.payload,
        created_at: Math.floor(Date.now() / 1000),
      });
      const headers = {
        "content-type": "application/json",
        "x-razorpay-signature": webhookSignature(account.webhookSecret, body),
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

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function accountPage(account: SandboxAccount): string {
  const row = (label: string, id: string, value: string) =>
    `<div class="row"><label for="${id}">${label}</label><input id="${id}" readonly value="${escapeHtml(value)}"></div>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox test account | Payment sandbox</title>
<style>body{font-family:system-ui,sans-serif;background:#f1f5f9;color:#0f172a;margin:0;padding:32px 16px}main{max-width:560px;margin:auto;background:#fff;border-radius:16px;padding:24px;box-shadow:0 10px 30px -15px rgba(0,0,0,.3)}h1{font-size:20px;margin:0 0 4px}.badge{display:inline-block;padding:2px 10px;border-radius:999px;background:#fef3c7;color:#92400e;font-size:13px;font-weight:600;border:1px solid #fcd34d}p{color:#475569;font-size:14px;line-height:1.5}.row{display:grid;gap:4px;margin:12px 0}label{font-size:13px;font-weight:600}input{font:14px ui-monospace,monospace;padding:8px;border:1px solid #cbd5e1;border-radius:8px}</style></head>
<body><main><span class="badge">Test mode \u2014 no real money</span><h1>A new sandbox merchant account</h1>
<p>The offline payment sandbox made this test account. Enter its keys on Website Details, under Payments, to sell on it; no card is ever charged.</p>
${row("Key id", "key-id", account.keyId)}${row("Key secret", "key-secret", account.keySecret)}${row("Webhook secret", "webhook-secret", account.webhookSecret)}
</main></body></html>`;
}
