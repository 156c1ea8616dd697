import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { feeEntries, feeReceipts, memberships } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { notAllowed } from "../../server/auth/permissions.ts";
import type { MemberRole } from "../../common/memberships.ts";
import { addDays, daysBetween, indiaDate } from "../../common/india-dates.ts";
import { financialYear } from "../../common/gst.ts";
import {
  BANK_REQUIRED,
  CHEQUE_DATE_REQUIRED,
  CHEQUE_ON_CHEQUE_DESK,
  FEE_ACCOUNT_NOT_FOUND,
  FEE_ALREADY_REVERSED,
  FEE_PLAN_TAKEN,
  REFERENCE_REQUIRED,
  instalmentsDoNotAddUp,
  moreThanOwed,
} from "../../common/validation/fees.ts";
import { NOT_A_FEE_PLAN, NOT_A_STUDENT } from "../../common/validation/batches.ts";

/**
 * Fees through the API (issue 42 §1–3, decision 0045): a plan whose instalments must add up, a
 * plan assigned with stacked discounts, a partial cash payment settling the oldest due first
 * with a numbered receipt, a reversal that needs a reason, a late fee after the grace days, two
 * payments at once settled once, who may see what, and a ledger that cannot be edited.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let staffer: Account;
let teacher: Account;
let student: Account;
let sibling: Account;
let outsider: Account;
let otherOwner: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let vidya: Awaited<ReturnType<typeof createCenter>>;

const grant = (centerId: string, userId: string, role: MemberRole) =>
  t.database.db
    .insert(memberships)
    .values({ centerId, userId, role, status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();

const today = indiaDate(new Date());
const shift = (days: number) => addDays(today, days);
const as = (who: Account) => ({ headers: bearer(who.access_token) });
const get = async (who: Account, path: string) => {
  const res = await t.request(path, as(who));
  return { status: res.status, body: await res.json() };
};

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  staffer = await register(t, "business", { name: "Front Desk Farah" });
  teacher = await register(t, "creator", { name: "Kavya Iyer" });
  student = await register(t, "student", { name: "Priya Das" });
  sibling = await register(t, "student", { name: "Rahul Das" });
  outsider = await register(t, "student", { name: "Zoya Khan" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "fee-sunrise" });
  vidya = await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "fee-vidya" });
  await grant(sunrise.id, staffer.user._id, "staff");
  await grant(sunrise.id, teacher.user._id, "teacher");
  await grant(sunrise.id, student.user._id, "student");
  await grant(sunrise.id, sibling.user._id, "student");
});
afterAll(() => t.close());

const makePlan = (who: Account, body: Record<string, unknown>) =>
  postJson(t, "/api/fee-plans", { centerId: sunrise.id, ...body }, as(who));
const YEAR_PLAN = {
  name: "JEE 2027 two instalments",
  heads: [
    { name: "Tuition", amount: 90_000 },
    { name: "Study material", amount: 10_000 },
  ],
  instalments: [
    { label: "At admission", amount: 60_000, dueOn: shift(-10) },
    { label: "Second instalment", amount: 40_000, dueOn: shift(60) },
  ],
};
const assign = (who: Account, body: Record<string, unknown>) =>
  postJson(t, "/api/fee-accounts", { centerId: sunrise.id, ...body }, as(who));
const pay = (who: Account, accountId: string, body: Record<string, unknown>) =>
  postJson(t, `/api/fee-accounts/${accountId}/payments`, body, as(who));

describe("fee plans", () => {
  it("refuses instalments that do not add up to the heads, and bad amounts, storing nothing", async () => {
    const short = await makePlan(owner, {
      ...YEAR_PLAN,
      instalments: [{ label: "Lump sum", amount: 99_000, dueOn: shift(5) }],
    });
    expect(short.status).toBe(400);
    expect((await short.json()).error).toBe(instalmentsDoNotAddUp(99_000, 100_000));
    const negative = await makePlan(owner, { ...YEAR_PLAN, heads: [{ name: "Tuition", amount: -5 }] });
    expect(negative.status).toBe(400);
    const text = await makePlan(owner, { ...YEAR_PLAN, heads: [{ name: "Tuition", amount: "lots" }] });
    expect(text.status).toBe(400);
    expect((await get(owner, `/api/fee-plans?centerId=${sunrise.id}`)).body.feePlans).toEqual([]);
  });

  it("makes a plan with its total, GST rate and late-fee rule; a teacher may not", async () => {
    const res = await makePlan(owner, {
      ...YEAR_PLAN,
      lateFee: { kind: "per-day", amount: 50, graceDays: 5, cap: 1_000 },
    });
    expect(res.status).toBe(201);
    const { feePlan } = await res.json();
    expect(feePlan).toMatchObject({
      total: 100_000,
      gstRate: 18,
      lateFee: { kind: "per-day", amount: 50, graceDays: 5, cap: 1_000 },
    });
    const refused = await makePlan(teacher, YEAR_PLAN);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe(notAllowed("fees.manage"));
  });
});

describe("a student's fee account", () => {
  let planId = "";
  let accountId = "";
  beforeAll(async () => {
    planId = (
      await (
        await makePlan(owner, {
          ...YEAR_PLAN,
          name: "Account plan",
          lateFee: { kind: "per-day", amount: 50, graceDays: 5, cap: 1_000 },
        })
      ).json()
    ).feePlan._id;
  });

  it("assigns a plan with discounts stacked in the fixed order and shared over the dues", async () => {
    const res = await assign(staffer, {
      studentId: student.user._id,
      feePlanId: planId,
      discounts: [
        { kind: "sibling", percent: 10, reason: "Brother in NEET 2026" },
        { kind: "scholarship", percent: 20, reason: "Rank 14 in the admission test" },
      ],
    });
    expect(res.status).toBe(201);
    const { account } = await res.json();
    accountId = account._id;
    // 20 % of 1,00,000 first, then 10 % of the 80,000 left: 28,000 off in all, 60:40 over the dues.
    expect(account).toMatchObject({ total: 100_000, discount: 28_000, paid: 0, planName: "Account plan" });
    expect(account.dues.map((d: { label: string; discount: number }) => [d.label, d.discount])).toEqual([
      ["At admission", 16_800],
      ["Second instalment", 11_200],
    ]);
    // The first due is 10 days past its date, 5 past the grace: 5 × ₹50 of late fee so far.
    expect(account.dues[0]).toMatchObject({ lateFee: 250, balance: 43_450, overdueDays: 10 });
    expect(account.balance).toBe(72_250);
    expect(account.ledger.filter((e: { kind: string }) => e.kind === "discount")).toHaveLength(4);
    expect(account.ledger.find((e: { kind: string }) => e.kind === "discount").reason).toBe(
      "Rank 14 in the admission test",
    );
  });

  it("refuses a discount above 100 %, a non-student and a second account under the same plan", async () => {
    const over = await assign(owner, {
      studentId: sibling.user._id,
      feePlanId: planId,
      discounts: [{ kind: "custom", percent: 120, reason: "x y z" }],
    });
    expect(over.status).toBe(400);
    expect((await over.json()).error).toBe("A discount cannot be more than 100 %");
    const stranger = await assign(owner, { studentId: outsider.user._id, feePlanId: planId });
    expect(stranger.status).toBe(400);
    expect((await stranger.json()).error).toBe(NOT_A_STUDENT(`The account ${outsider.user._id}`));
    const twice = await assign(owner, { studentId: student.user._id, feePlanId: planId });
    expect(twice.status).toBe(409);
    expect((await twice.json()).error).toBe(FEE_PLAN_TAKEN);
  });

  let receiptId = "";
  it("takes a part payment at the desk: the late fee earned is posted, the oldest due settled first, a numbered receipt issued", async () => {
    const noRef = await pay(staffer, accountId, { amount: 1_000, mode: "upi" });
    expect(noRef.status).toBe(400);
    expect((await noRef.json()).error).toBe(REFERENCE_REQUIRED);
    const noDate = await pay(staffer, accountId, { amount: 1_000, mode: "cheque", reference: "004512" });
    expect((await noDate.json()).error).toBe(CHEQUE_DATE_REQUIRED);
    const tooMuch = await pay(staffer, accountId, { amount: 80_000, mode: "cash" });
    expect(tooMuch.status).toBe(409);
    expect((await tooMuch.json()).error).toBe(moreThanOwed(72_250));

    const res = await pay(staffer, accountId, { amount: 50_000, mode: "cash" });
    expect(res.status).toBe(201);
    const { receipt } = await res.json();
    receiptId = receipt._id;
    const fy = financialYear(new Date());
    expect(receipt.number).toMatch(new RegExp(`^RCT/${fy.slice(2)}/\\d{5}$`));
    expect(receipt.allocations.map((a: { label: string; amount: number }) => [a.label, a.amount])).toEqual([
      ["At admission", 43_450],
      ["Second instalment", 6_550],
    ]);
    const { body } = await get(owner, `/api/fee-accounts/${accountId}`);
    expect(body.account).toMatchObject({ paid: 50_000, lateFee: 250, balance: 22_250, overdue: 0 });
    expect(body.account.ledger.filter((e: { kind: string }) => e.kind === "late-fee")).toEqual([
      expect.objectContaining({ amount: 250 }),
    ]);

    const next = await pay(staffer, accountId, { amount: 250, mode: "bank", reference: "NEFT-88231" });
    const seq = (n: string) => Number(n.split("/")[2]);
    expect(seq((await next.json()).receipt.number)).toBe(seq(receipt.number) + 1);
  });

  it("reverses a receipt once, only with a reason, and the money it moved is owed again", async () => {
    const noReason = await postJson(t, `/api/fee-receipts/${receiptId}/reverse`, {}, as(owner));
    expect(noReason.status).toBe(400);
    const res = await postJson(
      t,
      `/api/fee-receipts/${receiptId}/reverse`,
      { reason: "Cash counted short at close" },
      as(owner),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).reversal).toMatchObject({ amount: 50_000, reason: "Cash counted short at close" });
    const again = await postJson(t, `/api/fee-receipts/${receiptId}/reverse`, { reason: "Twice" }, as(owner));
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(FEE_ALREADY_REVERSED);
    const { body } = await get(owner, `/api/fee-accounts/${accountId}`);
    expect(body.account.paid).toBe(250);
    expect(body.account.dues[0].balance).toBeGreaterThanOrEqual(43_450);
    const receipt = (await get(owner, `/api/fee-receipts/${receiptId}`)).body.receipt;
    expect(receipt.reversed).toMatchObject({ reason: "Cash counted short at close" });
    expect(receipt.amount).toBe(50_000);
  });

  it("settles two payments of the whole balance made at once exactly once", async () => {
    const { body } = await get(owner, `/api/fee-accounts/${accountId}`);
    const balance = body.account.balance;
    const before = (await t.database.db.select().from(feeReceipts)).length;
    const [a, b] = await Promise.all([
      pay(staffer, accountId, { amount: balance, mode: "cash" }),
      pay(owner, accountId, { amount: balance, mode: "upi", reference: "UPI-1" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect((await t.database.db.select().from(feeReceipts)).length).toBe(before + 1);
    expect((await get(owner, `/api/fee-accounts/${accountId}`)).body.account.balance).toBe(0);
  });

  it("shows a student their own account and nobody else's; another institute finds nothing", async () => {
    const own = await get(student, `/api/fee-accounts?centerId=${sunrise.id}`);
    expect(own.status).toBe(200);
    expect(own.body.accounts.map((a: { _id: string }) => a._id)).toEqual([accountId]);
    expect((await get(student, `/api/fee-accounts/${accountId}`)).status).toBe(200);
    expect((await get(student, `/api/fee-receipts/${receiptId}`)).status).toBe(200);
    for (const who of [sibling, otherOwner, teacher]) {
      const res = await get(who, `/api/fee-accounts/${accountId}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(FEE_ACCOUNT_NOT_FOUND);
    }
    const theirs = await get(sibling, `/api/fee-accounts?centerId=${sunrise.id}&studentId=${student.user._id}`);
    expect(theirs.status).toBe(404);
    const paying = await pay(student, accountId, { amount: 1, mode: "cash" });
    expect(paying.status).toBe(404);
    expect((await get(otherOwner, `/api/fee-plans?centerId=${vidya.id}`)).body.feePlans).toEqual([]);
  });

  it("keeps the ledger append only: an edit or a delete is refused by the database", async () => {
    const [entry] = await t.database.db.select().from(feeEntries).where(eq(feeEntries.accountId, accountId)).limit(1);
    await expect(
      t.database.db.update(feeEntries).set({ amount: 1 }).where(eq(feeEntries.id, entry.id)),
    ).rejects.toThrow();
    await expect(t.database.db.delete(feeEntries).where(eq(feeEntries.id, entry.id))).rejects.toThrow();
    await expect(t.database.db.execute(sql`update fee_receipts set amount = 1`)).rejects.toThrow();
    expect(daysBetween(shift(-10), today)).toBe(10);
  });
});

describe("a batch's fee plan", () => {
  it("assigns the batch's plan to each student admitted, and to the first waiting when a seat frees; never twice", async () => {
    const plan = (
      await (
        await makePlan(owner, {
          ...YEAR_PLAN,
          name: "Batch plan",
          instalments: [{ label: "Lump sum", amount: 100_000, dueOn: shift(30) }],
        })
      ).json()
    ).feePlan;
    const otherPlan = (
      await (
        await postJson(
          t,
          "/api/fee-plans",
          { ...YEAR_PLAN, centerId: vidya.id, name: "Vidya's plan" },
          { headers: bearer(otherOwner.access_token) },
        )
      ).json()
    ).feePlan;
    const refused = await postJson(
      t,
      "/api/batches",
      { centerId: sunrise.id, name: "Wrong plan", startsOn: shift(1), feePlanId: otherPlan._id },
      as(owner),
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe(NOT_A_FEE_PLAN);

    const made = await postJson(
      t,
      "/api/batches",
      { centerId: sunrise.id, name: "Foundation 2027", startsOn: shift(1), capacity: 1, feePlanId: plan._id },
      as(owner),
    );
    expect(made.status).toBe(201);
    const { batch } = await made.json();
    expect(batch.feePlan).toEqual({ _id: plan._id, name: "Batch plan" });
    const accountsUnder = async () =>
      (await get(owner, `/api/fee-accounts?centerId=${sunrise.id}`)).body.accounts
        .filter((a: { feePlanId: string }) => a.feePlanId === plan._id)
        .map((a: { student: { _id: string } }) => a.student._id)
        .sort();

    // The sibling first takes an account under the plan at the desk: admission does not add a second.
    expect((await assign(owner, { studentId: sibling.user._id, feePlanId: plan._id })).status).toBe(201);
    const admitted = await postJson(
      t,
      `/api/batches/${batch._id}/students`,
      { studentIds: [sibling.user._id, student.user._id] },
      as(staffer),
    );
    expect(admitted.status).toBe(200);
    const { waitlisted } = await admitted.json();
    expect(waitlisted.map((w: { studentId: string }) => w.studentId)).toEqual([student.user._id]);
    expect(await accountsUnder()).toEqual([sibling.user._id]);

    // The sibling leaves: the waiting student takes the seat and is assigned the plan.
    const left = await t.request(`/api/batches/${batch._id}/students/${sibling.user._id}`, {
      method: "DELETE",
      ...as(owner),
    });
    expect(left.status).toBe(200);
    expect(await accountsUnder()).toEqual([sibling.user._id, student.user._id].sort());
  });
});

describe("a cheque taken as a payment", () => {
  it("goes into the cheque register: a current one receipted at once, a post-dated one held with no receipt", async () => {
    const plan = (
      await (
        await makePlan(owner, {
          ...YEAR_PLAN,
          name: "Cheque plan",
          instalments: [{ label: "Lump sum", amount: 100_000, dueOn: shift(10) }],
        })
      ).json()
    ).feePlan;
    const { account } = await (await assign(owner, { studentId: sibling.user._id, feePlanId: plan._id })).json();
    const noBank = await pay(staffer, account._id, {
      amount: 10_000,
      mode: "cheque",
      reference: "004600",
      chequeDate: today,
    });
    expect(noBank.status).toBe(400);
    expect((await noBank.json()).error).toBe(BANK_REQUIRED);

    const current = await pay(staffer, account._id, {
      amount: 10_000,
      mode: "cheque",
      reference: "004600",
      chequeDate: today,
      bank: "State Bank of India",
    });
    expect(current.status).toBe(201);
    const taken = await current.json();
    expect(taken.receipt).toMatchObject({ amount: 10_000, mode: "cheque", reference: "004600" });
    expect(taken.cheque).toMatchObject({ number: "004600", status: "held", receipt: { _id: taken.receipt._id } });

    const later = await pay(staffer, account._id, {
      amount: 20_000,
      mode: "dd",
      reference: "DD-7781",
      chequeDate: shift(20),
      bank: "Canara Bank",
    });
    expect(later.status).toBe(201);
    const held = await later.json();
    expect(held.receipt).toBeNull();
    expect(held.cheque).toMatchObject({ kind: "dd", status: "held", receipt: null, chequeDate: shift(20) });
    expect((await get(owner, `/api/fee-accounts/${account._id}`)).body.account.paid).toBe(10_000);

    // The service below the desk refuses a cheque that would skip the register.
    await expect(
      t.services.feeDesk.takeAtDesk(owner.user._id, sunrise.id, account._id, {
        amount: 1_000,
        mode: "cheque",
        reference: "1",
        chequeDate: today,
        bank: "x",
      }),
    ).rejects.toThrow(CHEQUE_ON_CHEQUE_DESK);
  });
});
