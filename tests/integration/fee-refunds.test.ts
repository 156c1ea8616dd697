import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { feeEntries, feeRefunds, memberships } from "../../server/db/schema/index.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter, merchantOf } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { createListeningTestApp, payThroughSandbox, type ListeningTestApp } from "../helpers/payments.ts";
import { pageTexts } from "../helpers/pdf.ts";
import { addDays, indiaDate } from "../../common/india-dates.ts";
import { FEE_REFUNDED_NO_REVERSAL, type FeeAccountJson } from "../../common/validation/fees.ts";
import {
  COURSE_DATES_UNKNOWN,
  FEE_REFUND_DONE,
  FEE_REFUND_NOT_FOUND,
  LEFT_IN_FUTURE,
  PAY_OUT_MODE_REQUIRED,
  refundAbovePaid,
  type FeeRefundJson,
  type RefundQuoteJson,
} from "../../common/validation/fee-refunds.ts";

/**
 * Refunds when a student leaves (issue 42 §6, decision 0048): the calculator's pro-rata proposal
 * less the non-refundable heads, the owner's confirmation once, online money back through the
 * institute's gateway account, the rest paid out at the desk, the ledger closed at zero, and a
 * numbered Refund Voucher.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: ListeningTestApp;
let owner: Account;
let student: Account;
let stranger: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let vidyaOwner: Account;

const today = indiaDate(new Date());
const as = (who: Account, host?: string) => ({ headers: bearer(who.access_token), host });
/** A course of 365 days that began 200 days ago. */
const courseFrom = addDays(today, -200);
const courseTo = addDays(courseFrom, 364);
const course = { courseFrom, courseTo };
/** Left on the course's 73rd day: a fifth of it used. */
const leftOn = addDays(courseFrom, 72);

let plans = 0;
/** ₹1,00,000: Admission ₹5,000 (non-refundable) and Tuition ₹95,000, in two instalments (₹60,000 now, ₹40,000 later). */
async function accountFor(who: Account, lateFee?: unknown) {
  const plan = await postJson(
    t,
    "/api/fee-plans",
    {
      centerId: sunrise.id,
      name: `Refund plan ${++plans}`,
      heads: [
        { name: "Admission", amount: 5_000, nonRefundable: true },
        { name: "Tuition", amount: 95_000 },
      ],
      instalments: [
        { label: "First instalment", amount: 60_000, dueOn: addDays(courseFrom, 5) },
        { label: "Second instalment", amount: 40_000, dueOn: addDays(today, 30) },
      ],
      ...(lateFee ? { lateFee } : {}),
    },
    as(owner),
  );
  expect(plan.status, await plan.clone().text()).toBe(201);
  const { feePlan } = (await plan.json()) as { feePlan: { _id: string; heads: unknown[] } };
  expect(feePlan.heads).toEqual([
    { name: "Admission", amount: 5_000, nonRefundable: true },
    { name: "Tuition", amount: 95_000 },
  ]);
  const res = await postJson(
    t,
    "/api/fee-accounts",
    { centerId: sunrise.id, studentId: who.user._id, feePlanId: feePlan._id },
    as(owner),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return { account: ((await res.json()) as { account: FeeAccountJson }).account, planId: feePlan._id };
}

const payCash = async (accountId: string, amount: number) => {
  const res = await postJson(t, `/api/fee-accounts/${accountId}/payments`, { amount, mode: "cash" }, as(owner));
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { receipt: { _id: string } }).receipt._id;
};
const accountNow = async (accountId: string) => {
  const res = await t.request(`/api/fee-accounts/${accountId}`, as(owner));
  return ((await res.json()) as { account: FeeAccountJson }).account;
};
const quote = (accountId: string, query: Record<string, string>, who = owner) =>
  t.request(`/api/fee-accounts/${accountId}/refund-quote?${new URLSearchParams(query)}`, as(who));
const refund = (accountId: string, body: unknown, who = owner) =>
  postJson(t, `/api/fee-accounts/${accountId}/refunds`, body, as(who));
const ledgerOf = (accountId: string) =>
  t.database.db.select().from(feeEntries).where(eq(feeEntries.accountId, accountId));

beforeAll(async () => {
  t = await createListeningTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  vidyaOwner = await register(t, "business", { name: "Ravi Rao" });
  student = await register(t, "student", { name: "Priya Das" });
  stranger = await register(t, "student", { name: "Zoya Khan" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "fr-sunrise" });
  await createCenter(t, vidyaOwner.user._id, { instituteName: "Vidya Classes", slug: "fr-vidya" }, { merchant: false });
  await t.database.db.insert(memberships).values({
    centerId: sunrise.id,
    userId: student.user._id,
    role: "student",
    status: "active",
    acceptedAt: new Date(),
  });
});
afterAll(() => t.close());

describe("the refund calculator", () => {
  it("proposes the unused period's share of the refundable fee, less what was used and kept", async () => {
    const { account } = await accountFor(student);
    await payCash(account._id, 60_000);
    const res = await quote(account._id, { leftOn, ...course });
    expect(res.status, await res.clone().text()).toBe(200);
    const { quote: q } = (await res.json()) as { quote: RefundQuoteJson };
    expect(q.working).toEqual({
      leftOn,
      course: { from: courseFrom, to: courseTo, from_batch: false },
      days: { used: 73, total: 365 },
      fee: 100_000,
      nonRefundable: { amount: 5_000, heads: [{ name: "Admission", amount: 5_000 }] },
      refundableFee: 95_000,
      // 73 of 365 days: a fifth of ₹95,000.
      usedFee: 19_000,
      penalties: 0,
      kept: 24_000,
      paid: 60_000,
      proposed: 36_000,
      stillOwed: 0,
      // India's 2024 coaching guidelines: within 10 days of leaving.
      refundBy: addDays(leftOn, 10),
    });
    expect(q).toMatchObject({ online: [], atDesk: 60_000, refund: null, student: { name: "Priya Das" } });
  });

  it("takes the course's dates from the student's batch under the plan", async () => {
    const other = await register(t, "student", { name: "Kabir Jain" });
    await t.database.db.insert(memberships).values({
      centerId: sunrise.id,
      userId: other.user._id,
      role: "student",
      status: "active",
      acceptedAt: new Date(),
    });
    const { account, planId } = await accountFor(other);
    await payCash(account._id, 60_000);
    const made = await postJson(
      t,
      "/api/batches",
      { centerId: sunrise.id, name: "JEE 2027 A", startsOn: courseFrom, endsOn: courseTo, feePlanId: planId },
      as(owner),
    );
    expect(made.status, await made.clone().text()).toBe(201);
    const { batch } = (await made.json()) as { batch: { _id: string } };
    // Without a batch and without dates, the calculator asks for them.
    const unknown = await quote(account._id, { leftOn });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toBe(COURSE_DATES_UNKNOWN);
    const admitted = await postJson(
      t,
      `/api/batches/${batch._id}/students`,
      { studentIds: [other.user._id] },
      as(owner),
    );
    expect(admitted.status, await admitted.clone().text()).toBeLessThan(300);
    const res = await quote(account._id, { leftOn });
    expect(res.status, await res.clone().text()).toBe(200);
    const { quote: q } = (await res.json()) as { quote: RefundQuoteJson };
    expect(q.working.course).toEqual({ from: courseFrom, to: courseTo, from_batch: true });
    expect(q.working.proposed).toBe(36_000);
  });
});

describe("a refund confirmed by the owner", () => {
  it("keeps the late fees earned, posting what accrued since the last payment, and closes the account at zero", async () => {
    // ₹100 a day after 2 grace days, at most ₹5,000; ₹30,000 paid 10 days into the course (₹300 late fee posted then).
    const { account } = await accountFor(student, { kind: "per-day", amount: 100, graceDays: 2, cap: 5_000 });
    const paid = await postJson(
      t,
      `/api/fee-accounts/${account._id}/payments`,
      { amount: 30_000, mode: "cash", paidOn: addDays(courseFrom, 10) },
      as(owner),
    );
    expect(paid.status, await paid.clone().text()).toBe(201);
    const { quote: q } = (await (await quote(account._id, { leftOn, ...course })).json()) as { quote: RefundQuoteJson };
    // The late fee has reached its cap since: ₹5,000 kept with the admission and the days used.
    expect(q.working).toMatchObject({ penalties: 5_000, kept: 29_000, paid: 30_000, proposed: 1_000 });
    const res = await refund(account._id, { leftOn, ...course, reason: "Left", mode: "cash" });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(((await res.json()) as { refund: FeeRefundJson }).refund.amount).toBe(1_000);
    expect(await accountNow(account._id)).toMatchObject({ balance: 0, overdue: 0, lateFee: 5_000, paid: 29_000 });
    const lateFees = (await ledgerOf(account._id)).filter((e) => e.kind === "late-fee").map((e) => e.amount);
    expect(lateFees.sort((a, b) => a - b)).toEqual([30_000, 470_000]);
  });

  it("is paid out at the desk, closes the ledger at zero, is numbered and printed, and happens once", async () => {
    const { account } = await accountFor(student);
    const receiptId = await payCash(account._id, 60_000);
    const res = await refund(account._id, {
      leftOn,
      ...course,
      reason: "Moved to Pune with the family",
      mode: "bank",
      reference: "NEFT 88213",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { refund: made } = (await res.json()) as { refund: FeeRefundJson };
    expect(made).toMatchObject({
      amount: 36_000,
      throughGateway: 0,
      paidOut: 36_000,
      mode: "bank",
      reference: "NEFT 88213",
      reason: "Moved to Pune with the family",
      gateway: [],
      working: { proposed: 36_000, kept: 24_000 },
    });
    expect(made.number).toMatch(/^RFV\/\d\d-\d\d\/\d{5}$/);
    // The account is closed: nothing owed, nothing overdue, ₹24,000 kept.
    const after = await accountNow(account._id);
    expect(after).toMatchObject({ balance: 0, overdue: 0, paid: 24_000 });
    const entries = await ledgerOf(account._id);
    const sum = (kind: string) => entries.filter((e) => e.kind === kind).reduce((s, e) => s + e.amount, 0);
    expect(sum("refund")).toBe(3_600_000);
    // The unpaid ₹40,000 and the ₹36,000 given back are no longer charged.
    expect(sum("cancellation")).toBe(7_600_000);
    expect(entries.filter((e) => e.kind === "refund").every((e) => e.refundId === made._id)).toBe(true);
    // Twice: the second is refused in words, and nothing more is written.
    const again = await refund(account._id, { leftOn, ...course, reason: "Again", mode: "cash" });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(FEE_REFUND_DONE);
    expect(await ledgerOf(account._id)).toHaveLength(entries.length);
    // The account is closed: its receipts can no longer be reversed.
    const reversal = await postJson(t, `/api/fee-receipts/${receiptId}/reverse`, { reason: "Mistake" }, as(owner));
    expect(reversal.status).toBe(409);
    expect((await reversal.json()).error).toBe(FEE_REFUNDED_NO_REVERSAL);
    // The quote now shows the refund made.
    const q = (await (await quote(account._id, { leftOn, ...course })).json()) as { quote: RefundQuoteJson };
    expect(q.quote.refund?._id).toBe(made._id);
    // The Refund Voucher, for the owner and for the student it is for; nobody else.
    const pdf = await t.request(`/api/fee-refunds/${made._id}/pdf`, as(owner));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const text = (await pageTexts(new Uint8Array(await pdf.arrayBuffer()))).join("\n");
    expect(text).toContain("Refund Voucher");
    expect(text).toContain(made.number);
    expect(text).toContain("Moved to Pune with the family");
    expect(text).toContain("73 of 365 days used");
    expect((await t.request(`/api/fee-refunds/${made._id}/pdf`, as(student))).status).toBe(200);
    const theirs = await t.request(`/api/fee-refunds/${made._id}/pdf`, as(stranger));
    expect(theirs.status).toBe(404);
    expect((await theirs.json()).error).toBe(FEE_REFUND_NOT_FOUND);
    // The ledger refuses to be edited.
    await expect(
      t.database.db.update(feeRefunds).set({ amount: 1 }).where(eq(feeRefunds.id, made._id)),
    ).rejects.toThrow();
  });

  it("refunds once when confirmed twice at the same moment (a double click)", async () => {
    const { account } = await accountFor(student);
    await payCash(account._id, 60_000);
    const body = { leftOn, ...course, reason: "Left for another institute", mode: "cash" };
    const answers = await Promise.all([refund(account._id, body), refund(account._id, body)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await t.database.db.select().from(feeRefunds).where(eq(feeRefunds.accountId, account._id))).toHaveLength(1);
    expect((await accountNow(account._id)).paid).toBe(24_000);
  });

  it("refuses bad input in words and changes nothing", async () => {
    const { account } = await accountFor(student);
    await payCash(account._id, 60_000);
    const before = (await ledgerOf(account._id)).length;
    const cases: [unknown, string][] = [
      [{ leftOn, ...course, mode: "cash" }, "The reason for the refund is required"],
      [{ leftOn, ...course, reason: "  ", mode: "cash" }, "The reason for the refund is required"],
      [{ leftOn, ...course, reason: "Left", mode: "cash", amount: 60_000.01 }, refundAbovePaid(60_000)],
      [{ leftOn, ...course, reason: "Left" }, PAY_OUT_MODE_REQUIRED],
      [{ leftOn: addDays(today, 1), ...course, reason: "Left", mode: "cash" }, LEFT_IN_FUTURE],
      [{ leftOn, ...course, reason: "Left", mode: "cash", amount: -5 }, "The refund must be at least ₹0.01"],
      [{ leftOn: "yesterday", reason: "Left", mode: "cash" }, "The day the student left must be a date (YYYY-MM-DD)"],
      [{ leftOn, reason: "Left", mode: "cash" }, COURSE_DATES_UNKNOWN],
      [
        { leftOn, ...course, reason: "Left", mode: "cash", amount: 10, courseTo: addDays(courseFrom, -1) },
        "The course's last day must be on or after its first day",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await refund(account._id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error, JSON.stringify(body)).toBe(message);
    }
    expect(await ledgerOf(account._id)).toHaveLength(before);
    expect(await t.database.db.select().from(feeRefunds).where(eq(feeRefunds.accountId, account._id))).toHaveLength(0);
    // Only the institute's managers: the student and another institute's owner find nothing.
    for (const who of [student, vidyaOwner]) {
      const res = await refund(account._id, { leftOn, ...course, reason: "Left", mode: "cash" }, who);
      expect(res.status).toBe(404);
      expect((await quote(account._id, { leftOn, ...course }, who)).status).toBe(404);
    }
    // An owner may refund less than proposed; the account still closes at zero.
    const less = await refund(account._id, { leftOn, ...course, reason: "Left", mode: "cash", amount: 30_000 });
    expect(less.status, await less.clone().text()).toBe(201);
    expect(await accountNow(account._id)).toMatchObject({ balance: 0, paid: 30_000 });
  });
});

describe("a refund of money paid online", () => {
  it("goes back through the institute's gateway account first; the rest is paid out at the desk", async () => {
    const { account } = await accountFor(student);
    // ₹20,000 in cash, then ₹40,000 of the first instalment online (Checkout on Sunrise's own account).
    await payCash(account._id, 20_000);
    const login = await postJson(
      t,
      "/api/auth/login",
      { email: student.email, password: student.password },
      { host: sunrise.customDomain! },
    );
    const onSite = { ...student, access_token: ((await login.json()) as { access_token: string }).access_token };
    const placed = await postJson(t, `/api/fee-dues/${account.dues[0]._id}/pay`, {}, as(onSite, sunrise.customDomain!));
    expect(placed.status, await placed.clone().text()).toBe(200);
    const { order } = (await placed.json()) as { order: { id: string; amount: number } };
    expect(order.amount).toBe(4_000_000);
    const { paymentId } = await payThroughSandbox(t, order.id);

    const q = (await (await quote(account._id, { leftOn, ...course })).json()) as { quote: RefundQuoteJson };
    expect(q.quote.online).toEqual([expect.objectContaining({ paymentId, amount: 40_000 })]);
    expect(q.quote.atDesk).toBe(20_000);
    // ₹50,000 back: ₹40,000 to the card or UPI it came from, ₹10,000 in cash.
    const res = await refund(account._id, {
      leftOn,
      ...course,
      amount: 50_000,
      reason: "Course not suitable",
      mode: "cash",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { refund: made } = (await res.json()) as { refund: FeeRefundJson };
    expect(made).toMatchObject({ amount: 50_000, throughGateway: 40_000, paidOut: 10_000, mode: "cash" });
    expect(made.gateway).toEqual([expect.objectContaining({ paymentId, amount: 40_000, status: "processed" })]);
    // At the gateway, on the institute's own account: one refund of ₹40,000.
    const merchant = merchantOf(sunrise.id);
    const basic = `Basic ${Buffer.from(`${merchant.keyId}:${merchant.keySecret}`).toString("base64")}`;
    const atGateway = await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/payments/${paymentId}/refunds`, {
      headers: { authorization: basic },
    });
    const items = ((await atGateway.json()) as { items: { id: string; amount: number }[] }).items;
    expect(items.map((r) => r.amount)).toEqual([4_000_000]);
    expect(items[0].id).toBe(made.gateway[0].refundId);
    expect(await accountNow(account._id)).toMatchObject({ balance: 0, paid: 10_000 });
  });

  it("sends the online part only, without a pay-out mode, when it covers the refund", async () => {
    const { account } = await accountFor(student);
    const login = await postJson(
      t,
      "/api/auth/login",
      { email: student.email, password: student.password },
      { host: sunrise.customDomain! },
    );
    const onSite = { ...student, access_token: ((await login.json()) as { access_token: string }).access_token };
    const placed = await postJson(t, `/api/fee-dues/${account.dues[0]._id}/pay`, {}, as(onSite, sunrise.customDomain!));
    const { order } = (await placed.json()) as { order: { id: string } };
    await payThroughSandbox(t, order.id);
    const res = await refund(account._id, { leftOn, ...course, reason: "Left" });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(((await res.json()) as { refund: FeeRefundJson }).refund).toMatchObject({
      amount: 36_000,
      throughGateway: 36_000,
      paidOut: 0,
      mode: null,
    });
  });
});
