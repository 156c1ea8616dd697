import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { orders } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { webhookSignature } from "../../server/payments/signatures.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { createListeningTestApp, signCheckout } from "../helpers/payments.ts";

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

describe("with real Razorpay keys", () => {
  it("does not mount the sandbox at all and hands out Razorpay's own Checkout", async () => {
    const t = await createTestApp({
      RAZORPAY_KEY_ID: "rzp_live_pathshala",
      RAZORPAY_KEY_SECRET: "live-secret",
      RAZORPAY_WEBHOOK_SECRET: "live-webhook",
      RAZORPAY_SANDBOX: "0",
    });
    apps.push(t);
    for (const path of [
      "/_sandbox/razorpay/checkout.js",
      "/_sandbox/razorpay/v1/orders",
      "/_sandbox/razorpay/checkout/pay",
    ]) {
      const res = await t.request(path, { method: path.endsWith(".js") ? "GET" : "POST" });
      expect(res.status).toBe(404);
    }
    expect(await (await t.request("/api/payment/config")).json()).toEqual({
      key_id: "rzp_live_pathshala",
      checkout_script: "https://checkout.razorpay.com/v1/checkout.js",
      sandbox: false,
    });
    // Signatures are checked with the configured secrets, not the sandbox's.
    const sandboxSigned = await postJson(t, "/api/payment/verify", {
      razorpay_order_id: "order_A",
      razorpay_payment_id: "pay_A",
      razorpay_signature: signCheckout("order_A", "pay_A"),
    });
    expect((await sandboxSigned.json()).error).toBe("The payment signature is not valid.");
    const liveSigned = await postJson(t, "/api/payment/verify", {
      razorpay_order_id: "order_A",
      razorpay_payment_id: "pay_A",
      razorpay_signature: signCheckout("order_A", "pay_A", "live-secret"),
    });
    expect((await liveSigned.json()).error).toBe("We could not find this order.");
  });
});

describe("RAZORPAY_SANDBOX=1 with keys", () => {
  it("runs the sandbox signing payments and webhooks with the configured secrets", async () => {
    const t = await createListeningTestApp({
      RAZORPAY_KEY_ID: "rzp_test_custom",
      RAZORPAY_KEY_SECRET: "custom-key-secret",
      RAZORPAY_WEBHOOK_SECRET: "custom-webhook-secret",
      RAZORPAY_SANDBOX: "1",
    });
    apps.push(t);
    await seedDemo(t.database.db);
    const owner = await registerUser(t, "business");
    const res = await postJson(
      t,
      "/api/payment/create-order",
      {
        institute: "Custom Keys Academy",
        owner: "Owner",
        email: "o@example.com",
        plan: "1 Year Plan",
        billing: "monthly",
        domain: "custom-keys.example.com",
      },
      { headers: bearer(owner.access_token) },
    );
    expect(res.status).toBe(200);
    const { order } = await res.json();
    const paid = await (
      await fetch(`${t.baseUrl}/_sandbox/razorpay/checkout/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key: "rzp_test_custom", order_id: order.id }),
      })
    ).json();
    expect(paid.razorpay_signature).toBe(signCheckout(order.id, paid.razorpay_payment_id, "custom-key-secret"));
    // The sandbox's webhooks are signed with the custom webhook secret, so the app accepts them.
    await expect
      .poll(
        async () => (await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, order.id)))[0].status,
        { timeout: 10_000 },
      )
      .toBe("paid");
    // And a webhook signed with the development secret is refused.
    const body = JSON.stringify({ event: "payment.captured", payload: {} });
    const refused = await t.request("/api/payment/webhook", {
      method: "POST",
      headers: { "x-razorpay-signature": webhookSignature("pathshala-sandbox-webhook-secret", body) },
      body,
    });
    expect(refused.status).toBe(400);
  });
});
