import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { centers, notices, orders, refunds } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { SANDBOX_KEY_ID, SANDBOX_KEY_SECRET } from "../../server/payments/config.ts";
import { REFUND_TEXTS } from "../../server/services/refunds.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { proveCenterDomain } from "../helpers/domains.ts";
import { adminToken, createListeningTestApp, payThroughSandbox, type ListeningTestApp } from "../helpers/payments.ts";

let t: ListeningTestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createListeningTestApp();
  await seedDemo(t.database.db);
  admin = bearer(await adminToken(t));
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
let n = 0;
const newDomain = () => `refund-${Date.now().toString(36)}-${++n}.example.com`;
const basic = `Basic ${Buffer.from(`${SANDBOX_KEY_ID}:${SANDBOX_KEY_SECRET}`).toString("base64")}`;

/** A business that bought a plan, paid through the sandbox. */
async function bought() {
  const owner = await registerUser(t, "business", { name: "Ravi Sen" });
  const auth = bearer(owner.access_token);
  const domain = newDomain();
  const order = await postJson(
    t,
    "/api/payment/create-order",
    { institute: "Sen Classes", owner: "Ravi Sen", email: owner.email, plan: "1 Year Plan", domain },
    { headers: auth },
  );
  const { order: placed, purchase } = await order.json();
  const { paymentId, body } = await payThroughSandbox(t, placed.id);
  await proveCenterDomain(t, body.center._id);
  return { owner, auth, domain, purchaseId: purchase._id as string, paymentId, centerId: body.center._id as string };
}

const refund = (purchaseId: string, headers = admin) =>
  t.request(`/api/purchases/${purchaseId}/refund`, { method: "POST", headers });

const sandboxPayment = async (paymentId: string) =>
  (
    await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/payments/${paymentId}`, { headers: { authorization: basic } })
  ).json();

describe("POST /api/purchases/:id/refund", () => {
  it("refunds within 30 days through the gateway; the center ends, owner and admins are told, billing shows it", async () => {
    const b = await bought();
    expect((await t.request("/", { host: b.domain })).status).toBe(200);
    const res = await refund(b.purchaseId);
    expect(res.status).toBe(200);
    const { refund: made } = await res.json();
    expect(made).toMatchObject({ amount: 500_000, status: "processed", currency: "INR" });
    expect(made.refundId).toMatch(/^rfnd_/);

    // The gateway holds the refund.
    expect(await sandboxPayment(b.paymentId)).toMatchObject({ amount_refunded: 500_000, refund_status: "full" });

    const [center] = await t.database.db.select().from(centers).where(eq(centers.id, b.centerId));
    expect(center.status).toBe("inactive");
    expect(center.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await t.request("/", { host: b.domain })).status).toBe(503);

    const mine = await (await t.request("/api/payment/purchases/my", { headers: b.auth })).json();
    expect(mine.purchases[0]).toMatchObject({
      _id: b.purchaseId,
      status: "paid",
      refund: { status: "processed", amount: 500_000 },
    });

    const ownerNotices = await t.services.notices.forOwner(b.owner.user._id);
    expect(ownerNotices.notices[0]).toMatchObject({ kind: "refund", title: "Your payment has been refunded" });
    const feed = await (await t.request("/api/admin/notifications", { headers: admin })).json();
    expect(
      feed.notices.some((x: { kind: string; centerId: string }) => x.kind === "refund" && x.centerId === b.centerId),
    ).toBe(true);

    const list = await (await t.request(`/api/centers?q=${b.domain}`, { headers: admin })).json();
    expect(list.centers[0].payment).toMatchObject({ refundable: false, refund: { status: "processed" } });
  });

  it("is never applied twice: again is a 409, and two at once refund once at the gateway", async () => {
    const b = await bought();
    const both = await Promise.all([refund(b.purchaseId), refund(b.purchaseId), refund(b.purchaseId)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const again = await refund(b.purchaseId);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(REFUND_TEXTS.already);
    const rows = await t.database.db.select().from(refunds).where(eq(refunds.orderId, b.purchaseId));
    expect(rows).toHaveLength(1);
    const payment = await sandboxPayment(b.paymentId);
    expect(payment.amount_refunded).toBe(500_000);
    const gatewayRefunds = await (
      await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/payments/${b.paymentId}/refunds`, {
        headers: { authorization: basic },
      })
    ).json();
    expect(gatewayRefunds.count).toBe(1);
    const told = await t.database.db
      .select()
      .from(notices)
      .where(and(eq(notices.centerId, b.centerId), eq(notices.kind, "refund")));
    expect(told).toHaveLength(2);
  });

  it("refuses after the 30 days, changing nothing", async () => {
    const b = await bought();
    await t.database.db
      .update(orders)
      .set({ paidAt: new Date(Date.now() - 31 * DAY) })
      .where(eq(orders.id, b.purchaseId));
    const res = await refund(b.purchaseId);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatch(/^The 30-day money-back guarantee of this purchase ended on /);
    expect(await t.database.db.select().from(refunds).where(eq(refunds.orderId, b.purchaseId))).toHaveLength(0);
    expect((await sandboxPayment(b.paymentId)).amount_refunded).toBe(0);
    const [center] = await t.database.db.select().from(centers).where(eq(centers.id, b.centerId));
    expect(center.status).toBe("active");
  });

  it("is for admins only, of paid purchases that exist", async () => {
    const b = await bought();
    expect((await refund(b.purchaseId, {})).status).toBe(401);
    expect((await refund(b.purchaseId, b.auth)).status).toBe(403);
    expect((await refund("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await refund("not-an-id")).status).toBe(404);
    const unpaid = await postJson(
      t,
      "/api/payment/create-order",
      { institute: "Unpaid", owner: "Ravi Sen", email: b.owner.email, plan: "1 Year Plan", domain: newDomain() },
      { headers: b.auth },
    );
    const res = await refund((await unpaid.json()).purchase._id);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(REFUND_TEXTS.notPaid);
  });

  it("when the gateway refuses, says why (502), records the failure and lets the admin try again", async () => {
    const b = await bought();
    // A payment the gateway does not know (e.g. made before the sandbox restarted).
    await t.database.db
      .update(orders)
      .set({ gatewayPaymentId: "pay_unknownToGateway" })
      .where(eq(orders.id, b.purchaseId));
    const res = await refund(b.purchaseId);
    expect(res.status).toBe(502);
    expect((await res.json()).error).toBe(REFUND_TEXTS.gateway("The id provided does not exist"));
    const [center] = await t.database.db.select().from(centers).where(eq(centers.id, b.centerId));
    expect(center.status).toBe("active");
    await t.database.db.update(orders).set({ gatewayPaymentId: b.paymentId }).where(eq(orders.id, b.purchaseId));
    expect((await refund(b.purchaseId)).status).toBe(200);
  });
});

describe("the sandbox's refunds API", () => {
  it("answers like Razorpay's payments.refund: idempotency key, fully refunded, unknown id", async () => {
    const b = await bought();
    const call = (body: unknown, key?: string) =>
      fetch(`${t.baseUrl}/_sandbox/razorpay/v1/payments/${b.paymentId}/refund`, {
        method: "POST",
        headers: {
          authorization: basic,
          "content-type": "application/json",
          ...(key ? { "x-refund-idempotency": key } : {}),
        },
        body: JSON.stringify(body),
      });
    const first = await call({ amount: 100_000 }, "key-0123456789");
    expect(first.status).toBe(200);
    const made = await first.json();
    expect(made).toMatchObject({ entity: "refund", amount: 100_000, payment_id: b.paymentId, status: "processed" });
    const retried = await call({ amount: 100_000 }, "key-0123456789");
    expect((await retried.json()).id).toBe(made.id);
    const changed = await call({ amount: 200_000 }, "key-0123456789");
    expect(changed.status).toBe(400);
    const rest = await call({});
    expect((await rest.json()).amount).toBe(400_000);
    const more = await call({});
    expect(more.status).toBe(400);
    expect((await more.json()).error.description).toBe("The payment has been fully refunded already");
    const unknown = await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/payments/pay_nope/refund`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/json" },
      body: "{}",
    });
    expect(unknown.status).toBe(400);
  });
});
