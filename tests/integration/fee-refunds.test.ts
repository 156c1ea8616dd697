import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import {
  feeAccounts,
  feeEntries,
  feePaymentLinks,
  feeReceipts,
  feeRefundRequests,
  feeRefunds,
  memberships,
  merchantAccounts,
} from "../../server/db/schema/index.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter, merchantOf } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import {
  aroundGatewayRefunds,
  createListeningTestApp,
  eventId,
  payThroughSandbox,
  sendWebhook,
  type ListeningTestApp,
} from "../helpers/payments.ts";
import { pageTexts } from "../helpers/pdf.ts";
import { GatewayError } from "../../server/payments/gateway.ts";
import { connectSandboxAccount } from "../../server/payments/merchant-accounts.ts";
import { newSandboxAccount, type SandboxAccount } from "../../server/payments/sandbox/accounts.ts";
import { secretBoxFor } from "../../server/payments/secrets.ts";
import { webhookSignature } from "../../server/payments/signatures.ts";
import { addDays, indiaDate } from "../../common/india-dates.ts";
import { FEE_REFUNDED_NO_REVERSAL, type FeeAccountJson } from "../../common/validation/fees.ts";
import {
  COURSE_DATES_UNKNOWN,
  FEE_REFUND_DONE,
  FEE_REFUND_NOT_FOUND,
  FEE_REFUND_UNDER_WAY,
  FEE_REFUND_UNFINISHED,
  LEFT_IN_FUTURE,
  PAY_OUT_MODE_REQUIRED,
  refundAbovePaid,
  refundFailedAtGateway,
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
/** The app's log: a failed gateway call's reason is there, not in the product's words the response carries. */
const logLines: string[] = [];
const gatewayErrors = () =>
  logLines
    .filter((line) => /"level":"(error|warn)"/.test(line))
    .slice(-3)
    .join("\n");
/** ₹1,00,000: Admission ₹5,000 (non-refundable) and Tuition ₹95,000, in two instalments (₹60,000 now, ₹40,000 later). */
async function accountFor(who: Account, lateFee?: unknown, centerId = sunrise.id) {
  const plan = await postJson(
    t,
    "/api/fee-plans",
    {
      centerId,
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
    { centerId, studentId: who.user._id, feePlanId: feePlan._id },
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
const vouchersOf = (accountId: string) =>
  t.database.db.select().from(feeRefunds).where(eq(feeRefunds.accountId, accountId));
const quoted = async (accountId: string) =>
  ((await (await quote(accountId, { leftOn, ...course })).json()) as { quote: RefundQuoteJson }).quote;

/** The student pays a due on Sunrise's site through Checkout (on Sunrise's own account); the payment's id. */
async function payOnline(dueId: string) {
  const login = await postJson(
    t,
    "/api/auth/login",
    { email: student.email, password: student.password },
    { host: sunrise.customDomain! },
  );
  const onSite = { ...student, access_token: ((await login.json()) as { access_token: string }).access_token };
  const placed = await postJson(t, `/api/fee-dues/${dueId}/pay`, {}, as(onSite, sunrise.customDomain!));
  expect(placed.status, await placed.clone().text()).toBe(200);
  const { order } = (await placed.json()) as { order: { id: string } };
  return (await payThroughSandbox(t, order.id)).paymentId;
}

/** The refunds a sandbox account made of a payment, as the gateway lists them. */
async function refundsAtGateway(account: SandboxAccount, paymentId: string) {
  const basic = `Basic ${Buffer.from(`${account.keyId}:${account.keySecret}`).toString("base64")}`;
  const res = await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/payments/${paymentId}/refunds`, {
    headers: { authorization: basic },
  });
  return ((await res.json()) as { items: { id: string; amount: number }[] }).items;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Whether someone holds the account's row: another transaction cannot lock it at once (PostgreSQL
 * says so; the embedded database, whose transactions take turns, does not answer within a second).
 */
async function accountHeld(accountId: string): Promise<boolean> {
  const probe = t.database.db
    .transaction(async (tx) => {
      await tx
        .select({ id: feeAccounts.id })
        .from(feeAccounts)
        .where(eq(feeAccounts.id, accountId))
        .for("update", { noWait: true });
    })
    .then(
      () => false,
      () => true,
    );
  return Promise.race([probe, sleep(1_000).then(() => true)]);
}

beforeAll(async () => {
  t = await createListeningTestApp({}, { logLines });
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

describe("a refund through the gateway, step by step", () => {
  it("asks the gateway with the account free, so the desk, webhooks and reminders never wait on it", async () => {
    const { account } = await accountFor(student);
    await payOnline(account.dues[0]._id);
    const held: boolean[] = [];
    const restore = aroundGatewayRefunds(t, async (call) => {
      held.push(await accountHeld(account._id));
      return call();
    });
    let res: Response;
    try {
      res = await refund(account._id, { leftOn, ...course, reason: "Left" });
    } finally {
      restore();
    }
    expect(res.status, await res.clone().text()).toBe(201);
    expect(held).toEqual([false]);
    expect(await accountNow(account._id)).toMatchObject({ balance: 0, paid: 24_000 });
  });

  it("keeps a refund the gateway refused unfinished, in words, and finishes it once when confirmed again", async () => {
    const { account } = await accountFor(student);
    const paymentId = await payOnline(account.dues[0]._id);
    const before = (await ledgerOf(account._id)).length;
    const restore = aroundGatewayRefunds(t, async () => {
      throw new GatewayError("refund failed: The gateway is down for maintenance", 503);
    });
    let refused: Response;
    try {
      refused = await refund(account._id, { leftOn, ...course, reason: "Left for Kota" });
    } finally {
      restore();
    }
    expect(refused.status).toBe(502);
    expect((await refused.json()).error).toBe(refundFailedAtGateway("The gateway is down for maintenance"));
    // Nothing on the account yet, no voucher; the quote says what is unfinished and why.
    expect(await ledgerOf(account._id)).toHaveLength(before);
    expect(await vouchersOf(account._id)).toHaveLength(0);
    const q = await quoted(account._id);
    expect(q.refund).toBeNull();
    expect(q.unfinished).toMatchObject({
      status: "failed",
      failure: "The gateway is down for maintenance",
      amount: 36_000,
      throughGateway: 36_000,
      paidOut: 0,
    });
    // Until it is finished the desk takes nothing on the account, and reverses nothing.
    const cash = await postJson(
      t,
      `/api/fee-accounts/${account._id}/payments`,
      { amount: 100, mode: "cash" },
      as(owner),
    );
    expect(cash.status).toBe(409);
    expect((await cash.json()).error).toBe(FEE_REFUND_UNFINISHED);
    // Money paid online meanwhile is not taken in: it goes straight back, whole.
    const late = await payOnline(account.dues[1]._id);
    expect((await refundsAtGateway(merchantOf(sunrise.id), late)).map((r) => r.amount)).toEqual([4_000_000]);
    expect(await ledgerOf(account._id)).toHaveLength(before);
    // Confirmed again: finished as it was confirmed (another amount is not taken), refunded once.
    const again = await refund(account._id, { leftOn, ...course, reason: "Left for Kota", amount: 1_000 });
    expect(again.status, await again.clone().text()).toBe(201);
    const { refund: made } = (await again.json()) as { refund: FeeRefundJson };
    expect(made).toMatchObject({ amount: 36_000, throughGateway: 36_000, reason: "Left for Kota" });
    const atGateway = await refundsAtGateway(merchantOf(sunrise.id), paymentId);
    expect(atGateway.map((r) => [r.id, r.amount])).toEqual([[made.gateway[0].refundId, 3_600_000]]);
    expect(await quoted(account._id)).toMatchObject({ unfinished: null, refund: { _id: made._id } });
    expect(await accountNow(account._id)).toMatchObject({ balance: 0, paid: 24_000 });
  });

  it("finishes, once, a refund whose try died while the gateway refunded, when it is confirmed again", async () => {
    const { account } = await accountFor(student);
    // ₹60,000 and then ₹40,000 online: ₹76,000 goes back, ₹40,000 of the newer payment and ₹36,000 of the older.
    const older = await payOnline(account.dues[0]._id);
    const newer = await payOnline(account.dues[1]._id);
    let reached!: () => void;
    const reachedOlder = new Promise<void>((resolve) => (reached = resolve));
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    let askedForOlder = 0;
    const restore = aroundGatewayRefunds(t, async (call, input) => {
      if (input.paymentId !== older || askedForOlder++ > 0) return call();
      // The gateway refunds the older payment, and its answer never reaches the try that asked
      // (as if its process died), until the test wakes it (or 10 s pass, so nothing hangs).
      const answer = await call();
      reached();
      await Promise.race([woken, sleep(10_000)]);
      return answer;
    });
    const body = { leftOn, ...course, reason: "Family moved" };
    try {
      const first = refund(account._id, body);
      await reachedOlder;
      // Meanwhile the account is free and says so: the desk is told a refund is unfinished, a
      // second confirmation (a double click) that it is being made.
      expect(await accountHeld(account._id)).toBe(false);
      const cash = await postJson(
        t,
        `/api/fee-accounts/${account._id}/payments`,
        { amount: 100, mode: "cash" },
        as(owner),
      );
      expect((await cash.json()).error).toBe(FEE_REFUND_UNFINISHED);
      const click = await refund(account._id, body);
      expect(click.status).toBe(409);
      expect((await click.json()).error).toBe(FEE_REFUND_UNDER_WAY);
      expect((await quoted(account._id)).unfinished).toMatchObject({ status: "pending", amount: 76_000 });
      // Three minutes on, with no answer, the try is taken for dead: the same confirmation finishes it.
      await t.database.db
        .update(feeRefundRequests)
        .set({ attemptedAt: sql`now() - interval '3 minutes'` })
        .where(eq(feeRefundRequests.accountId, account._id));
      const again = await refund(account._id, body);
      expect(again.status, await again.clone().text()).toBe(201);
      const { refund: made } = (await again.json()) as { refund: FeeRefundJson };
      expect(made).toMatchObject({ amount: 76_000, throughGateway: 76_000, paidOut: 0 });
      const gatewayOf = (paymentId: string) => made.gateway.find((g) => g.paymentId === paymentId);
      expect([gatewayOf(newer)?.amount, gatewayOf(older)?.amount]).toEqual([40_000, 36_000]);
      // Each payment refunded once at the gateway: the newer one was not asked again, the older
      // one was asked with the same key and answered with the same refund.
      const sunriseAccount = merchantOf(sunrise.id);
      expect((await refundsAtGateway(sunriseAccount, newer)).map((r) => [r.id, r.amount])).toEqual([
        [gatewayOf(newer)?.refundId, 4_000_000],
      ]);
      expect((await refundsAtGateway(sunriseAccount, older)).map((r) => [r.id, r.amount])).toEqual([
        [gatewayOf(older)?.refundId, 3_600_000],
      ]);
      // The try that was taken for dead wakes: it changes nothing and answers with the same refund.
      wake();
      const late = await first;
      expect(late.status, await late.clone().text()).toBe(201);
      expect(((await late.json()) as { refund: FeeRefundJson }).refund._id).toBe(made._id);
      expect(await vouchersOf(account._id)).toHaveLength(1);
      expect(await accountNow(account._id)).toMatchObject({ balance: 0, paid: 24_000 });
    } finally {
      wake();
      restore();
    }
  });
});

describe("a refund and the account's cheques", () => {
  const takeCheque = async (accountId: string, number: string, chequeDate: string, amount: number) => {
    const res = await postJson(
      t,
      `/api/fee-accounts/${accountId}/cheques`,
      { kind: "cheque", number, bank: "State Bank of India", chequeDate, amount },
      as(owner),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { cheque: { _id: string } }).cheque._id;
  };
  const move = async (chequeId: string, status: string) => {
    const res = await postJson(t, `/api/fee-cheques/${chequeId}/status`, { status }, as(owner));
    expect(res.status, await res.clone().text()).toBe(200);
  };

  it("waits until none is held or deposited, naming the one it waits for, in the quote too", async () => {
    const { account } = await accountFor(student);
    await payCash(account._id, 20_000);
    // Cheque 004512 dated today (receipted subject to realisation) and 004513 post-dated.
    const current = await takeCheque(account._id, "004512", today, 20_000);
    const postDated = await takeCheque(account._id, "004513", addDays(today, 10), 10_000);
    const body = { leftOn, ...course, reason: "Left", mode: "cash" };
    const refusedWith = async (message: string) => {
      const res = await refund(account._id, body);
      expect(res.status).toBe(409);
      expect((await res.json()).error).toBe(message);
      expect((await quoted(account._id)).blocked).toBe(message);
    };

    await refusedWith("Cheque 004512 is still held: return or clear it before refunding.");
    expect((await quoted(account._id)).uncleared).toEqual([
      expect.objectContaining({ _id: current, number: "004512", status: "held", amount: 20_000 }),
      expect.objectContaining({ _id: postDated, number: "004513", status: "held", amount: 10_000 }),
    ]);
    await move(current, "deposited");
    await refusedWith("Cheque 004512 is deposited and not yet cleared: mark it cleared or bounced before refunding.");
    await move(current, "cleared");
    await refusedWith("Cheque 004513 is still held: return or clear it before refunding.");
    expect(await vouchersOf(account._id)).toHaveLength(0);
    expect(
      await t.database.db.select().from(feeRefundRequests).where(eq(feeRefundRequests.accountId, account._id)),
    ).toHaveLength(0);

    await move(postDated, "returned");
    expect(await quoted(account._id)).toMatchObject({ uncleared: [], blocked: null });
    const res = await refund(account._id, body);
    expect(res.status, await res.clone().text()).toBe(201);
    // ₹40,000 received (the cash and the cleared cheque): ₹24,000 kept, ₹16,000 back.
    expect(((await res.json()) as { refund: FeeRefundJson }).refund).toMatchObject({ amount: 16_000 });
  });
});

describe("a refund of a payment link's payment", () => {
  /** Sends a link for a due (on the institute's account connected now), pays it in full, and delivers its webhook. */
  async function payByLink(dueId: string, account: SandboxAccount) {
    const sent = await postJson(t, `/api/fee-dues/${dueId}/link`, {}, as(owner));
    expect(sent.status, `${await sent.clone().text()}\n${gatewayErrors()}`).toBe(201);
    const { url, link } = (await sent.json()) as { url: string; link: { _id: string; amount: number } };
    const paid = await fetch(`${url}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(paid.status, await paid.clone().text()).toBe(200);
    const paymentId = ((await paid.json()) as { razorpay_payment_id: string }).razorpay_payment_id;
    const [row] = await t.database.db.select().from(feePaymentLinks).where(eq(feePaymentLinks.id, link._id));
    const body = JSON.stringify({
      entity: "event",
      event: "payment_link.paid",
      contains: ["payment_link", "payment"],
      payload: {
        payment_link: { entity: { id: row.gatewayLinkId, reference_id: row.id, entity: "payment_link" } },
        payment: {
          entity: { id: paymentId, entity: "payment", amount: row.amount, currency: "INR", status: "captured" },
        },
      },
    });
    const delivered = await sendWebhook(t, {
      body,
      headers: {
        "content-type": "application/json",
        "x-razorpay-signature": webhookSignature(account.webhookSecret, body),
        "x-razorpay-event-id": eventId(),
      },
    });
    expect(delivered.status, await delivered.clone().text()).toBe(200);
    return paymentId;
  }

  it("goes back through the account that took it, though the institute has moved to another since", async () => {
    const lotus = await createCenter(t, owner.user._id, { instituteName: "Lotus Academy", slug: "fr-lotus" });
    await t.database.db.insert(memberships).values({
      centerId: lotus.id,
      userId: student.user._id,
      role: "student",
      status: "active",
      acceptedAt: new Date(),
    });
    const { account } = await accountFor(student, undefined, lotus.id);
    const first = merchantOf(lotus.id);
    const paymentId = await payByLink(account.dues[0]._id, first);
    // Lotus connects another account; the next link (for the second instalment) is made on it.
    await t.database.db
      .update(merchantAccounts)
      .set({ status: "disconnected" })
      .where(eq(merchantAccounts.id, lotus.merchantAccountId!));
    const second: SandboxAccount = newSandboxAccount();
    await connectSandboxAccount(t.database.db, secretBoxFor(t.env)!, lotus.id, second);
    const next = await postJson(t, `/api/fee-dues/${account.dues[1]._id}/link`, {}, as(owner));
    expect(next.status, `${await next.clone().text()}\n${gatewayErrors()}`).toBe(201);

    const res = await refund(account._id, { leftOn, ...course, reason: "Left" });
    expect(res.status, await res.clone().text()).toBe(201);
    const { refund: made } = (await res.json()) as { refund: FeeRefundJson };
    expect(made).toMatchObject({ amount: 36_000, throughGateway: 36_000 });
    expect((await refundsAtGateway(first, paymentId)).map((r) => [r.id, r.amount])).toEqual([
      [made.gateway[0].refundId, 3_600_000],
    ]);
    const [voucher] = await vouchersOf(account._id);
    expect(voucher.gateway[0].merchantAccountId).toBe(lotus.merchantAccountId);
    // The receipt keeps the account that took the money.
    const [receipt] = await t.database.db.select().from(feeReceipts).where(eq(feeReceipts.gatewayPaymentId, paymentId));
    expect(receipt.merchantAccountId).toBe(lotus.merchantAccountId);
  });
});
