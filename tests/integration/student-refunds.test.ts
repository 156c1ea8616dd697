import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { enrollments, invoices, messages, orders, refunds } from "../../server/db/schema/index.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter, merchantOf } from "../helpers/centers.ts";
import { enrol, myCourses, publish, register } from "../helpers/learning.ts";
import { joinTeam } from "../helpers/team.ts";
import { createListeningTestApp, payThroughSandbox, type ListeningTestApp } from "../helpers/payments.ts";
import { notAllowed } from "../../server/api/member-guard.ts";
import { REFUND_TEXTS } from "../../server/services/refunds.ts";
import { STUDENT_PAYMENT_TEXTS } from "#common/purchases.ts";

/**
 * Issue 40 §3: the institute is the merchant of record, and refunds of its students' payments are
 * its decision. Its owner refunds a student's payment in full through the institute's own
 * account; the access it bought ends and the institute's credit note goes to the student. Staff
 * see the payments but may not refund; nobody else sees or refunds them.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: ListeningTestApp;
let owner: Account;
let otherOwner: Account;
let desk: Account;
let student: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let vidya: Awaited<ReturnType<typeof createCenter>>;
let course: string;
let crashCourse: string;
let unpaidCourse: string;

const host = () => sunrise.customDomain!;
const paymentsOf = (who: Account, centerId = sunrise.id) =>
  t.request(`/api/centers/${centerId}/payments`, { headers: bearer(who.access_token) });
const refund = (who: Account, orderId: string, centerId = sunrise.id) =>
  postJson(t, `/api/centers/${centerId}/payments/${orderId}/refund`, {}, { headers: bearer(who.access_token) });

/** The student buys `contentId` on Sunrise's site and pays in the sandbox; the ledger's order. */
async function buy(contentId: string) {
  const token = await studentToken();
  const placed = await enrol(t, token, contentId, host());
  expect(placed.status, await placed.clone().text()).toBe(200);
  const gatewayOrderId = ((await placed.json()) as { order: { id: string } }).order.id;
  const { paymentId } = await payThroughSandbox(t, gatewayOrderId);
  const [order] = await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, gatewayOrderId));
  return { order, paymentId, token };
}

/** The student's session on Sunrise's site (sessions are valid on the host they were made on). */
async function studentToken() {
  const res = await postJson(
    t,
    "/api/auth/login",
    { email: student.email, password: "correct-horse-battery" },
    { host: host() },
  );
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The refunds the institute's own sandbox account made of a payment. */
async function refundsAtGateway(paymentId: string, account = merchantOf(sunrise.id)) {
  const basic = `Basic ${Buffer.from(`${account.keyId}:${account.keySecret}`).toString("base64")}`;
  const res = await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/payments/${paymentId}/refunds`, {
    headers: { authorization: basic },
  });
  return { status: res.status, body: (await res.json()) as { count?: number; items?: { amount: number }[] } };
}

beforeAll(async () => {
  t = await createListeningTestApp({ TRUST_PROXY: "1" });
  owner = await register(t, "business", { name: "Anita Sharma" });
  otherOwner = await register(t, "business", { name: "Ravi Iyer" });
  desk = await register(t, "creator", { name: "Accountant Arjun" });
  student = await register(t, "student", { name: "Priya Das" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "sr-sunrise" });
  vidya = await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "sr-vidya" });
  const invited = await postJson(
    t,
    `/api/centers/${sunrise.id}/members`,
    { email: desk.email, role: "staff", duty: "accountant" },
    { headers: bearer(owner.access_token) },
  );
  expect(invited.status).toBe(201);
  const { link } = (await invited.json()) as { link: string };
  expect(
    (
      await postJson(
        t,
        "/api/team/accept",
        { token: link.split("/invite/")[1] },
        { headers: bearer(desk.access_token) },
      )
    ).status,
  ).toBe(200);
  const creator = await register(t, "creator", { name: "Rahul Verma" });
  await joinTeam(t, sunrise.id, creator.user._id);
  const liveClass = (title: string, price: string) =>
    publish(t, creator.access_token, {
      title,
      type: "live",
      price,
      liveLink: "https://meet.example.com/class",
      businessId: sunrise.id,
    });
  course = await liveClass("Organic Chemistry Notes", "499");
  crashCourse = await liveClass("JEE Physics Crash Course", "1999");
  unpaidCourse = await liveClass("NEET Biology Revision", "299");
});
afterAll(() => t.close());

describe("an institute's refund of a student's payment", () => {
  it("lists the payment to owners and staff, and refuses staff the refund in the policy's words", async () => {
    const { order } = await buy(course);
    for (const who of [owner, desk]) {
      const res = await paymentsOf(who);
      expect(res.status).toBe(200);
      const { payments } = (await res.json()) as { payments: { _id: string }[] };
      expect(payments[0]).toMatchObject({
        _id: order.id,
        student: { name: "Priya Das", email: student.email },
        item: "Live class: Organic Chemistry Notes",
        amount: 49_900,
        currency: "INR",
        paymentId: order.gatewayPaymentId,
        paidToInstitute: true,
        refund: null,
      });
    }
    const refused = await refund(desk, order.id);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe(notAllowed("payments.refund"));
    // Another institute's owner, and the student, neither see nor refund it.
    expect((await paymentsOf(otherOwner)).status).toBe(403);
    expect((await refund(otherOwner, order.id)).status).toBe(403);
    expect((await refund(otherOwner, order.id, vidya.id)).status).toBe(404);
    expect((await paymentsOf(student)).status).toBe(403);
    expect(await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))).toEqual([]);
  });

  it("refunds in full through the institute's own account, ends the access and sends the institute's credit note", async () => {
    const { order, paymentId, token } = await buy(crashCourse);
    expect((await myCourses(t, token, host())).some((c) => c.content._id === order.contentId)).toBe(true);

    const res = await refund(owner, order.id);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      message: STUDENT_PAYMENT_TEXTS.refunded,
      refund: { amount: order.amount, currency: "INR", status: "processed" },
    });

    // The institute's account gave it back; the platform's knows nothing of the payment.
    const atInstitute = await refundsAtGateway(paymentId);
    expect(atInstitute.body.count).toBe(1);
    expect(atInstitute.body.items?.[0].amount).toBe(order.amount);
    // What the payment bought is gone; the order stays paid, with its refund.
    expect(
      await t.database.db
        .select()
        .from(enrollments)
        .where(and(eq(enrollments.orderId, order.id))),
    ).toEqual([]);
    expect((await myCourses(t, token, host())).some((c) => c.content._id === order.contentId)).toBe(false);
    const [row] = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(row).toMatchObject({ status: "processed", centerId: sunrise.id, requestedBy: owner.user._id });

    // The credit note is the institute's, reversing its invoice; the student is told on its site.
    const [note] = await t.database.db.select().from(invoices).where(eq(invoices.refundId, row.id));
    expect(note).toMatchObject({
      kind: "credit_note",
      sellerCenterId: sunrise.id,
      series: `${sunrise.id}:credit_note`,
      orderId: order.id,
      buyerUserId: student.user._id,
      total: order.amount,
    });
    const [told] = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, student.user._id), eq(messages.template, "refund-processed")));
    expect(told).toMatchObject({ centerId: sunrise.id, invoiceId: note.id });
    expect(told.text).toContain(`https://${host()}/student/my-courses`);

    const listed = (await (await paymentsOf(owner)).json()) as { payments: { _id: string; refund: unknown }[] };
    expect(listed.payments.find((p) => p._id === order.id)?.refund).toMatchObject({ status: "processed" });

    // Once: a second refund is refused and the gateway is not asked again.
    const again = await refund(owner, order.id);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(REFUND_TEXTS.already);
    expect((await refundsAtGateway(paymentId)).body.count).toBe(1);
  });

  it("refuses what is not a paid student payment of this institute, and changes nothing", async () => {
    const before = await t.database.db.select().from(refunds);
    // Ordered but never paid.
    const placed = await enrol(t, await studentToken(), unpaidCourse, host());
    expect(placed.status).toBe(200);
    const gatewayOrderId = ((await placed.json()) as { order: { id: string } }).order.id;
    const [unpaid] = await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, gatewayOrderId));
    const res = await refund(owner, unpaid.id);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(REFUND_TEXTS.notPaid);
    // Paid before the institute connected its own account: the platform's account took it.
    const [earlier] = await t.database.db
      .insert(orders)
      .values({
        subject: "content",
        contentId: course,
        buyerId: student.user._id,
        sellerCenterId: sunrise.id,
        amount: 49_900,
        gatewayOrderId: `order_before_${Date.now()}`,
        gatewayPaymentId: `pay_before_${Date.now()}`,
        status: "paid",
        paidAt: new Date(),
      })
      .returning();
    const listed = (await (await paymentsOf(owner)).json()) as {
      payments: { _id: string; paidToInstitute: boolean }[];
    };
    expect(listed.payments.find((p) => p._id === earlier.id)?.paidToInstitute).toBe(false);
    const toPlatform = await refund(owner, earlier.id);
    expect(toPlatform.status).toBe(409);
    expect((await toPlatform.json()).error).toBe(REFUND_TEXTS.paidToPlatform);
    // A made-up order, and one that is no order id at all.
    for (const id of ["not-an-id", "00000000-0000-4000-8000-000000000000"]) {
      const missing = await refund(owner, id);
      expect(missing.status).toBe(404);
      expect((await missing.json()).error).toBe(REFUND_TEXTS.notFound);
    }
    expect(await t.database.db.select().from(refunds)).toEqual(before);
  });
});
