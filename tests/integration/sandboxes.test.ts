import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { messages, orders } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { webhookSignature } from "../../server/payments/signatures.ts";
import { PAYMENTS_OFF } from "../../server/payments/index.ts";
import { SANDBOX_WEBHOOK_SECRET } from "../../server/payments/config.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createCenter } from "../helpers/centers.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { signCheckout } from "../helpers/payments.ts";

/**
 * Issue 37 §4: a sandbox runs only when switched on. A server started with no providers, no keys
 * and no switch (a live site set up in a hurry) shows no outbox to anyone and sells nothing.
 */
describe("a server with no providers, no keys and no sandbox switched on", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      MESSAGES_SANDBOX: "0",
      RAZORPAY_SANDBOX: "0",
      PLATFORM_DOMAIN: "pathshala.in",
      TRUST_PROXY: "1",
    });
    await seedDemo(t.database.db);
  });
  afterAll(() => t?.close());

  it("has no outbox on any host, whatever the Host or X-Forwarded-Host say, and sends nothing", async () => {
    const center = await createCenter(t, null, { customDomain: "open-academy.in" });
    for (const host of ["localhost", "127.0.0.1", "demo-t1.localhost", "pathshala.in", center.customDomain!])
      for (const path of ["/_sandbox/outbox", "/_sandbox/outbox.json"]) {
        const res = await t.request(path, { host, headers: { "x-forwarded-host": "localhost" } });
        expect(res.status, `${host}${path}`).toBe(404);
        expect(await res.json()).toMatchObject({ error: "Not found" });
      }
    // A message is recorded and skipped, never kept for a page.
    const account = await registerUser(t, "student");
    await expect
      .poll(async () => (await t.database.db.select().from(messages).where(eq(messages.recipient, account.email)))[0], {
        timeout: 10_000,
      })
      .toMatchObject({ status: "skipped", lastError: "No email provider is configured" });
  });

  it("sells nothing: orders are refused (503) and nothing a sandbox would sign is accepted", async () => {
    for (const path of ["/_sandbox/razorpay/checkout.js", "/_sandbox/razorpay/v1/orders"])
      expect((await t.request(path, { method: path.endsWith(".js") ? "GET" : "POST" })).status).toBe(404);
    expect(await (await t.request("/api/payment/config")).json()).toEqual({
      key_id: "",
      checkout_script: "",
      sandbox: false,
    });
    const owner = await registerUser(t, "business");
    const order = await postJson(
      t,
      "/api/payment/create-order",
      {
        institute: "Hasty Academy",
        owner: "Owner",
        email: "o@example.com",
        plan: "1 Year Plan",
        billing: "monthly",
        domain: "hasty-academy.in",
      },
      { headers: bearer(owner.access_token) },
    );
    expect(order.status).toBe(503);
    expect((await order.json()).error).toBe(PAYMENTS_OFF);
    expect(await t.database.db.select().from(orders).where(eq(orders.buyerId, owner.user._id))).toHaveLength(0);

    const signed = await postJson(t, "/api/payment/verify", {
      razorpay_order_id: "order_A",
      razorpay_payment_id: "pay_A",
      razorpay_signature: signCheckout("order_A", "pay_A"),
    });
    expect(signed.status).toBe(422);
    const body = JSON.stringify({ event: "payment.captured", payload: {} });
    const webhook = await t.request("/api/payment/webhook", {
      method: "POST",
      headers: { "x-razorpay-signature": webhookSignature(SANDBOX_WEBHOOK_SECRET, body) },
      body,
    });
    expect(webhook.status).toBe(400);
  });
});
