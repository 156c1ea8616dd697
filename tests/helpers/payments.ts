import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { createTestApp, type TestApp } from "./app.ts";
import { postJson } from "./http.ts";
import { createOrPromoteAdmin } from "../../server/services/admins.ts";
import { SANDBOX_KEY_SECRET, SANDBOX_WEBHOOK_SECRET } from "../../server/payments/config.ts";
import { checkoutSignature, webhookSignature } from "../../server/payments/signatures.ts";
import { eq } from "drizzle-orm";
import { merchantAccounts } from "../../server/db/schema/index.ts";
import { sandboxAccount } from "../../server/payments/sandbox/accounts.ts";
import type { CreateGatewayRefund, GatewayRefund } from "../../server/payments/gateway.ts";

export interface ListeningTestApp extends TestApp {
  port: number;
  baseUrl: string;
}

/**
 * The test app listening on a real port, so that the Razorpay SDK reaches the payment sandbox
 * over HTTP and the sandbox's webhooks reach the app, exactly as in a running server.
 */
export async function createListeningTestApp(
  env: Record<string, string> = {},
  options: Parameters<typeof createTestApp>[1] = {},
): Promise<ListeningTestApp> {
  let handler: (request: Request) => Response | Promise<Response> = () => new Response("starting", { status: 503 });
  // As in production (react-router-hono-server): the node server's own request objects, globals untouched.
  const server = createServer(getRequestListener((request) => handler(request), { overrideGlobalObjects: false }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const t = await createTestApp({ PORT: String(port), HOST: "127.0.0.1", ...env }, options);
  handler = (request) => t.app.fetch(request);
  const closeApp = t.close.bind(t);
  return Object.assign(t, {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeApp();
    },
  });
}

/** An admin's bearer token. */
export async function adminToken(
  t: TestApp,
  email = `admin.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 6)}@example.com`,
): Promise<string> {
  const password = "admin-password-long-enough";
  await createOrPromoteAdmin(t.database.db, { email, password, name: "Test Admin" });
  const res = await postJson(t, "/api/auth/login", { email, password, role: "admin" });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The signature Checkout hands the browser, made with the sandbox's development key secret. */
export function signCheckout(orderId: string, paymentId: string, secret = SANDBOX_KEY_SECRET): string {
  return checkoutSignature(secret, orderId, paymentId);
}

/**
 * The secrets of the account an order was placed on: an institute's sandbox account for its
 * students' orders (decision 0040), the platform's for plans and for platform creators' content.
 */
export async function orderSecrets(
  t: TestApp,
  orderId: string,
): Promise<{ keyId: string; keySecret: string; webhookSecret: string }> {
  const accountId = await t.services.payments.completion.accountOf(orderId);
  if (!accountId)
    return {
      keyId: t.services.payments.gateway.keyId,
      keySecret: SANDBOX_KEY_SECRET,
      webhookSecret: SANDBOX_WEBHOOK_SECRET,
    };
  const [row] = await t.database.db
    .select({ keyId: merchantAccounts.keyId })
    .from(merchantAccounts)
    .where(eq(merchantAccounts.id, accountId));
  return sandboxAccount(row.keyId)!;
}

/** The Checkout signature of a payment of an order, with the key secret of the account it was placed on. */
export async function signOrder(t: TestApp, orderId: string, paymentId: string): Promise<string> {
  return checkoutSignature((await orderSecrets(t, orderId)).keySecret, orderId, paymentId);
}

let events = 0;
export function eventId(): string {
  events += 1;
  return `evt_test${Date.now().toString(36)}${events}`;
}

/** A Razorpay webhook delivery (raw body and headers) signed with the sandbox's webhook secret. */
export function webhook(
  event: "payment.captured" | "order.paid" | "payment.failed",
  p: { orderId: string; paymentId: string; amount: number; currency?: string },
  options: { id?: string; secret?: string; accountId?: string } = {},
) {
  const payment = {
    id: p.paymentId,
    entity: "payment",
    amount: p.amount,
    currency: p.currency ?? "INR",
    status: event === "payment.failed" ? "failed" : "captured",
    order_id: p.orderId,
    error_description: event === "payment.failed" ? "Card declined" : null,
  };
  const payload: Record<string, unknown> = { payment: { entity: payment } };
  if (event === "order.paid")
    payload.order = {
      entity: { id: p.orderId, entity: "order", amount: p.amount, amount_paid: p.amount, status: "paid" },
    };
  const body = JSON.stringify({
    entity: "event",
    account_id: options.accountId ?? "acc_test",
    event,
    contains: Object.keys(payload),
    payload,
    created_at: Math.floor(Date.now() / 1000),
  });
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-razorpay-signature": webhookSignature(options.secret ?? SANDBOX_WEBHOOK_SECRET, body),
      "x-razorpay-event-id": options.id ?? eventId(),
    },
  };
}

/**
 * The partner webhook's `account.app.authorization_revoked` about a Razorpay account (`acc_…`),
 * signed with `secret` (the partner webhook's, for a genuine one).
 */
export function revocationWebhook(accountId: string, secret: string, options: { id?: string } = {}) {
  const body = JSON.stringify({
    entity: "event",
    account_id: accountId,
    event: "account.app.authorization_revoked",
    contains: [],
    payload: {},
    created_at: Math.floor(Date.now() / 1000),
  });
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-razorpay-signature": webhookSignature(secret, body),
      "x-razorpay-event-id": options.id ?? eventId(),
    },
  };
}

export function sendWebhook(t: TestApp, delivery: { body: string; headers: Record<string, string> }) {
  return t.request("/api/payment/webhook", { method: "POST", headers: delivery.headers, body: delivery.body });
}

/**
 * Pays a placed order the way the browser does: the sandbox's Checkout "bank" takes the payment
 * (so the sandbox knows it, e.g. for a refund), then the app verifies it.
 */
export async function payThroughSandbox(t: TestApp, orderId: string) {
  const paid = await fetch(`http://127.0.0.1:${t.env.PORT}/_sandbox/razorpay/checkout/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: (await orderSecrets(t, orderId)).keyId, order_id: orderId }),
  });
  if (paid.status !== 200) throw new Error(`sandbox payment failed: ${paid.status} ${await paid.text()}`);
  const checkout = (await paid.json()) as {
    razorpay_order_id: string;
    razorpay_payment_id: string;
    razorpay_signature: string;
  };
  const verified = await postJson(t, "/api/payment/verify", checkout);
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${await verified.text()}`);
  return { paymentId: checkout.razorpay_payment_id, body: await verified.json() };
}

/**
 * Puts `around` between the app and every gateway's refund call (`call` makes the real one) until
 * the returned function is called: a gateway that refuses, is slow, or answers a process that died.
 */
export function aroundGatewayRefunds(
  t: TestApp,
  around: (call: () => Promise<GatewayRefund>, input: CreateGatewayRefund) => Promise<GatewayRefund>,
) {
  const payments = t.services.payments;
  const gatewayOf = payments.gatewayOf.bind(payments);
  payments.gatewayOf = async (accountId) => {
    const gateway = await gatewayOf(accountId);
    return Object.assign(Object.create(gateway) as typeof gateway, {
      refund: (input: CreateGatewayRefund) => around(() => gateway.refund(input), input),
    });
  };
  return () => {
    delete (payments as { gatewayOf?: unknown }).gatewayOf;
  };
}
