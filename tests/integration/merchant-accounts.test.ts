import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { centers, enrollments, merchantAccounts, orders } from "../../server/db/schema/index.ts";
import { createLoadContext } from "../../server/middleware/context.ts";
import type { AppEnv } from "../../server/middleware/types.ts";
import type { AppDeps } from "../../server/middleware/types.ts";
import { loader as catalogLoader } from "../../app/routes/catalog.tsx";
import { GatewayError } from "../../server/payments/gateway.ts";
import { newSandboxAccount, type SandboxAccount } from "../../server/payments/sandbox/accounts.ts";
import { MERCHANT_TEXTS, NOT_ON_SALE } from "#common/validation/merchant-account.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter, merchantOf } from "../helpers/centers.ts";
import { enrol, publish, register } from "../helpers/learning.ts";
import { joinTeam } from "../helpers/team.ts";
import { createListeningTestApp, sendWebhook, webhook, type ListeningTestApp } from "../helpers/payments.ts";

/**
 * Issue 40 part 3 (decision 0040): the institute is the merchant of record. Its owner connects its
 * own Razorpay account (here, the sandbox's test accounts); its students' orders are placed,
 * verified, completed by webhook and refunded on that account; until it connects, its paid items
 * are not on sale.
 */

async function pages(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const context = createLoadContext(c, deps);
  if (new URL(c.req.url).pathname === "/catalog")
    return c.json(await catalogLoader({ request: c.req.raw, params: {}, context } as never));
  return c.text("react-router", 200);
}

const logLines: string[] = [];
let t: ListeningTestApp;
let owner: Awaited<ReturnType<typeof register>>;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let vidya: Awaited<ReturnType<typeof createCenter>>;
const ids = {} as Record<"paid" | "free" | "vidyaPaid", string>;
/** The sandbox account Sunrise's owner connects in these tests. */
const account: SandboxAccount = newSandboxAccount();
let accountId: string;

beforeAll(async () => {
  t = await createListeningTestApp({ TRUST_PROXY: "1" }, { pages, logLines });
  owner = await register(t, "business", { name: "Meera Iyer" });
  const creator = await register(t, "creator");
  // Sunrise has not connected an account; Vidya sells on its own (createCenter connects one).
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy" }, { merchant: false });
  vidya = await createCenter(t, null, { instituteName: "Vidya Classes" });
  await joinTeam(t, sunrise.id, creator.user._id);
  await joinTeam(t, vidya.id, creator.user._id);
  const live = (title: string, price: string, businessId: string) =>
    publish(t, creator.access_token, {
      title,
      type: "live",
      price,
      liveLink: "https://meet.example.com/class",
      businessId,
    });
  ids.paid = await live("Physics crash course", "499", sunrise.id);
  ids.free = await live("Free orientation", "0", sunrise.id);
  ids.vidyaPaid = await live("Biology doubts", "199", vidya.id);
});
afterAll(() => t.close());

const host = () => sunrise.customDomain!;
const connect = (body: Record<string, unknown>, token = owner.access_token) =>
  t.request("/api/institute/payment-account", {
    method: "PUT",
    headers: { ...bearer(token), "content-type": "application/json" },
    body: JSON.stringify({ centerId: sunrise.id, ...body }),
  });
const accountsOf = (centerId: string) =>
  t.database.db.select().from(merchantAccounts).where(eq(merchantAccounts.centerId, centerId));
const catalogItem = async (contentId: string) => {
  const res = await t.request("/api/contents", { host: host() });
  return ((await res.json()).items as { _id: string; onSale: boolean }[]).find((i) => i._id === contentId)!;
};
/** Pays an order in the sandbox's Checkout, opened with `key`. */
const payInSandbox = (key: string, orderId: string) =>
  fetch(`${t.baseUrl}/_sandbox/razorpay/checkout/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, order_id: orderId }),
  });
async function orderAsStudent(contentId = ids.paid) {
  const student = await register(t, "student", { host: host() });
  const res = await enrol(t, student.access_token, contentId, host());
  expect(res.status).toBe(200);
  const body = await res.json();
  return { student, order: body.order as { id: string; amount: number }, keyId: body.key_id as string };
}

describe("before the institute connects its account", () => {
  it("its paid items are 'Not on sale yet': the catalog says so and the API places no order", async () => {
    expect(await catalogItem(ids.paid)).toMatchObject({ onSale: false });
    expect(await catalogItem(ids.free)).toMatchObject({ onSale: true });
    const student = await register(t, "student", { host: host() });
    const refused = await enrol(t, student.access_token, ids.paid, host());
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toBe(
      "Not on sale yet: Sunrise Academy has not connected its payment account, so its paid items cannot be bought yet.",
    );
    expect(await t.database.db.select().from(orders).where(eq(orders.buyerId, student.user._id))).toEqual([]);
    // Free items work as before.
    const free = await enrol(t, student.access_token, ids.free, host());
    expect(free.status).toBe(201);
    expect((await free.json()).enrollmentId).toEqual(expect.any(String));
    // The catalog page (its loader) hands the button what it needs to say 'Not on sale yet'.
    const page = await t.request("/catalog", { host: host() });
    const { sections } = (await page.json()) as { sections: { live: { _id: string; onSale: boolean }[] } };
    expect(sections.live.find((i) => i._id === ids.paid)?.onSale).toBe(false);
    expect(NOT_ON_SALE).toBe("Not on sale yet");
    // The institute's home page lists it as not on sale too (its template says 'Not on sale yet').
    const home = await t.services.sites.catalog(sunrise.id);
    expect(home.live.find((i) => i.id === ids.paid)?.onSale).toBe(false);
    expect(home.live.find((i) => i.id === ids.free)?.onSale).toBeUndefined();
  });

  it("the owner sees that it has no account", async () => {
    const res = await t.request(`/api/institute/payment-account?centerId=${sunrise.id}`, {
      headers: bearer(owner.access_token),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ connected: null, accounts: [] });
  });
});

describe("connecting by keys", () => {
  it("refuses bad input with the rule, and stores nothing", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ keySecret: "abcdefgh12", webhookSecret: "whsec-12345" }, MERCHANT_TEXTS.keyIdRequired],
      [{ keyId: "rzp_live_short", keySecret: "abcdefgh12", webhookSecret: "whsec-12345" }, MERCHANT_TEXTS.keyIdInvalid],
      [{ keyId: account.keyId, webhookSecret: "whsec-12345" }, MERCHANT_TEXTS.keySecretRequired],
      [{ keyId: account.keyId, keySecret: "short", webhookSecret: "whsec-12345" }, MERCHANT_TEXTS.secretInvalid],
      [{ keyId: account.keyId, keySecret: account.keySecret }, MERCHANT_TEXTS.webhookSecretRequired],
    ];
    for (const [body, message] of cases) {
      const res = await connect(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe(message);
    }
    expect(await accountsOf(sunrise.id)).toEqual([]);
  });

  it("refuses keys the gateway does not accept, and stores nothing", async () => {
    const res = await connect({ keyId: account.keyId, keySecret: "not-the-secret-1", webhookSecret: "whsec-12345" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(MERCHANT_TEXTS.wrongKeys);
    expect(await accountsOf(sunrise.id)).toEqual([]);
  });

  it("refuses an account already connected to another institute", async () => {
    const elsewhere = merchantOf(vidya.id);
    const res = await connect({
      keyId: elsewhere.keyId,
      keySecret: elsewhere.keySecret,
      webhookSecret: elsewhere.webhookSecret,
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(MERCHANT_TEXTS.usedElsewhere);
    expect(await accountsOf(sunrise.id)).toEqual([]);
  });

  it("connects good keys: checked, sealed, never answered again, and the webhook URL is the platform's", async () => {
    const res = await connect({
      keyId: account.keyId,
      keySecret: account.keySecret,
      webhookSecret: account.webhookSecret,
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(account.keySecret);
    expect(text).not.toContain(account.webhookSecret);
    const { account: connected } = JSON.parse(text);
    accountId = connected.id;
    expect(connected).toMatchObject({
      method: "keys",
      keyId: account.keyId,
      status: "connected",
      webhookUrl: `http://localhost:${t.port}/api/payment/webhook/${accountId}`,
    });
    const [row] = await accountsOf(sunrise.id);
    expect(row).toMatchObject({ id: accountId, keyId: account.keyId, connectedBy: owner.user._id });
    expect(row.keySecretSealed).toMatch(/^v1:/);
    expect(row.keySecretSealed).not.toContain(account.keySecret);
    expect(row.webhookSecretSealed).not.toContain(account.webhookSecret);
    const [center] = await t.database.db.select().from(centers).where(eq(centers.id, sunrise.id));
    expect(center.merchantAccountId).toBe(accountId);

    // The URL is the platform's own address (SiteLinks), never one taken from a request's Host.
    const listed = await t.request(`/api/institute/payment-account?centerId=${sunrise.id}`, {
      headers: bearer(owner.access_token),
    });
    const listedText = await listed.text();
    expect(listedText).not.toContain(account.keySecret);
    expect(listedText).not.toContain(account.webhookSecret);
    expect(JSON.parse(listedText).connected).toMatchObject({ id: accountId, connectedBy: "Meera Iyer" });
    expect(JSON.parse(listedText).connected.webhookUrl).toBe(
      `http://localhost:${t.port}/api/payment/webhook/${accountId}`,
    );

    // A second account while one is connected is refused.
    const other = newSandboxAccount();
    const again = await connect({ keyId: other.keyId, keySecret: other.keySecret, webhookSecret: other.webhookSecret });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(MERCHANT_TEXTS.alreadyConnected);
    // Its paid items are on sale now.
    expect(await catalogItem(ids.paid)).toMatchObject({ onSale: true });
    expect((await t.services.sites.catalog(sunrise.id)).live.find((i) => i.id === ids.paid)?.onSale).toBeUndefined();
  });

  it("is the owner's alone", async () => {
    const student = await register(t, "student");
    expect((await connect({ keyId: account.keyId }, student.access_token)).status).toBe(403);
    const stranger = await register(t, "business");
    const res = await connect(
      { keyId: account.keyId, keySecret: account.keySecret, webhookSecret: account.webhookSecret },
      stranger.access_token,
    );
    expect(res.status).toBe(404);
  });
});

describe("students' payments on the institute's account", () => {
  it("an order is placed on its account, Checkout opens with its key, and its signature completes it", async () => {
    const { student, order, keyId } = await orderAsStudent();
    expect(keyId).toBe(account.keyId);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, order.id));
    expect(row).toMatchObject({ merchantAccountId: accountId, sellerCenterId: sunrise.id, amount: 49_900 });
    // The platform's key cannot pay (or see) the institute's order.
    const wrongKey = await payInSandbox(t.services.payments.gateway.keyId, order.id);
    expect(wrongKey.status).toBe(400);
    const paid = await payInSandbox(account.keyId, order.id);
    expect(paid.status).toBe(200);
    const checkout = await paid.json();
    const verified = await postJson(t, "/api/student/enroll/verify", checkout, {
      headers: bearer(student.access_token),
      host: host(),
    });
    expect(verified.status).toBe(200);
    expect((await verified.json()).enrollmentId).toEqual(expect.any(String));

    // The institute's account refunds it; the platform's does not know the payment.
    const gateway = await t.services.payments.gatewayForOrder(order.id);
    expect(gateway.keyId).toBe(account.keyId);
    await expect(
      t.services.payments.gateway.refund({
        paymentId: checkout.razorpay_payment_id,
        amount: order.amount,
        idempotencyKey: `refund-${order.id}-platform`,
      }),
    ).rejects.toBeInstanceOf(GatewayError);
    const refund = await gateway.refund({
      paymentId: checkout.razorpay_payment_id,
      amount: order.amount,
      idempotencyKey: `refund-${order.id}`,
    });
    expect(refund).toMatchObject({ paymentId: checkout.razorpay_payment_id, amount: 49_900, status: "processed" });
  });

  it("a webhook signed with its webhook secret completes an order, on its own URL and on the shared one", async () => {
    for (const path of [`/api/payment/webhook/${accountId}`, "/api/payment/webhook"]) {
      const { student, order } = await orderAsStudent();
      const delivery = webhook(
        "payment.captured",
        { orderId: order.id, paymentId: `pay_${Math.random().toString(36).slice(2, 12)}`, amount: order.amount },
        { secret: account.webhookSecret },
      );
      const res = await t.request(path, { method: "POST", headers: delivery.headers, body: delivery.body });
      expect(await res.json()).toMatchObject({ status: "processed", result: "completed" });
      const enrolled = await t.database.db
        .select()
        .from(enrollments)
        .where(eq(enrollments.studentId, student.user._id));
      expect(enrolled).toHaveLength(1);
    }
  });

  it("a webhook signed with another institute's secret is refused and changes nothing", async () => {
    const { student, order } = await orderAsStudent();
    const vidyaSecret = merchantOf(vidya.id).webhookSecret;
    const forged = () =>
      webhook(
        "payment.captured",
        { orderId: order.id, paymentId: "pay_forged123456", amount: order.amount },
        { secret: vidyaSecret },
      );
    // On the shared URL and on Sunrise's own: checked with Sunrise's secret.
    const shared = await sendWebhook(t, forged());
    expect(shared.status).toBe(400);
    expect((await shared.json()).error).toBe("Invalid webhook signature");
    const delivery = forged();
    const onSunrise = await t.request(`/api/payment/webhook/${accountId}`, {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
    });
    expect(onSunrise.status).toBe(400);
    // On Vidya's own URL its signature is good, but the order is not Vidya's to report.
    const [vidyaAccount] = await accountsOf(vidya.id);
    const onVidya = forged();
    const res = await t.request(`/api/payment/webhook/${vidyaAccount.id}`, {
      method: "POST",
      headers: onVidya.headers,
      body: onVidya.body,
    });
    expect(await res.json()).toMatchObject({ status: "ignored" });
    // The platform's own webhook secret is not Sunrise's either.
    expect(
      (
        await sendWebhook(
          t,
          webhook("payment.captured", { orderId: order.id, paymentId: "pay_p", amount: order.amount }),
        )
      ).status,
    ).toBe(400);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, order.id));
    expect(row.status).toBe("created");
    expect(await t.database.db.select().from(enrollments).where(eq(enrollments.studentId, student.user._id))).toEqual(
      [],
    );
    // An unknown account in the URL is refused the same way.
    const unknown = await t.request("/api/payment/webhook/not-an-account", {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
    });
    expect(unknown.status).toBe(400);
  });

  it("the sandbox's own webhooks for the institute's payment are signed with its secret and complete the order", async () => {
    const { student, order } = await orderAsStudent();
    expect((await payInSandbox(account.keyId, order.id)).status).toBe(200);
    await expect
      .poll(
        async () => (await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, order.id)))[0].status,
        { timeout: 10_000 },
      )
      .toBe("paid");
    expect(
      await t.database.db.select().from(enrollments).where(eq(enrollments.studentId, student.user._id)),
    ).toHaveLength(1);
  });

  it("another institute's students pay that institute's account", async () => {
    const student = await register(t, "student", { host: vidya.customDomain! });
    const res = await enrol(t, student.access_token, ids.vidyaPaid, vidya.customDomain!);
    expect((await res.json()).key_id).toBe(merchantOf(vidya.id).keyId);
  });
});

describe("disconnecting", () => {
  it("takes its paid items off sale; an order made on the account is still verified through it", async () => {
    const { student, order } = await orderAsStudent();
    const res = await t.request(`/api/institute/payment-account?centerId=${sunrise.id}`, {
      method: "DELETE",
      headers: bearer(owner.access_token),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).account).toMatchObject({ id: accountId, status: "disconnected" });
    expect(await catalogItem(ids.paid)).toMatchObject({ onSale: false });
    const later = await register(t, "student", { host: host() });
    expect((await enrol(t, later.access_token, ids.paid, host())).status).toBe(409);
    const paid = await payInSandbox(account.keyId, order.id);
    const verified = await postJson(t, "/api/student/enroll/verify", await paid.json(), {
      headers: bearer(student.access_token),
      host: host(),
    });
    expect(verified.status).toBe(200);
    const [row] = await accountsOf(sunrise.id);
    expect(row).toMatchObject({ status: "disconnected", disconnectedBy: owner.user._id });
    // Nothing left to disconnect.
    const again = await t.request(`/api/institute/payment-account?centerId=${sunrise.id}`, {
      method: "DELETE",
      headers: bearer(owner.access_token),
    });
    expect(again.status).toBe(404);
    expect((await again.json()).error).toBe(MERCHANT_TEXTS.notConnectedYet);
  });

  it("no log line ever held a secret", () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.some((line) => line.includes("merchant account connected"))).toBe(true);
    for (const line of logLines) {
      expect(line).not.toContain(account.keySecret);
      expect(line).not.toContain(account.webhookSecret);
    }
  });
});
