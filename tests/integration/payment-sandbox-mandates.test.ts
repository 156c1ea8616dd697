import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookEvents } from "../../server/db/schema/index.ts";
import { createLogger } from "../../server/runtime/logger.ts";
import { Payments } from "../../server/payments/index.ts";
import { SANDBOX_PATH, SANDBOX_WEBHOOK_SECRET } from "../../server/payments/config.ts";
import { MandateEvents, type MandateEvent } from "../../server/payments/mandate-events.ts";
import { RazorpayGateway } from "../../server/payments/razorpay.ts";
import { sandboxRouter } from "../../server/payments/sandbox/router.ts";
import { webhookSignature } from "../../server/payments/signatures.ts";
import { INVALID_WEBHOOK_SIGNATURE } from "../../server/payments/webhooks.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createCenter, merchantOf } from "../helpers/centers.ts";
import { eventId } from "../helpers/payments.ts";

/**
 * Issue 42 §7: a recurring token's webhooks (token.confirmed, token.rejected, token.cancelled)
 * reach the one mandate handler registered, signed by the account the token was made on, once
 * whatever Razorpay repeats. The sandbox makes the tokens and sends the deliveries; they are fed
 * to the webhook entry point of a Payments over the test app's database with a registry of its
 * own (the app's is the fee mandate service's to register on), as Razorpay's retries would be.
 */

interface Delivery {
  event: string;
  body: string;
  headers: { signature: string; eventId: string };
  tokenId?: string;
}

let t: TestApp;
let payments: Payments;
let server: ReturnType<typeof createServer>;
let sandboxUrl: string;
const deliveries: Delivery[] = [];
/** The tokens the handler knows, and the merchant account each was made on. */
const ours = new Map<string, string | null>();
const applied: MandateEvent[] = [];
let failNext = false;

/** An institute's account, and a gateway on it that talks to this file's sandbox. */
async function institute() {
  const center = await createCenter(t, null);
  const keys = merchantOf(center.id);
  const gateway = new RazorpayGateway({ ...t.services.payments.config, ...keys, apiUrl: sandboxUrl });
  return { accountId: (center as { merchantAccountId: string }).merchantAccountId, keys, gateway };
}

beforeAll(async () => {
  t = await createTestApp();
  const logger = createLogger({ LOG_LEVEL: "silent", LOG_FORMAT: "json" });
  payments = new Payments({
    config: t.services.payments.config,
    gateway: t.services.payments.gateway,
    completion: t.services.payments.completion,
    merchants: t.services.payments.merchants,
    logger,
  });
  payments.mandates.register({
    accountOf: async (tokenId) => (ours.has(tokenId) ? ours.get(tokenId) : undefined),
    accountOfOrder: async () => undefined,
    apply: async (tx, event) => {
      if (!ours.has(event.tokenId)) return false;
      // Applied inside the delivery's transaction: a failure undoes the event's record too.
      await tx.execute(sql`select 1`);
      if (failNext) {
        failNext = false;
        throw new Error("the mandate handler failed");
      }
      applied.push(event);
      return true;
    },
  });

  const app = new Hono();
  server = createServer(getRequestListener((request) => app.fetch(request), { overrideGlobalObjects: false }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sandboxUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${SANDBOX_PATH}`;
  app.route(
    SANDBOX_PATH,
    sandboxRouter({
      config: { ...t.services.payments.config, apiUrl: sandboxUrl },
      logger,
      webhookDelayMs: 50,
      deliver: async (body, headers) => {
        const json = JSON.parse(body) as { event: string; payload: { token?: { entity: { id: string } } } };
        deliveries.push({
          event: json.event,
          body,
          headers: { signature: headers["x-razorpay-signature"], eventId: headers["x-razorpay-event-id"] },
          tokenId: json.payload.token?.entity.id,
        });
        return 200;
      },
    }),
  );
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await t?.close();
});

async function deliveryOf(event: string, tokenId: string): Promise<Delivery> {
  await expect
    .poll(() => deliveries.some((d) => d.event === event && d.tokenId === tokenId), { timeout: 5_000 })
    .toBe(true);
  return deliveries.find((d) => d.event === event && d.tokenId === tokenId)!;
}

/** A token authorised in the sandbox's Checkout on `account`'s gateway, known to the handler or not. */
async function authorised(
  account: Awaited<ReturnType<typeof institute>>,
  method: "upi" | "emandate",
  known = true,
): Promise<{ tokenId: string; customerId: string }> {
  const customer = await account.gateway.createCustomer({
    name: "Meera Iyer",
    email: `meera.${eventId()}@example.com`,
    contact: "+919876543210",
  });
  const order = await account.gateway.createMandateOrder({
    method,
    customerId: customer.id,
    amount: method === "upi" ? 100 : 0,
    maxAmount: 250_000,
    expireAt: new Date(Date.now() + 365 * 86_400_000),
    receipt: `mandate-${eventId()}`.slice(0, 40),
  });
  const res = await fetch(`${sandboxUrl}/checkout/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: account.keys.keyId, order_id: order.id, customer_id: customer.id, recurring: 1 }),
  });
  expect(res.status).toBe(200);
  const { razorpay_payment_id } = (await res.json()) as { razorpay_payment_id: string };
  const { tokenId } = await account.gateway.fetchPayment(razorpay_payment_id);
  if (known) ours.set(tokenId!, account.accountId);
  return { tokenId: tokenId!, customerId: customer.id };
}

const appliedTo = (tokenId: string) => applied.filter((e) => e.tokenId === tokenId);

describe("token webhooks", () => {
  it("wires a registry of its own into the app's payments, for the fee mandate service to register on", () => {
    expect(t.services.payments.mandates).toBeInstanceOf(MandateEvents);
    expect(t.services.payments.mandates).not.toBe(t.services.payments.links);
  });

  it("an e-mandate's token.confirmed reaches the handler once, though Razorpay delivers it twice", async () => {
    const account = await institute();
    const token = await authorised(account, "emandate");
    const confirmed = await deliveryOf("token.confirmed", token.tokenId);
    expect(await payments.webhook(confirmed.body, confirmed.headers)).toEqual({
      status: "processed",
      event: "token.confirmed",
    });
    expect(await payments.webhook(confirmed.body, confirmed.headers)).toEqual({
      status: "duplicate",
      event: "token.confirmed",
    });
    expect(appliedTo(token.tokenId)).toEqual([
      {
        event: "token.confirmed",
        tokenId: token.tokenId,
        failureReason: null,
      },
    ]);
    const [recorded] = await t.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, confirmed.headers.eventId));
    expect(recorded).toMatchObject({ event: "token.confirmed" });
    // The institute's own webhook URL names its account: the same delivery, retried there, is still one.
    expect(await payments.webhook(confirmed.body, confirmed.headers, account.accountId)).toMatchObject({
      status: "duplicate",
    });
  });

  it("the payer revoking a UPI mandate reaches the handler as token.cancelled, with the reason", async () => {
    const account = await institute();
    const token = await authorised(account, "upi");
    const revoked = await fetch(`${sandboxUrl}/tokens/${token.tokenId}/revoke`, { method: "POST" });
    expect(revoked.status).toBe(200);
    const cancelled = await deliveryOf("token.cancelled", token.tokenId);
    expect(await payments.webhook(cancelled.body, cancelled.headers, account.accountId)).toEqual({
      status: "processed",
      event: "token.cancelled",
    });
    expect(appliedTo(token.tokenId).filter((e) => e.event === "token.cancelled")).toEqual([
      {
        event: "token.cancelled",
        tokenId: token.tokenId,
        failureReason: "Mandate revoked by the customer",
      },
    ]);
  });

  it("refuses a delivery not signed by the token's own account, and applies nothing", async () => {
    const account = await institute();
    const token = await authorised(account, "upi");
    const confirmed = await deliveryOf("token.confirmed", token.tokenId);
    const before = appliedTo(token.tokenId).length;
    const forged = [
      // Signed with the platform's secret (the token is the institute's), and a body changed after signing.
      { body: confirmed.body, signature: webhookSignature(SANDBOX_WEBHOOK_SECRET, confirmed.body) },
      { body: confirmed.body.replace('"confirmed"', '"paused"'), signature: confirmed.headers.signature },
      { body: confirmed.body, signature: "" },
    ];
    for (const { body, signature } of forged)
      await expect(payments.webhook(body, { signature, eventId: eventId() })).rejects.toMatchObject({
        status: 400,
        message: INVALID_WEBHOOK_SIGNATURE,
      });
    expect(appliedTo(token.tokenId)).toHaveLength(before);
    // At the app's own endpoint, a token event signed with a secret of nobody's is refused too.
    const res = await t.request("/api/payment/webhook", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-razorpay-signature": webhookSignature("not-anyones-webhook-secret", confirmed.body),
        "x-razorpay-event-id": eventId(),
      },
      body: confirmed.body,
    });
    expect(res.status).toBe(400);
  });

  it("ignores a token of another account reported on an institute's URL, and a token nobody made here", async () => {
    const mine = await institute();
    const theirs = await institute();
    const token = await authorised(theirs, "upi");
    const confirmed = await deliveryOf("token.confirmed", token.tokenId);
    // Signed by the account whose token it is, but sent to another institute's URL.
    const resigned = { signature: webhookSignature(mine.keys.webhookSecret, confirmed.body), eventId: eventId() };
    expect(await payments.webhook(confirmed.body, resigned, mine.accountId)).toEqual({
      status: "ignored",
      event: "token.confirmed",
    });

    const stranger = await authorised(mine, "upi", false);
    const unknown = await deliveryOf("token.confirmed", stranger.tokenId);
    // Unknown to the handler, it is signed as the platform's deliveries are (no account claims it).
    const platformSigned = { signature: webhookSignature(SANDBOX_WEBHOOK_SECRET, unknown.body), eventId: eventId() };
    expect(await payments.webhook(unknown.body, platformSigned)).toEqual({
      status: "ignored",
      event: "token.confirmed",
    });
    const res = await t.request("/api/payment/webhook", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-razorpay-signature": platformSigned.signature,
        "x-razorpay-event-id": eventId(),
      },
      body: unknown.body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, status: "ignored" });
    expect(appliedTo(stranger.tokenId)).toEqual([]);
  });

  it("a handler that fails undoes the delivery's record: Razorpay's retry is applied, once", async () => {
    const account = await institute();
    const token = await authorised(account, "upi");
    const cancelledAt = await fetch(`${sandboxUrl}/tokens/${token.tokenId}/revoke`, { method: "POST" });
    expect(cancelledAt.status).toBe(200);
    const cancelled = await deliveryOf("token.cancelled", token.tokenId);
    failNext = true;
    await expect(payments.webhook(cancelled.body, cancelled.headers)).rejects.toThrow("the mandate handler failed");
    expect(
      await t.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, cancelled.headers.eventId)),
    ).toEqual([]);
    expect(await payments.webhook(cancelled.body, cancelled.headers)).toMatchObject({ status: "processed" });
    expect(await payments.webhook(cancelled.body, cancelled.headers)).toMatchObject({ status: "duplicate" });
    expect(appliedTo(token.tokenId).filter((e) => e.event === "token.cancelled")).toHaveLength(1);
  });
});
