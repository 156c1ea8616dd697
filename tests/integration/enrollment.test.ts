import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { enrollments, messages, orders } from "../../server/db/schema/index.ts";
import { bearer, postJson } from "../helpers/http.ts";
import {
  createListeningTestApp,
  sendWebhook,
  signCheckout,
  signOrder,
  webhook,
  type ListeningTestApp,
} from "../helpers/payments.ts";
import { createCenter, merchantOf } from "../helpers/centers.ts";
import { FIXTURES } from "../helpers/content.ts";
import { joinTeam } from "../helpers/team.ts";
import { enrol, loginOn, myCourses, publish, register, setContent } from "../helpers/learning.ts";

let t: ListeningTestApp;
let creator: Awaited<ReturnType<typeof register>>;
let sunrise: { id: string; customDomain: string | null; instituteName: string };
let vidya: { id: string; customDomain: string | null; instituteName: string };
/** Content ids by name. */
const ids: Record<string, string> = {};

const MINUTE = 60 * 1000;

beforeAll(async () => {
  t = await createListeningTestApp({ TRUST_PROXY: "1" });
  creator = await register(t, "creator", { name: "Rahul Verma" });
  const owner = await register(t, "business");
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy" });
  vidya = await createCenter(t, owner.user._id, { instituteName: "Vidya Classes" });
  await joinTeam(t, sunrise.id, creator.user._id);
  await joinTeam(t, vidya.id, creator.user._id);
  const token = creator.access_token;
  ids.freeLive = await publish(t, token, {
    title: "Free physics live",
    type: "live",
    price: "0",
    liveLink: "https://meet.example.com/physics",
    businessId: sunrise.id,
  });
  ids.paidVideo = await publish(
    t,
    token,
    { title: "Rolling video", type: "video", price: "299", businessId: sunrise.id },
    FIXTURES.mp4(),
  );
  ids.paidPdf = await publish(
    t,
    token,
    { title: "Formula sheet", type: "pdf", price: "149.50", businessId: sunrise.id },
    FIXTURES.pdf(),
  );
  ids.vidyaLive = await publish(t, token, {
    title: "Biology doubts",
    type: "live",
    price: "199",
    liveLink: "https://meet.example.com/biology",
    businessId: vidya.id,
  });
  ids.unassigned = await publish(t, token, { title: "Unassigned notes", type: "pdf", price: "0" }, FIXTURES.pdf());
  ids.inactive = await publish(
    t,
    token,
    { title: "Inactive notes", type: "pdf", price: "0", businessId: sunrise.id },
    FIXTURES.pdf(),
  );
  await setContent(t, ids.inactive, { isActive: false });
});
afterAll(() => t.close());

const host = (center: { customDomain: string | null }) => center.customDomain!;
const catalog = async (onHost?: string, token?: string) => {
  const res = await t.request("/api/contents", { host: onHost, headers: token ? bearer(token) : {} });
  expect(res.status).toBe(200);
  return (await res.json()).items as Record<string, unknown>[];
};
const titles = (items: Record<string, unknown>[]) => items.map((i) => i.title).sort();
/** Signed, unless told otherwise, with the key secret of the account the order was placed on (the institute's). */
const verifyContent = async (token: string, orderId: string, paymentId: string, signature?: string, onHost?: string) =>
  postJson(
    t,
    "/api/student/enroll/verify",
    {
      razorpay_order_id: orderId,
      razorpay_payment_id: paymentId,
      razorpay_signature: signature ?? (await signOrder(t, orderId, paymentId)),
    },
    { headers: bearer(token), host: onHost },
  );
const enrolmentsOf = (studentId: string, contentId: string) =>
  t.database.db
    .select()
    .from(enrollments)
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.contentId, contentId)));
const ordersOf = (studentId: string, contentId: string) =>
  t.database.db
    .select()
    .from(orders)
    .where(and(eq(orders.buyerId, studentId), eq(orders.contentId, contentId)));

let payments = 0;
const paymentId = () => `pay_enrol${Date.now().toString(36)}${++payments}`;

describe("GET /api/contents (the catalog)", () => {
  it("on the platform lists every active content, never inactive ones or live links", async () => {
    const items = await catalog();
    expect(titles(items)).toEqual([
      "Biology doubts",
      "Formula sheet",
      "Free physics live",
      "Rolling video",
      "Unassigned notes",
    ]);
    for (const item of items) {
      expect(item.liveLink).toBeNull();
      expect(item.fileUrl).toBeNull();
      expect(item.enrolled).toBe(false);
    }
    expect(items.find((i) => i._id === ids.freeLive)).toMatchObject({
      type: "live",
      price: 0,
      hasLiveLink: true,
      businessName: "Sunrise Academy",
    });
    expect(items.find((i) => i._id === ids.paidPdf)).toMatchObject({ type: "pdf", price: 149.5, hasLiveLink: false });
  });

  it("on an institute's domain lists only that institute's content", async () => {
    expect(titles(await catalog(host(sunrise)))).toEqual(["Formula sheet", "Free physics live", "Rolling video"]);
    expect(titles(await catalog(host(vidya)))).toEqual(["Biology doubts"]);
  });
});

describe("POST /api/student/enroll", () => {
  it("needs a student: 401 signed out, 403 for other roles", async () => {
    const anonymous = await postJson(t, "/api/student/enroll", { contentId: ids.freeLive });
    expect(anonymous.status).toBe(401);
    const other = await enrol(t, creator.access_token, ids.freeLive);
    expect(other.status).toBe(403);
  });

  it("refuses bad input with 400 and unknown or unavailable content with 404", async () => {
    const student = await register(t, "student");
    const missing = await enrol(t, student.access_token, undefined);
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe("Please choose a course to enrol in.");
    const malformed = await enrol(t, student.access_token, "not-an-id");
    expect(malformed.status).toBe(400);
    const broken = await postJson(t, "/api/student/enroll", "{oops", { headers: bearer(student.access_token) });
    expect(broken.status).toBe(400);
    for (const id of [crypto.randomUUID(), ids.inactive]) {
      const res = await enrol(t, student.access_token, id);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toBe("This course is not available.");
    }
    expect(
      await t.database.db.select().from(enrollments).where(eq(enrollments.studentId, student.user._id)),
    ).toHaveLength(0);
  });

  it("on an institute's domain refuses another institute's content", async () => {
    const student = await register(t, "student", { host: host(sunrise) });
    const res = await enrol(t, student.access_token, ids.vidyaLive, host(sunrise));
    expect(res.status).toBe(404);
    expect(await ordersOf(student.user._id, ids.vidyaLive)).toHaveLength(0);
  });

  it("enrols in free content at once (201), and a second time changes nothing", async () => {
    const student = await register(t, "student");
    const res = await enrol(t, student.access_token, ids.freeLive);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ success: true, enrollmentId: expect.any(String) });
    const again = await enrol(t, student.access_token, ids.freeLive);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ success: true, enrollmentId: body.enrollmentId, alreadyEnrolled: true });
    expect(await enrolmentsOf(student.user._id, ids.freeLive)).toHaveLength(1);
    expect(await ordersOf(student.user._id, ids.freeLive)).toHaveLength(0);
  });

  it("concurrent free enrolments make one enrolment", async () => {
    const student = await register(t, "student");
    const responses = await Promise.all(Array.from({ length: 12 }, () => enrol(t, student.access_token, ids.freeLive)));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.enrollmentId)).size).toBe(1);
    expect(await enrolmentsOf(student.user._id, ids.freeLive)).toHaveLength(1);
  });

  it("places a gateway order for paid content, priced from the content whatever the client sends", async () => {
    const student = await register(t, "student");
    const res = await postJson(
      t,
      "/api/student/enroll",
      { contentId: ids.paidPdf, amount: 100, price: 1 },
      { headers: bearer(student.access_token) },
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      order: { id: expect.stringMatching(/^order_/), amount: 14950, currency: "INR" },
      // Sunrise's own account (decision 0040), not the platform's.
      key_id: merchantOf(sunrise.id).keyId,
    });
    expect(body.enrollmentId).toBeUndefined();
    const [order] = await ordersOf(student.user._id, ids.paidPdf);
    expect(order).toMatchObject({
      gatewayOrderId: body.order.id,
      amount: 14950,
      status: "created",
      creatorId: creator.user._id,
      sellerCenterId: sunrise.id,
      merchantAccountId: expect.any(String),
    });
    expect(await enrolmentsOf(student.user._id, ids.paidPdf)).toHaveLength(0);
    // Asking again (a closed Checkout, a double click) offers the same unpaid order.
    const again = await (await enrol(t, student.access_token, ids.paidPdf)).json();
    expect(again.order.id).toBe(body.order.id);
    expect(await ordersOf(student.user._id, ids.paidPdf)).toHaveLength(1);
  });
});

describe("paying for content", () => {
  async function ordered(contentId = ids.paidVideo) {
    const student = await register(t, "student");
    const body = await (await enrol(t, student.access_token, contentId)).json();
    return { student, order: body.order as { id: string; amount: number; currency: string } };
  }

  it("a genuine Checkout result enrols the student once and counts in the creator's sales", async () => {
    const salesBefore = await t.services.sales.summary(creator.user._id);
    const { student, order } = await ordered();
    const pay = paymentId();
    const res = await verifyContent(student.access_token, order.id, pay);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, enrollmentId: expect.any(String), alreadyCompleted: false });
    const [enrolment] = await enrolmentsOf(student.user._id, ids.paidVideo);
    expect(enrolment.id).toBe(body.enrollmentId);
    const [paid] = await ordersOf(student.user._id, ids.paidVideo);
    expect(paid).toMatchObject({ status: "paid", gatewayPaymentId: pay });
    expect(enrolment.orderId).toBe(paid.id);
    const sales = await t.services.sales.summary(creator.user._id);
    expect(sales.totalOrders).toBe(salesBefore.totalOrders + 1);
    expect(sales.totalRevenue).toBe(salesBefore.totalRevenue + 299);

    // The same result again (a retried request): the same enrolment, nothing new.
    const again = await verifyContent(student.access_token, order.id, pay);
    expect(await again.json()).toMatchObject({
      success: true,
      enrollmentId: body.enrollmentId,
      alreadyCompleted: true,
    });
    expect(await enrolmentsOf(student.user._id, ids.paidVideo)).toHaveLength(1);
    // Enrolling again afterwards answers with the enrolment, no new order.
    expect(await (await enrol(t, student.access_token, ids.paidVideo)).json()).toMatchObject({
      enrollmentId: body.enrollmentId,
      alreadyEnrolled: true,
    });
    expect(await ordersOf(student.user._id, ids.paidVideo)).toHaveLength(1);
    expect((await t.services.sales.summary(creator.user._id)).totalOrders).toBe(salesBefore.totalOrders + 1);
    // One receipt, however often the payment is reported.
    const receipts = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.recipient, student.email), eq(messages.template, "payment-receipt")));
    expect(receipts).toHaveLength(1);
    expect(receipts[0].subject).toBe("Your Sunrise Academy receipt for ₹299");
    expect(receipts[0].text).toContain(`Payment ID: ${pay}`);
  });

  it("a forged signature is refused with 422 and enrols nobody", async () => {
    const { student, order } = await ordered();
    const res = await verifyContent(student.access_token, order.id, paymentId(), "0".repeat(64));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ success: false, error: "The payment signature is not valid." });
    // Signed with a key other than ours, or over another order's id.
    const other = await verifyContent(
      student.access_token,
      order.id,
      "pay_x",
      signCheckout(order.id, "pay_x", "someone-elses-secret"),
    );
    expect(other.status).toBe(422);
    expect(await enrolmentsOf(student.user._id, ids.paidVideo)).toHaveLength(0);
    expect((await ordersOf(student.user._id, ids.paidVideo))[0].status).toBe("created");
  });

  it("an order we never placed is refused with 422; missing fields with 400", async () => {
    const student = await register(t, "student");
    const res = await verifyContent(student.access_token, "order_Unknown123", "pay_1");
    expect(res.status).toBe(422);
    expect((await res.json()).error).toBe("We could not find this order.");
    const missing = await postJson(
      t,
      "/api/student/enroll/verify",
      { razorpay_order_id: "order_x" },
      { headers: bearer(student.access_token) },
    );
    expect(missing.status).toBe(400);
  });

  it("another student cannot claim the order (403)", async () => {
    const { order } = await ordered();
    const thief = await register(t, "student");
    const res = await verifyContent(thief.access_token, order.id, paymentId());
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe("This order belongs to another account.");
    expect(await enrolmentsOf(thief.user._id, ids.paidVideo)).toHaveLength(0);
  });

  it("the gateway's webhook alone completes it (the browser never came back)", async () => {
    const { student, order } = await ordered(ids.paidPdf);
    const res = await sendWebhook(
      t,
      webhook(
        "payment.captured",
        { orderId: order.id, paymentId: paymentId(), amount: order.amount },
        { secret: merchantOf(sunrise.id).webhookSecret },
      ),
    );
    expect(await res.json()).toMatchObject({ status: "processed", result: "completed" });
    expect(await enrolmentsOf(student.user._id, ids.paidPdf)).toHaveLength(1);
    // A payment of another amount never completes an order.
    const cheat = await ordered(ids.paidVideo);
    const cheating = webhook(
      "payment.captured",
      { orderId: cheat.order.id, paymentId: paymentId(), amount: 100 },
      { secret: merchantOf(sunrise.id).webhookSecret },
    );
    expect((await (await sendWebhook(t, cheating)).json()).result).toBe("amount-mismatch");
    expect(await enrolmentsOf(cheat.student.user._id, ids.paidVideo)).toHaveLength(0);
  });

  it("the shared /api/payment/verify completes content orders too", async () => {
    const { student, order } = await ordered();
    const res = await postJson(t, "/api/payment/verify", {
      razorpay_order_id: order.id,
      razorpay_payment_id: paymentId(),
      razorpay_signature: "",
    });
    expect(res.status).toBe(400);
    const pay = paymentId();
    const ok = await postJson(t, "/api/payment/verify", {
      razorpay_order_id: order.id,
      razorpay_payment_id: pay,
      razorpay_signature: await signOrder(t, order.id, pay),
    });
    const body = await ok.json();
    expect(body).toMatchObject({
      success: true,
      kind: "content",
      contentId: ids.paidVideo,
      enrollmentId: expect.any(String),
    });
    expect((await enrolmentsOf(student.user._id, ids.paidVideo))[0].id).toBe(body.enrollmentId);
  });

  it("verify and webhooks for one payment, 40 at once, enrol exactly once", async () => {
    const { student, order } = await ordered();
    const pay = paymentId();
    const secret = merchantOf(sunrise.id).webhookSecret;
    const replayed = webhook(
      "payment.captured",
      { orderId: order.id, paymentId: pay, amount: order.amount },
      { secret },
    );
    const responses = await Promise.all([
      ...Array.from({ length: 20 }, () => sendWebhook(t, replayed)),
      ...Array.from({ length: 10 }, () =>
        sendWebhook(t, webhook("order.paid", { orderId: order.id, paymentId: pay, amount: order.amount }, { secret })),
      ),
      ...Array.from({ length: 10 }, () => verifyContent(student.access_token, order.id, pay)),
    ]);
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(bodies.filter((b) => b.result === "completed" || b.alreadyCompleted === false)).toHaveLength(1);
    expect(new Set(bodies.slice(30).map((b) => b.enrollmentId)).size).toBe(1);
    expect(await enrolmentsOf(student.user._id, ids.paidVideo)).toHaveLength(1);
    const paid = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.buyerId, student.user._id), eq(orders.status, "paid")));
    expect(paid[0].n).toBe(1);
    const receipts = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.recipient, student.email), eq(messages.template, "payment-receipt")));
    expect(receipts).toHaveLength(1);
  });

  it("pays through the sandbox's Checkout on an institute's domain", async () => {
    const onSunrise = host(sunrise);
    const student = await register(t, "student", { host: onSunrise });
    const { order } = await (await enrol(t, student.access_token, ids.paidVideo, onSunrise)).json();
    const res = await fetch(`${t.baseUrl}/_sandbox/razorpay/checkout/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: merchantOf(sunrise.id).keyId, order_id: order.id }),
    });
    const result = await res.json();
    const verified = await verifyContent(
      student.access_token,
      result.razorpay_order_id,
      result.razorpay_payment_id,
      result.razorpay_signature,
      onSunrise,
    );
    expect(verified.status).toBe(200);
    const items = await myCourses(t, student.access_token, onSunrise);
    expect(items.map((i) => i.content.title)).toEqual(["Rolling video"]);
  });
});

describe("GET /api/student/my-courses", () => {
  it("lists the student's enrolments in the spec's shape, newest first, only this institute's on its domain", async () => {
    const student = await register(t, "student");
    await enrol(t, student.access_token, ids.freeLive);
    await enrol(t, student.access_token, ids.unassigned);
    const { order } = await (await enrol(t, student.access_token, ids.vidyaLive)).json();
    const pay = paymentId();
    await verifyContent(student.access_token, order.id, pay);

    const items = await myCourses(t, student.access_token);
    expect(items.map((i) => i.content.title)).toEqual(["Biology doubts", "Unassigned notes", "Free physics live"]);
    expect(items.map((i) => i.content.businessName)).toEqual(["Vidya Classes", null, "Sunrise Academy"]);
    for (const item of items) {
      expect(item).toMatchObject({
        enrollmentId: expect.any(String),
        content: expect.objectContaining({
          title: expect.any(String),
          type: expect.any(String),
          description: expect.any(String),
        }),
      });
      for (const key of ["resourceUrl", "liveLink", "businessName"]) expect(item.content).toHaveProperty(key);
    }
    const notes = items[1].content;
    expect(notes.type).toBe("pdf");
    expect(notes.businessName).toBeNull();
    expect(notes.resourceUrl).toMatch(new RegExp(`^/api/files/${ids.unassigned}/`));
    expect(notes.fileUrl).toBe(notes.resourceUrl);

    // On Sunrise's domain, only Sunrise's; on Vidya's, only Vidya's.
    const onSunrise = await loginOn(t, host(sunrise), student.email);
    expect((await myCourses(t, onSunrise, host(sunrise))).map((i) => i.content.title)).toEqual(["Free physics live"]);
    const onVidya = await loginOn(t, host(vidya), student.email);
    expect((await myCourses(t, onVidya, host(vidya))).map((i) => i.content.title)).toEqual(["Biology doubts"]);
  });

  it("needs a student", async () => {
    expect((await t.request("/api/student/my-courses")).status).toBe(401);
    expect((await t.request("/api/student/my-courses", { headers: bearer(creator.access_token) })).status).toBe(403);
  });
});

describe("live links", () => {
  it("are shown only to enrolled students, and only from 15 minutes before the class", async () => {
    const student = await register(t, "student");
    // The creator sets the class time on upload (a datetime-local value is India time) and can move it.
    const inAnHour = new Date(Date.now() + 60 * MINUTE);
    const india = new Date(inAnHour.getTime() + 330 * MINUTE).toISOString().slice(0, 16);
    const id = await publish(t, creator.access_token, {
      title: "Scheduled live",
      type: "live",
      price: "0",
      liveLink: "https://meet.example.com/scheduled",
      businessId: sunrise.id,
      liveStartsAt: india,
    });
    const startsAt = new Date(Date.parse(`${india}:00Z`) - 330 * MINUTE);
    expect(startsAt.getTime() - inAnHour.getTime()).toBeLessThan(MINUTE);
    const item = async (token?: string) => (await catalog(undefined, token)).find((i) => i._id === id)!;

    expect(await item()).toMatchObject({ liveLink: null, hasLiveLink: true, liveStartsAt: startsAt.toISOString() });
    expect(await item(student.access_token)).toMatchObject({ liveLink: null, enrolled: false });
    await enrol(t, student.access_token, id);
    // Enrolled, but the class is an hour away: not yet, and the page is told when.
    expect(await item(student.access_token)).toMatchObject({
      liveLink: null,
      enrolled: true,
      liveOpensAt: new Date(startsAt.getTime() - 15 * MINUTE).toISOString(),
    });
    expect((await myCourses(t, student.access_token)).find((i) => i.content._id === id)!.content).toMatchObject({
      liveLink: null,
      resourceUrl: null,
    });

    const moved = await postJson(
      t,
      `/api/content/${id}`,
      { liveStartsAt: new Date(Date.now() + 14 * MINUTE).toISOString() },
      { method: "PUT", headers: bearer(creator.access_token) },
    );
    expect(moved.status).toBe(200);
    const bad = await postJson(
      t,
      `/api/content/${id}`,
      { liveStartsAt: "soon" },
      { method: "PUT", headers: bearer(creator.access_token) },
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Please enter the class's date and time (e.g. 2026-11-22 18:30)");
    expect(await item(student.access_token)).toMatchObject({
      liveLink: "https://meet.example.com/scheduled",
      liveOpensAt: null,
    });
    const mine = (await myCourses(t, student.access_token)).find((i) => i.content._id === id)!.content;
    expect(mine).toMatchObject({
      liveLink: "https://meet.example.com/scheduled",
      resourceUrl: "https://meet.example.com/scheduled",
    });
    // Others still never see it.
    expect((await item()).liveLink).toBeNull();
    const other = await register(t, "student");
    expect((await item(other.access_token)).liveLink).toBeNull();
    // Its creator always does.
    expect((await item(creator.access_token)).liveLink).toBe("https://meet.example.com/scheduled");
  });

  it("of a class without a start time are shown to its students at once", async () => {
    const student = await register(t, "student");
    await enrol(t, student.access_token, ids.freeLive);
    const mine = (await myCourses(t, student.access_token)).find((i) => i.content._id === ids.freeLive)!.content;
    expect(mine).toMatchObject({ liveLink: "https://meet.example.com/physics", liveOpensAt: null });
  });
});
