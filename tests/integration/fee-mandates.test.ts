import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { feeMandateDebits, feeMandates, feeReceipts, memberships, messages } from "../../server/db/schema/index.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter, merchantOf } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { waitForValue } from "../helpers/wait.ts";
import { GatewayError } from "../../server/payments/index.ts";
import {
  aroundGatewayRefunds,
  createListeningTestApp,
  sendWebhook,
  webhook,
  type ListeningTestApp,
} from "../helpers/payments.ts";
import { addDays, indiaDate, indiaInstant } from "../../common/india-dates.ts";
import { UPI_AUTOPAY_LIMIT } from "../../common/fee-rails.ts";
import {
  FEE_MANDATE_ENDED,
  FEE_MANDATE_NOT_MONTHLY,
  FEE_MANDATE_OWN_ONLY,
  FEE_MANDATE_REVOKED_BY_PAYER,
  feeMandateExists,
  type FeeMandateCheckoutJson,
  type FeeMandateJson,
} from "../../common/validation/fee-mandates.ts";
import { FEE_ACCOUNT_NOT_FOUND, type FeeAccountJson } from "../../common/validation/fees.ts";

/**
 * Standing instructions for monthly fees (issue 42 §7, decision 0051), end to end against the
 * payment sandbox over HTTP: the payer authorises UPI Autopay (₹1, given back) or an e-mandate
 * (pending until the bank approves it) in Checkout on the institute's account; each due is debited
 * once two days before its last date and receipted by the gateway's webhooks; a declined debit is
 * recorded and told to the family; reminders step aside; cancelling, or a revocation in the bank,
 * ends it.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: ListeningTestApp;
let owner: Account;
let student: Account;
let other: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;

const today = indiaDate(new Date());
const as = (who: Account) => ({ headers: bearer(who.access_token) });
const sandbox = (path: string, body: unknown = {}) =>
  fetch(`${t.baseUrl}/_sandbox/razorpay${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** Waits for `check` to hold (the sandbox's webhooks arrive a moment after the gateway answered). */
const until = <T>(check: () => Promise<T | undefined | null | false>, what: string) =>
  waitForValue(check, { timeoutMs: 10_000, everyMs: 50, what });

/** A monthly plan of four dues of `amount` rupees from `firstIn` days ahead, 30 days apart, assigned to `who`. */
async function monthlyAccount(who: Account, name: string, amount: number, firstIn = 2) {
  const plan = await postJson(
    t,
    "/api/fee-plans",
    {
      centerId: sunrise.id,
      name,
      heads: [{ name: "Tuition", amount: amount * 4 }],
      instalments: [0, 1, 2, 3].map((m) => ({
        label: `Month ${m + 1}`,
        amount,
        dueOn: addDays(today, firstIn + 30 * m),
      })),
    },
    as(owner),
  );
  expect(plan.status, await plan.clone().text()).toBe(201);
  const { feePlan } = (await plan.json()) as { feePlan: { _id: string } };
  const res = await postJson(
    t,
    "/api/fee-accounts",
    { centerId: sunrise.id, studentId: who.user._id, feePlanId: feePlan._id },
    as(owner),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { account: FeeAccountJson }).account;
}

const start = (who: Account, accountId: string) => postJson(t, `/api/fee-accounts/${accountId}/mandate`, {}, as(who));

/** Sets up a mandate as the payer does: the order, Checkout's authorisation in the sandbox, the confirm call. */
async function authorise(who: Account, accountId: string) {
  const res = await start(who, accountId);
  expect(res.status, await res.clone().text()).toBe(201);
  const placed = (await res.json()) as FeeMandateCheckoutJson;
  const paid = await sandbox("/checkout/pay", {
    key: placed.key_id,
    order_id: placed.order.id,
    recurring: 1,
    customer_id: placed.customer_id,
  });
  expect(paid.status, await paid.clone().text()).toBe(200);
  const result = await paid.json();
  const confirmed = await postJson(t, `/api/fee-mandates/${placed.mandate._id}/confirm`, result, as(who));
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  return { placed, mandate: ((await confirmed.json()) as { mandate: FeeMandateJson }).mandate };
}

const mandateRow = async (id: string) =>
  (await t.database.db.select().from(feeMandates).where(eq(feeMandates.id, id)))[0];
const receiptsOf = (accountId: string) =>
  t.database.db.select().from(feeReceipts).where(eq(feeReceipts.accountId, accountId));
const debitsOf = (mandateId: string) =>
  t.database.db.select().from(feeMandateDebits).where(eq(feeMandateDebits.mandateId, mandateId));
/** The debits presented on `day` (India date), as the leader's tick does it. */
const presentOn = (day: string) => t.services.feeMandateDebits.run(indiaInstant(day, 9 * 60));

/** Makes `who` a student of Sunrise. */
const admit = (who: Account) =>
  t.database.db.insert(memberships).values({
    centerId: sunrise.id,
    userId: who.user._id,
    role: "student",
    status: "active",
    acceptedAt: new Date(),
  });

beforeAll(async () => {
  t = await createListeningTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  student = await register(t, "student", { name: "Priya Das" });
  other = await register(t, "student", { name: "Zoya Khan" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "fm-sunrise" });
  for (const who of [student, other]) await admit(who);
});
afterAll(() => t.close());

describe("UPI Autopay for monthly dues up to ₹15,000", () => {
  it("is authorised by the payer, debits each due once before its last date, and receipts it", async () => {
    const account = await monthlyAccount(student, "Monthly 5k", 5_000);
    const { placed, mandate } = await authorise(student, account._id);
    // On the institute's own account: ₹1 to authorise, up to ₹15,000 a debit.
    expect(placed.key_id).toBe(merchantOf(sunrise.id).keyId);
    expect(placed.order.amount).toBe(100);
    expect(mandate).toMatchObject({ rail: "upi-autopay", status: "active", maxAmount: UPI_AUTOPAY_LIMIT / 100 });
    // The ₹1 went back at once, through the same account.
    const row = await mandateRow(mandate._id);
    expect(row.authRefundedAt).not.toBeNull();
    expect(row.tokenId).toMatch(/^token_/);
    // The gateway's deliveries about the authorisation order are signed by the institute's account:
    // taken as such (not refused, to be retried without end), though it is no order of ours.
    const captured = webhook(
      "payment.captured",
      { orderId: placed.order.id, paymentId: row.authPaymentId!, amount: 100 },
      { secret: merchantOf(sunrise.id).webhookSecret },
    );
    expect((await sendWebhook(t, captured)).status).toBe(200);
    // A second one for the same account is refused in words.
    const again = await start(student, account._id);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(feeMandateExists("UPI Autopay"));

    // Three days ahead of the first due: nothing yet. Two days ahead: presented once, however often the tick runs.
    expect(await presentOn(addDays(account.dues[0].dueOn, -3))).toBe(0);
    const day = addDays(account.dues[0].dueOn, -2);
    expect(await presentOn(day)).toBe(1);
    expect(await presentOn(day)).toBe(0);
    const [debit] = await debitsOf(mandate._id);
    expect(debit).toMatchObject({ dueId: account.dues[0]._id, amount: 500_000, presentedOn: day, error: null });
    expect(debit.gatewayPaymentId).toMatch(/^pay_/);
    // The gateway debits a moment later; its webhooks receipt it once.
    const [receipt] = await until(async () => {
      const rows = await receiptsOf(account._id);
      return rows.length > 0 && rows;
    }, "the debit's receipt");
    expect(receipt).toMatchObject({ amount: 500_000, mode: "online", gatewayPaymentId: debit.gatewayPaymentId });
    const read = await t.request(`/api/fee-accounts/${account._id}`, as(owner));
    const after = ((await read.json()) as { account: FeeAccountJson }).account;
    expect(after.dues.map((d) => d.balance)).toEqual([0, 5_000, 5_000, 5_000]);
    // The Fees page's view names the debit as paid.
    const shown = (await t.services.feeMandates.ofAccounts([account._id]))[account._id];
    expect(shown.debits).toEqual([
      expect.objectContaining({ dueId: account.dues[0]._id, amount: 5_000, status: "paid", error: null }),
    ]);
  });

  it("tells the family once when a debit is declined, and leaves the due to be paid as usual", async () => {
    const account = await monthlyAccount(other, "Monthly declined", 3_000);
    const { mandate } = await authorise(other, account._id);
    const row = await mandateRow(mandate._id);
    expect((await sandbox(`/tokens/${row.tokenId}/decline-next`)).status).toBe(200);
    expect(await presentOn(addDays(account.dues[0].dueOn, -1))).toBe(1);
    const [failed] = await until(async () => {
      const rows = await debitsOf(mandate._id);
      return rows[0]?.error ? rows : undefined;
    }, "the declined debit");
    expect(failed.error).toMatch(/insufficient/i);
    const told = await until(async () => {
      const rows = await t.database.db
        .select()
        .from(messages)
        .where(and(eq(messages.template, "fee-debit-failed"), eq(messages.userId, other.user._id)));
      return rows.length > 0 && rows;
    }, "the failure message");
    // Once per debit and person (the key's last part is the channel it went by).
    expect(new Set(told.map((m) => m.dedupeKey!.replace(/:[a-z]+$/, "")))).toEqual(
      new Set([`fee-debit-failed:${failed.id}:${other.user._id}`]),
    );
    expect(told[0].text).toContain("did not go through");
    expect(await receiptsOf(account._id)).toHaveLength(0);
    // Not presented again: the due's own reminders and Pay button take over.
    expect(await presentOn(addDays(account.dues[0].dueOn, -1))).toBe(0);
    const shown = (await t.services.feeMandates.ofAccounts([account._id]))[account._id];
    expect(shown.debits[0]).toMatchObject({ status: "failed" });
  });

  it("keeps the before and on-the-day reminders away from a due it collects", async () => {
    const account = await monthlyAccount(student, "Monthly reminded", 2_000, 10);
    await authorise(student, account._id);
    // The same dues without a mandate: reminded as ever.
    const plain = await monthlyAccount(other, "Monthly plain", 2_000, 10);
    const before = addDays(account.dues[0].dueOn, -3);
    await t.services.feeReminders.run(indiaInstant(before, 9 * 60));
    const sent = await t.database.db.select().from(messages).where(eq(messages.template, "fee-reminder-before"));
    expect(sent.filter((m) => m.dedupeKey?.includes(plain.dues[0]._id)).length).toBeGreaterThan(0);
    expect(sent.filter((m) => m.dedupeKey?.includes(account.dues[0]._id))).toHaveLength(0);
  });
});

describe("a student who leaves", () => {
  it("is refunded what the mandate collected, and the mandate ends with the account", async () => {
    const account = await monthlyAccount(other, "Monthly then left", 3_500);
    const { mandate } = await authorise(other, account._id);
    expect(await presentOn(addDays(account.dues[0].dueOn, -2))).toBe(1);
    await until(async () => (await receiptsOf(account._id)).length === 1, "the debit's receipt");
    const refunded = await postJson(
      t,
      `/api/fee-accounts/${account._id}/refunds`,
      {
        leftOn: today,
        courseFrom: today,
        courseTo: account.dues[3].dueOn,
        amount: 3_500,
        reason: "Moved to another city",
      },
      as(owner),
    );
    expect(refunded.status, await refunded.clone().text()).toBe(201);
    expect(((await refunded.json()) as { refund: { throughGateway: number } }).refund.throughGateway).toBe(3_500);
    expect(await mandateRow(mandate._id)).toMatchObject({
      status: "cancelled",
      statusReason: "The student left and was refunded.",
    });
  });
  it("takes nothing more once a refund is asked for, though the gateway refused it and the mandate is still live", async () => {
    const leaver = await register(t, "student", { name: "Kabir Rao" });
    await admit(leaver);
    const account = await monthlyAccount(leaver, "Monthly, refund refused", 3_000);
    const { mandate } = await authorise(leaver, account._id);
    expect(await presentOn(addDays(account.dues[0].dueOn, -2))).toBe(1);
    await until(async () => (await receiptsOf(account._id)).length === 1, "the debit's receipt");
    const restore = aroundGatewayRefunds(t, () =>
      Promise.reject(new GatewayError("refund failed: down for maintenance", 503)),
    );
    let refused: Response;
    try {
      refused = await postJson(
        t,
        `/api/fee-accounts/${account._id}/refunds`,
        { leftOn: today, courseFrom: today, courseTo: account.dues[3].dueOn, amount: 3_000, reason: "Left" },
        as(owner),
      );
    } finally {
      restore();
    }
    expect(refused.status).toBe(502);
    expect((await mandateRow(mandate._id)).status).toBe("active");
    await presentOn(addDays(account.dues[1].dueOn, -2));
    expect(await debitsOf(mandate._id)).toHaveLength(1);
  });
});

describe("a bank e-mandate for monthly dues above ₹15,000", () => {
  it("waits for the bank's approval, then collects", async () => {
    const account = await monthlyAccount(student, "Monthly 20k", 20_000);
    const { placed, mandate } = await authorise(student, account._id);
    expect(placed.order.amount).toBe(0);
    expect(mandate).toMatchObject({ rail: "e-mandate", maxAmount: 20_000 });
    // The sandbox's bank approves a moment later and says so by webhook.
    await until(async () => (await mandateRow(mandate._id)).status === "active", "the bank's approval");
    expect(await presentOn(addDays(account.dues[0].dueOn, -2))).toBe(1);
    await until(async () => (await receiptsOf(account._id)).length === 1, "the e-mandate debit's receipt");
  });
});

describe("who may set one up and end it", () => {
  it("is the payer's to start; the desk is refused, strangers find nothing, other plans are not monthly", async () => {
    const account = await monthlyAccount(student, "Monthly guarded", 4_000);
    const desk = await start(owner, account._id);
    expect(desk.status).toBe(403);
    expect((await desk.json()).error).toBe(FEE_MANDATE_OWN_ONLY);
    const stranger = await start(other, account._id);
    expect(stranger.status).toBe(404);
    expect((await stranger.json()).error).toBe(FEE_ACCOUNT_NOT_FOUND);

    const lump = await postJson(
      t,
      "/api/fee-plans",
      {
        centerId: sunrise.id,
        name: "Lump sum",
        heads: [{ name: "Tuition", amount: 10_000 }],
        instalments: [{ label: "Whole fee", amount: 10_000, dueOn: addDays(today, 5) }],
      },
      as(owner),
    );
    const { feePlan } = (await lump.json()) as { feePlan: { _id: string } };
    const assigned = await postJson(
      t,
      "/api/fee-accounts",
      { centerId: sunrise.id, studentId: other.user._id, feePlanId: feePlan._id },
      as(owner),
    );
    const lumpAccount = ((await assigned.json()) as { account: FeeAccountJson }).account;
    const notMonthly = await start(other, lumpAccount._id);
    expect(notMonthly.status).toBe(409);
    expect((await notMonthly.json()).error).toBe(FEE_MANDATE_NOT_MONTHLY);
    expect(
      await t.database.db.select().from(feeMandates).where(eq(feeMandates.accountId, lumpAccount._id)),
    ).toHaveLength(0);
  });

  it("ends when the desk cancels it (at the gateway first), and when the payer revokes it in their bank", async () => {
    const account = await monthlyAccount(student, "Monthly cancelled", 4_000);
    const { mandate } = await authorise(student, account._id);
    const stranger = await postJson(t, `/api/fee-mandates/${mandate._id}/cancel`, {}, as(other));
    expect(stranger.status).toBe(404);
    const cancelled = await postJson(
      t,
      `/api/fee-mandates/${mandate._id}/cancel`,
      { reason: "Paying by cheque" },
      as(owner),
    );
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect(((await cancelled.json()) as { mandate: FeeMandateJson }).mandate).toMatchObject({
      status: "cancelled",
      statusReason: "Paying by cheque",
    });
    const token = await fetch(
      `${t.baseUrl}/_sandbox/razorpay/v1/customers/${(await mandateRow(mandate._id)).gatewayCustomerId}/tokens/${(await mandateRow(mandate._id)).tokenId}`,
      {
        headers: {
          authorization: `Basic ${Buffer.from(`${merchantOf(sunrise.id).keyId}:${merchantOf(sunrise.id).keySecret}`).toString("base64")}`,
        },
      },
    );
    expect((await token.json()) as { recurring_details?: { status: string }; status?: string }).toMatchObject({
      recurring_details: { status: "cancelled" },
    });
    const twice = await postJson(t, `/api/fee-mandates/${mandate._id}/cancel`, {}, as(student));
    expect(twice.status).toBe(409);
    expect((await twice.json()).error).toBe(FEE_MANDATE_ENDED);
    expect(await presentOn(addDays(account.dues[0].dueOn, -2))).toBe(0);

    // A new one may be set up; the payer then revokes it in their UPI app.
    const { mandate: second } = await authorise(student, account._id);
    expect((await sandbox(`/tokens/${(await mandateRow(second._id)).tokenId}/revoke`)).status).toBe(200);
    await until(async () => (await mandateRow(second._id)).status === "cancelled", "the revocation webhook");
    expect((await mandateRow(second._id)).statusReason).toBe(FEE_MANDATE_REVOKED_BY_PAYER);
  });
});
