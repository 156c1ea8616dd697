import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { centers, messages, orders, planOrders, pricingPlans, webhookEvents } from "../../server/db/schema/index.ts";
import { planOrderRows } from "../helpers/orders.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { SANDBOX_KEY_ID, SANDBOX_KEY_SECRET } from "../../server/payments/config.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { centersNamed, proveCenterDomain } from "../helpers/domains.ts";
import {
  createListeningTestApp,
  eventId,
  sendWebhook,
  signCheckout,
  webhook,
  type ListeningTestApp,
} from "../helpers/payments.ts";

let t: ListeningTestApp;
let owner: Awaited<ReturnType<typeof registerUser>>;
let auth: Record<string, string>;

beforeAll(async () => {
  t = await createListeningTestApp();
  await seedDemo(t.database.db);
  owner = await registerUser(t, "business", { name: "Asha Rao" });
  auth = bearer(owner.access_token);
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
let domains = 0;
const newDomain = () => `academy-${Date.now().toString(36)}-${++domains}.example.com`;

function orderBody(overrides: Record<string, unknown> = {}) {
  return {
    amount: 500_000,
    currency: "INR",
    institute: "Sunrise Coaching",
    owner: "Asha Rao",
    email: "asha@example.com",
    phone: "+91 98765 43210",
    plan: "1 Year Plan",
    billing: "monthly",
    durationDays: 30,
    domain: newDomain(),
    ...overrides,
  };
}

async function createOrder(overrides: Record<string, unknown> = {}, headers = auth) {
  const res = await postJson(t, "/api/payment/create-order", orderBody(overrides), { headers });
  const body = await res.json();
  return { res, body, status: res.status };
}

async function placed(overrides: Record<string, unknown> = {}, headers = auth) {
  const { body, status } = await createOrder(overrides, headers);
  if (status !== 200) throw new Error(`create-order failed: ${status} ${JSON.stringify(body)}`);
  return body as { order: { id: string; amount: number; currency: string }; purchase: { _id: string; domain: string } };
}

const verify = (orderId: string, paymentId: string, signature = signCheckout(orderId, paymentId)) =>
  postJson(t, "/api/payment/verify", {
    razorpay_order_id: orderId,
    razorpay_payment_id: paymentId,
    razorpay_signature: signature,
  });

const purchaseOf = async (orderId: string) =>
  (await planOrderRows(t.database.db).where(eq(orders.gatewayOrderId, orderId)))[0];
/** The center a purchase made for `domain` (it asks for the domain until its owner proves it). */
const centersOn = (domain: string) => centersNamed(t, domain);
const count = async (table: typeof centers | typeof orders) =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;

let payments = 0;
const paymentId = () => `pay_test${Date.now().toString(36)}${++payments}`;

describe("GET /api/payment/config", () => {
  it("gives the public key and the sandbox's Checkout script, never a secret", async () => {
    const res = await t.request("/api/payment/config");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ key_id: SANDBOX_KEY_ID, checkout_script: "/_sandbox/razorpay/checkout.js", sandbox: true });
    expect(JSON.stringify(body)).not.toContain(SANDBOX_KEY_SECRET);
  });
});

describe("POST /api/payment/create-order", () => {
  it("needs a business session or bearer token: 401 without, 403 for other roles", async () => {
    const before = await count(orders);
    expect((await createOrder({}, {})).status).toBe(401);
    expect((await createOrder({}, bearer((await registerUser(t, "student")).access_token))).status).toBe(403);
    expect((await createOrder({}, bearer((await registerUser(t, "creator")).access_token))).status).toBe(403);
    expect(await count(orders)).toBe(before);
  });

  it("prices the order from the stored plan, whatever amount the client sends", async () => {
    const domain = newDomain();
    // ₹1 asked for a ₹5,000 plan.
    const { status, body } = await createOrder({ amount: 100, durationDays: 3650, currency: "USD", domain });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.order).toMatchObject({ amount: 500_000, currency: "INR" });
    expect(body.order.id).toMatch(/^order_[A-Za-z0-9]{14}$/);
    expect(body.key_id).toBe(SANDBOX_KEY_ID);
    const row = await purchaseOf(body.order.id);
    expect(row).toMatchObject({
      amount: 500_000,
      currency: "INR",
      durationDays: 30,
      billing: "monthly",
      planName: "1 Year Plan",
      status: "created",
      domain,
      buyerId: owner.user._id,
      instituteName: "Sunrise Coaching",
      ownerName: "Asha Rao",
      email: "asha@example.com",
      phone: "+91 98765 43210",
    });
    // The gateway holds the same amount, with our purchase id as the receipt.
    const basic = `Basic ${Buffer.from(`${SANDBOX_KEY_ID}:${SANDBOX_KEY_SECRET}`).toString("base64")}`;
    const gatewayOrder = await (
      await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/orders/${body.order.id}`, { headers: { authorization: basic } })
    ).json();
    expect(gatewayOrder).toMatchObject({
      id: body.order.id,
      amount: 500_000,
      currency: "INR",
      receipt: row.id,
      status: "created",
    });
  });

  it("uses price × 100 paise and 30 / 90 / 365 days for monthly / quarterly / yearly", async () => {
    for (const [billing, amount, days] of [
      ["monthly", 700_000, 30],
      ["quarterly", 2_000_000, 90],
      ["yearly", 7_000_000, 365],
    ] as const) {
      const { body } = await createOrder({ plan: "3 Year Plan", billing, amount: 1 });
      expect(body.order.amount).toBe(amount);
      expect((await purchaseOf(body.order.id)).durationDays).toBe(days);
    }
  });

  it("finds the plan by name in any case, or by id", async () => {
    const [plan] = await t.database.db.select().from(pricingPlans).where(eq(pricingPlans.name, "5 Year Plan"));
    expect((await createOrder({ plan: "5 year plan" })).body.order.amount).toBe(1_000_000);
    expect((await createOrder({ plan: plan.id, billing: "yearly" })).body.order.amount).toBe(10_000_000);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["no institute", { institute: "  " }, "Institute/Brand name is required"],
    ["no domain", { domain: "" }, "Domain name is required"],
    [
      "a domain that is not a host name",
      { domain: "my academy" },
      "Please enter a valid domain (e.g., yourinstitute.com)",
    ],
    ["a domain without a dot", { domain: "academy" }, "Please enter a valid domain (e.g., yourinstitute.com)"],
    [
      "a domain with a numeric ending",
      { domain: "academy.123" },
      "Please enter a valid domain (e.g., yourinstitute.com)",
    ],
    ["no owner", { owner: "" }, "Owner/Director full name is required"],
    ["no email", { email: "" }, "Email is required"],
    ["a bad email", { email: "asha@" }, "Please enter a valid email address"],
    ["a bad phone", { phone: "12ab" }, "Please enter a valid phone number"],
    ["a two-digit phone", { phone: "12" }, "Please enter a valid phone number"],
    ["a phone in letters", { phone: "abc" }, "Please enter a valid phone number"],
    ["no plan", { plan: "" }, "Plan is required"],
    [
      "an unknown plan",
      { plan: "Professional" },
      "This plan is not available. Please choose a plan on the pricing page.",
    ],
    ["an unknown billing", { billing: "weekly" }, "Billing must be monthly, quarterly or yearly"],
    ["a bare host name", { domain: "localhost" }, "Please enter a valid domain (e.g., yourinstitute.com)"],
  ];

  it.each(invalid)("refuses %s with 400 and places no order", async (_what, overrides, message) => {
    const before = await count(orders);
    const { status, body } = await createOrder(overrides);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: message });
    expect(await count(orders)).toBe(before);
  });

  it("refuses addresses of the platform itself", async () => {
    for (const domain of ["demo-t1.localhost", "anything.localhost"]) {
      const { status, body } = await createOrder({ domain });
      expect(status).toBe(400);
      expect(body.error).toBe("This address belongs to Pathshala. Please enter your institute's own domain.");
    }
  });

  it("refuses a plan whose price for that billing is zero", async () => {
    await t.database.db
      .insert(pricingPlans)
      .values({ name: "Free Trial", monthlyPrice: 0, quarterlyPrice: 0, yearlyPrice: 100_000, sortOrder: 9 });
    await t.services.plans.changed();
    const { status, body } = await createOrder({ plan: "Free Trial", billing: "monthly" });
    expect(status).toBe(400);
    expect(body.error).toBe("The Free Trial plan is not sold with monthly billing.");
    expect((await createOrder({ plan: "Free Trial", billing: "yearly" })).body.order.amount).toBe(100_000);
  });

  it("refuses an inactive plan", async () => {
    await t.database.db.insert(pricingPlans).values({
      name: "Retired",
      monthlyPrice: 100_000,
      quarterlyPrice: 100_000,
      yearlyPrice: 100_000,
      isActive: false,
    });
    await t.services.plans.changed();
    expect((await createOrder({ plan: "Retired" })).body.error).toBe(
      "This plan is not available. Please choose a plan on the pricing page.",
    );
  });

  it("answers 409 when the domain belongs to another owner's center; the owner's own domain is a renewal", async () => {
    const other = await registerUser(t, "business");
    const domain = newDomain();
    await t.database.db
      .insert(centers)
      .values({ slug: `other-${domains}`, instituteName: "Other", customDomain: domain, ownerId: other.user._id });
    const before = await count(orders);
    const { status, body } = await createOrder({ domain: `  HTTPS://${domain.toUpperCase()}/home ` });
    expect(status).toBe(409);
    expect(body.error).toBe("This domain is already used by another institute.");
    expect(await count(orders)).toBe(before);
    expect((await createOrder({ domain }, bearer(other.access_token))).status).toBe(200);
  });

  it("normalises the domain it stores", async () => {
    const domain = newDomain();
    const { body } = await createOrder({ domain: ` https://${domain.toUpperCase()}./courses ` });
    expect((await purchaseOf(body.order.id)).domain).toBe(domain);
  });

  it("refuses malformed JSON with 400", async () => {
    const res = await postJson(t, "/api/payment/create-order", "{", { headers: auth });
    expect(res.status).toBe(400);
  });
});

describe("POST /api/payment/verify", () => {
  it("completes a genuine payment: purchase paid, center created for the signed-in owner, site served on the domain once proven", async () => {
    const domain = newDomain();
    // The host is unknown before the purchase (and that answer is cached).
    expect((await t.request("/", { host: domain })).status).toBe(404);
    const { order, purchase } = await placed({
      domain,
      billing: "quarterly",
      plan: "3 Year Plan",
      institute: "Vidya Classes",
    });
    const pay = paymentId();
    const startedAt = Date.now();
    const res = await verify(order.id, pay);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      kind: "plan",
      alreadyCompleted: false,
      purchase: { _id: purchase._id, status: "paid", amount: 2_000_000, plan: "3 Year Plan" },
      center: { domain: null, pendingDomain: domain, instituteName: "Vidya Classes", status: "active" },
    });

    const row = await purchaseOf(order.id);
    expect(row).toMatchObject({ status: "paid", gatewayPaymentId: pay });
    expect(row.paidAt).toBeInstanceOf(Date);
    const [center] = await centersOn(domain);
    expect(center).toMatchObject({
      id: row.centerId,
      instituteName: "Vidya Classes",
      ownerId: owner.user._id,
      planName: "3 Year Plan",
      billing: "quarterly",
      status: "active",
      website: `https://${domain}`,
      slug: expect.stringMatching(/^vidya-classes/),
    });
    expect(Math.abs(center.startsAt.getTime() - startedAt)).toBeLessThan(60_000);
    expect(Math.abs(center.expiresAt!.getTime() - (center.startsAt.getTime() + 90 * DAY))).toBeLessThan(60_000);

    // The site's contact details are the owner's from the wizard; no sample address or phone.
    expect(center.siteProfile).toEqual({ contactEmail: "asha@example.com", phone: "+91 98765 43210" });
    // Paying proves nothing: the domain serves the site once its owner proves it.
    expect(center.customDomain).toBeNull();
    expect((await t.request("/", { host: domain })).status).toBe(404);
    expect((await t.request("/", { host: body.center.workingHost })).status).toBe(200);
    await proveCenterDomain(t, center.id);
    const site = await t.request("/", { host: domain });
    expect(site.status).toBe(200);
    const html = await site.text();
    expect(html).toContain("Vidya Classes");
    expect(html).toContain("asha@example.com");
    expect(html).toContain("+91 98765 43210");
    expect(html).not.toContain("Park Street");
    expect(html).not.toContain("98300 12345");
    expect(html).not.toContain(`info@${domain}`);

    // The owner's receipt, from Pathshala (the plan's seller).
    const receipts = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, owner.user._id), eq(messages.template, "payment-receipt")));
    const receipt = receipts.find((m) => m.text.includes(domain))!;
    expect(receipt.subject).toBe("Your Pathshala receipt for ₹20,000");
    expect(receipt.text).toContain(`3 Year Plan, billed quarterly, for ${domain}`);
    expect(receipt.text).toContain(`Payment ID: ${pay}`);
  });

  it("refuses a forged signature with 422 and completes nothing", async () => {
    const { order } = await placed();
    const pay = paymentId();
    for (const signature of [
      signCheckout(order.id, pay, "not-the-secret"),
      signCheckout(order.id, "pay_other"),
      "0".repeat(64),
      "short",
    ]) {
      const res = await verify(order.id, pay, signature);
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ success: false, error: "The payment signature is not valid." });
    }
    expect((await purchaseOf(order.id)).status).toBe("created");
    expect(await centersOn((await purchaseOf(order.id)).domain)).toHaveLength(0);
  });

  it("answers a replayed verification with success and no second effect", async () => {
    const { order } = await placed();
    const pay = paymentId();
    expect((await verify(order.id, pay)).status).toBe(200);
    const [first] = await centersOn((await purchaseOf(order.id)).domain);
    const centersBefore = await count(centers);
    const again = await verify(order.id, pay);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ success: true, alreadyCompleted: true });
    expect(await count(centers)).toBe(centersBefore);
    const [after] = await centersOn((await purchaseOf(order.id)).domain);
    expect(after.expiresAt).toEqual(first.expiresAt);
  });

  it("refuses an order we never created with 422, even with a valid signature", async () => {
    const res = await verify("order_NotOursAtAll01", "pay_whatever");
    expect(res.status).toBe(422);
    expect((await res.json()).error).toBe("We could not find this order.");
  });

  it("refuses missing fields with 400", async () => {
    const res = await postJson(t, "/api/payment/verify", { razorpay_order_id: "order_x" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("razorpay_payment_id is required");
  });

  it("renews: a second purchase for the owner's domain extends the same center from its current expiry", async () => {
    const domain = newDomain();
    const first = await placed({ domain });
    await verify(first.order.id, paymentId());
    const [before] = await centersOn(domain);
    const second = await placed({ domain, billing: "yearly", plan: "5 Year Plan" });
    await verify(second.order.id, paymentId());
    const after = await centersOn(domain);
    expect(after).toHaveLength(1);
    expect(after[0].id).toBe(before.id);
    expect(after[0].expiresAt!.getTime()).toBe(before.expiresAt!.getTime() + 365 * DAY);
    expect(after[0]).toMatchObject({ planName: "5 Year Plan", billing: "yearly" });
    expect((await purchaseOf(second.order.id)).centerId).toBe(before.id);
  });

  it("renews an expired center from now", async () => {
    const domain = newDomain();
    const first = await placed({ domain });
    await verify(first.order.id, paymentId());
    const [made] = await centersOn(domain);
    await t.database.db
      .update(centers)
      .set({ expiresAt: new Date(Date.now() - 10 * DAY) })
      .where(eq(centers.id, made.id));
    const second = await placed({ domain });
    await verify(second.order.id, paymentId());
    const [center] = await centersOn(domain);
    expect(Math.abs(center.expiresAt!.getTime() - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
  });

  it("still gives the buyer a site when the domain was taken between order and payment", async () => {
    const domain = newDomain();
    const { order } = await placed({ domain, institute: "Late Comer" });
    const other = await registerUser(t, "business");
    await t.database.db.insert(centers).values({
      slug: `squatter-${domains}`,
      instituteName: "Squatter",
      customDomain: domain,
      ownerId: other.user._id,
    });
    expect((await verify(order.id, paymentId())).status).toBe(200);
    const row = await purchaseOf(order.id);
    expect(row.status).toBe("paid");
    const [center] = await t.database.db.select().from(centers).where(eq(centers.id, row.centerId!));
    expect(center).toMatchObject({ ownerId: owner.user._id, customDomain: null, instituteName: "Late Comer" });
  });
});

describe("POST /api/payment/webhook", () => {
  it("completes the purchase on payment.captured", async () => {
    const { order } = await placed();
    const res = await sendWebhook(
      t,
      webhook("payment.captured", { orderId: order.id, paymentId: paymentId(), amount: order.amount }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, status: "processed", result: "completed" });
    expect((await purchaseOf(order.id)).status).toBe("paid");
    expect(await centersOn((await purchaseOf(order.id)).domain)).toHaveLength(1);
  });

  it("completes the purchase on order.paid", async () => {
    const { order } = await placed();
    const res = await sendWebhook(
      t,
      webhook("order.paid", { orderId: order.id, paymentId: paymentId(), amount: order.amount }),
    );
    expect(await res.json()).toMatchObject({ result: "completed" });
    expect((await purchaseOf(order.id)).status).toBe("paid");
  });

  it("refuses a bad signature with 400 and records nothing", async () => {
    const { order } = await placed();
    const delivery = webhook(
      "payment.captured",
      { orderId: order.id, paymentId: paymentId(), amount: order.amount },
      { secret: "wrong-secret" },
    );
    const res = await sendWebhook(t, delivery);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("Invalid webhook signature");
    const unsigned = await t.request("/api/payment/webhook", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: delivery.body,
    });
    expect(unsigned.status).toBe(400);
    // A body changed after signing fails too.
    const good = webhook("payment.captured", { orderId: order.id, paymentId: paymentId(), amount: order.amount });
    const tampered = await sendWebhook(t, { ...good, body: good.body.replace(String(order.amount), "100") });
    expect(tampered.status).toBe(400);
    expect((await purchaseOf(order.id)).status).toBe("created");
    expect(
      await t.database.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.id, delivery.headers["x-razorpay-event-id"])),
    ).toEqual([]);
  });

  it("ignores a repeated x-razorpay-event-id", async () => {
    const { order } = await placed();
    const id = eventId();
    const first = await sendWebhook(
      t,
      webhook("payment.failed", { orderId: order.id, paymentId: paymentId(), amount: order.amount }, { id }),
    );
    expect(await first.json()).toMatchObject({ status: "processed" });
    expect((await purchaseOf(order.id)).status).toBe("failed");
    // Same event id, even with another (signed) body: ignored.
    const again = await sendWebhook(
      t,
      webhook("payment.captured", { orderId: order.id, paymentId: paymentId(), amount: order.amount }, { id }),
    );
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: "duplicate" });
    expect((await purchaseOf(order.id)).status).toBe("failed");
  });

  it("a failed attempt leaves the order payable; a later capture completes it", async () => {
    const { order } = await placed();
    await sendWebhook(
      t,
      webhook("payment.failed", { orderId: order.id, paymentId: paymentId(), amount: order.amount }),
    );
    expect((await purchaseOf(order.id)).status).toBe("failed");
    await sendWebhook(
      t,
      webhook("payment.captured", { orderId: order.id, paymentId: paymentId(), amount: order.amount }),
    );
    expect((await purchaseOf(order.id)).status).toBe("paid");
  });

  it("webhook before verify: the webhook completes, the later verify answers success without a second effect", async () => {
    const { order } = await placed();
    const pay = paymentId();
    await sendWebhook(t, webhook("payment.captured", { orderId: order.id, paymentId: pay, amount: order.amount }));
    const centersBefore = await count(centers);
    const res = await verify(order.id, pay);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, alreadyCompleted: true, purchase: { status: "paid" } });
    expect(await count(centers)).toBe(centersBefore);
  });

  it("verify before webhook: the later webhooks change nothing", async () => {
    const { order } = await placed();
    const pay = paymentId();
    await verify(order.id, pay);
    const row = await purchaseOf(order.id);
    const centersBefore = await count(centers);
    for (const event of ["payment.captured", "order.paid"] as const) {
      const res = await sendWebhook(t, webhook(event, { orderId: order.id, paymentId: pay, amount: order.amount }));
      expect(await res.json()).toMatchObject({ status: "processed", result: "already-paid" });
    }
    expect(await count(centers)).toBe(centersBefore);
    expect(await purchaseOf(order.id)).toEqual(row);
  });

  it("never completes a payment of another amount (₹1 for a ₹5,000 plan)", async () => {
    const { order } = await placed();
    const res = await sendWebhook(
      t,
      webhook("payment.captured", { orderId: order.id, paymentId: paymentId(), amount: 100 }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: "amount-mismatch" });
    expect((await purchaseOf(order.id)).status).toBe("created");
    const wrongCurrency = await sendWebhook(
      t,
      webhook("payment.captured", { orderId: order.id, paymentId: paymentId(), amount: order.amount, currency: "USD" }),
    );
    expect(await wrongCurrency.json()).toMatchObject({ result: "amount-mismatch" });
    expect(await centersOn((await purchaseOf(order.id)).domain)).toHaveLength(0);
  });

  it("acknowledges events for unknown orders and events it does not handle", async () => {
    const unknown = await sendWebhook(
      t,
      webhook("payment.captured", { orderId: "order_SomebodyElse1", paymentId: paymentId(), amount: 100 }),
    );
    expect(await unknown.json()).toMatchObject({ status: "processed", result: "unknown-order" });
    const body = JSON.stringify({ entity: "event", event: "refund.created", payload: {} });
    const other = webhook("payment.captured", { orderId: "x", paymentId: "y", amount: 1 });
    const { webhookSignature } = await import("../../server/payments/signatures.ts");
    const res = await sendWebhook(t, {
      body,
      headers: { ...other.headers, "x-razorpay-signature": webhookSignature("pathshala-sandbox-webhook-secret", body) },
    });
    expect(await res.json()).toMatchObject({ status: "ignored" });
  });

  it("the same payment through verify and webhooks, repeated 50 times at once, completes exactly once", async () => {
    const domain = newDomain();
    const { order } = await placed({ domain });
    const pay = paymentId();
    const replayed = webhook("payment.captured", { orderId: order.id, paymentId: pay, amount: order.amount });
    const centersBefore = await count(centers);
    const responses = await Promise.all([
      ...Array.from({ length: 50 }, () => sendWebhook(t, replayed)),
      ...Array.from({ length: 10 }, () =>
        sendWebhook(t, webhook("order.paid", { orderId: order.id, paymentId: pay, amount: order.amount })),
      ),
      ...Array.from({ length: 10 }, () => verify(order.id, pay)),
    ]);
    expect(responses.map((r) => r.status).every((s) => s === 200)).toBe(true);
    const bodies = await Promise.all(responses.map((r) => r.json()));
    const completions = bodies.filter((b) => b.result === "completed" || b.alreadyCompleted === false);
    expect(completions).toHaveLength(1);
    expect(bodies.slice(0, 50).filter((b) => b.status === "duplicate")).toHaveLength(49);
    expect(await centersOn(domain)).toHaveLength(1);
    expect(await count(centers)).toBe(centersBefore + 1);
    const paid = await planOrderRows(t.database.db).where(
      and(eq(planOrders.domain, domain), eq(orders.status, "paid")),
    );
    expect(paid).toHaveLength(1);
    expect(paid[0].gatewayPaymentId).toBe(pay);
  });
});

describe("the sandbox end to end", () => {
  it("pays through the sandbox's checkout: signed like Razorpay, and its own webhooks complete the order", async () => {
    const { order } = await placed();
    const res = await fetch(`${t.baseUrl}/_sandbox/razorpay/checkout/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: SANDBOX_KEY_ID, order_id: order.id, email: "asha@example.com" }),
    });
    expect(res.status).toBe(200);
    const result = await res.json();
    expect(result).toEqual({
      razorpay_order_id: order.id,
      razorpay_payment_id: expect.stringMatching(/^pay_/),
      razorpay_signature: signCheckout(order.id, result.razorpay_payment_id),
    });
    // Without any verify call, the sandbox's signed webhooks complete the purchase.
    await expect.poll(async () => (await purchaseOf(order.id)).status, { timeout: 10_000 }).toBe("paid");
    expect((await purchaseOf(order.id)).gatewayPaymentId).toBe(result.razorpay_payment_id);
    // The browser's verify arrives afterwards.
    const verified = await verify(order.id, result.razorpay_payment_id, result.razorpay_signature);
    expect(await verified.json()).toMatchObject({ success: true, alreadyCompleted: true });
    const events = await t.database.db
      .select()
      .from(webhookEvents)
      .where(sql`${webhookEvents.event} in ('payment.captured', 'order.paid')`);
    expect(events.length).toBeGreaterThanOrEqual(2);
  });

  it("fails on request, sends payment.failed, and leaves the order payable", async () => {
    const { order } = await placed();
    const res = await fetch(`${t.baseUrl}/_sandbox/razorpay/checkout/fail`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: SANDBOX_KEY_ID, order_id: order.id }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ reason: "payment_failed", metadata: { order_id: order.id } });
    await expect.poll(async () => (await purchaseOf(order.id)).status, { timeout: 10_000 }).toBe("failed");
  });

  it("serves a Checkout script whose dialog says 'Test mode — no real money'", async () => {
    const res = await t.request("/_sandbox/razorpay/checkout.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("javascript");
    const script = await res.text();
    expect(script).toContain("Test mode \\u2014 no real money");
    expect(script).toContain("window.Razorpay = Razorpay");
  });

  it("its orders API wants the key and secret, like Razorpay's", async () => {
    const res = await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 100, currency: "INR" }),
    });
    expect(res.status).toBe(401);
    const wrong = `Basic ${Buffer.from(`${SANDBOX_KEY_ID}:guess`).toString("base64")}`;
    expect(
      (
        await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/orders`, {
          method: "POST",
          headers: { authorization: wrong, "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(401);
  });

  it("refuses a payment with a wrong key or for an unknown order", async () => {
    const { order } = await placed();
    const wrongKey = await fetch(`${t.baseUrl}/_sandbox/razorpay/checkout/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: "rzp_live_x", order_id: order.id }),
    });
    expect(wrongKey.status).toBe(400);
    const unknown = await fetch(`${t.baseUrl}/_sandbox/razorpay/checkout/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: SANDBOX_KEY_ID, order_id: "order_nope" }),
    });
    expect(unknown.status).toBe(400);
  });
});

describe("GET /api/payment/purchases/my", () => {
  it("lists the signed-in owner's purchases only, newest first", async () => {
    const someone = await registerUser(t, "business");
    const mine = await placed({}, bearer(someone.access_token));
    await verify(mine.order.id, paymentId());
    const second = await placed({ billing: "yearly" }, bearer(someone.access_token));
    const res = await t.request("/api/payment/purchases/my", { headers: bearer(someone.access_token) });
    expect(res.status).toBe(200);
    const { purchases: list } = await res.json();
    expect(list.map((p: { orderId: string }) => p.orderId)).toEqual([second.order.id, mine.order.id]);
    expect(list[1]).toMatchObject({
      status: "paid",
      plan: "1 Year Plan",
      currency: "INR",
      amount: 500_000,
      billing: "monthly",
    });
    expect(Object.keys(list[0])).toEqual(
      expect.arrayContaining(["_id", "plan", "domain", "email", "status", "currency", "amount", "createdAt"]),
    );
    expect((await t.request("/api/payment/purchases/my")).status).toBe(401);
  });
});

describe("GET /api/payment/domain-availability", () => {
  it("says whether a domain can be bought for", async () => {
    const check = async (domain: string, headers: Record<string, string> = {}) =>
      (await t.request(`/api/payment/domain-availability?domain=${encodeURIComponent(domain)}`, { headers })).json();
    const free = newDomain();
    expect(await check(free)).toEqual({ domain: free, available: true, renewal: false });
    expect(await check("not a domain")).toMatchObject({
      available: false,
      reason: "invalid",
      message: "Please enter a valid domain (e.g., yourinstitute.com)",
    });
    expect(await check("x.localhost")).toMatchObject({ available: false, reason: "reserved" });
    const domain = newDomain();
    const { order } = await placed({ domain });
    await verify(order.id, paymentId());
    // Bought but not proven: the buyer's own (a renewal), and it blocks nobody else.
    expect(await check(domain)).toEqual({ domain, available: true, renewal: false });
    expect(await check(domain.toUpperCase(), auth)).toMatchObject({ available: true, renewal: true });
    await proveCenterDomain(t, (await purchaseOf(order.id)).centerId!);
    for (const name of [domain, `www.${domain}`, `shop.${domain}`])
      expect(await check(name)).toMatchObject({
        available: false,
        reason: "taken",
        message: "This domain is already used by another institute.",
      });
    expect(await check(domain.toUpperCase(), auth)).toMatchObject({ available: true, renewal: true });
  });
});

describe("unique purchases", () => {
  it("never stores two purchases for one gateway order", async () => {
    const rows = await t.database.db
      .select({ orderId: orders.gatewayOrderId, n: sql<number>`count(*)::int` })
      .from(orders)
      .groupBy(orders.gatewayOrderId);
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((r) => r.n === 1)).toBe(true);
  });
});
