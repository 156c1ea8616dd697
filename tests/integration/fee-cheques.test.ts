import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { feeCheques, feeReceipts, memberships } from "../../server/db/schema/index.ts";
import { FeeCheques } from "../../server/services/fees/cheques.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { notAllowed } from "../../server/auth/permissions.ts";
import { NOT_A_MEMBER } from "../../server/api/member-guard.ts";
import type { MemberRole } from "../../common/memberships.ts";
import { addDays, indiaDate } from "../../common/india-dates.ts";
import { FEE_ACCOUNT_NOT_FOUND, FEE_NOTHING_OWED } from "../../common/validation/fees.ts";
import {
  CHEQUE_NOT_FOUND,
  bounceFeeReason,
  chequeBounced,
  chequeMoreThanOwed,
  chequeNotYetDue,
  chequeReturned,
  illegalChequeMove,
  staleCheque,
} from "../../common/validation/fee-cheques.ts";

/**
 * Cheques, DDs and the post-dated cheque register (issue 42 §3) through the API: a current cheque
 * receipted at once; a post-dated one held unreceipted and refused a deposit before its date,
 * receipted when deposited; a bounce reversing the receipt and charging the institute's bounce
 * fee; every other move refused in words; each step kept. The cheque desk runs on a clock the
 * test moves (never real waiting).
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let staffer: Account;
let teacher: Account;
let student: Account;
let otherOwner: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let clock = Date.now();
const today = () => indiaDate(clock);
const DAY = 86_400_000;

const grant = (centerId: string, userId: string, role: MemberRole) =>
  t.database.db
    .insert(memberships)
    .values({ centerId, userId, role, status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();
const as = (who: Account) => ({ headers: bearer(who.access_token) });
const get = async (who: Account, path: string) => {
  const res = await t.request(path, as(who));
  return { status: res.status, body: await res.json() };
};
const takeCheque = (who: Account, accountId: string, body: Record<string, unknown>) =>
  postJson(t, `/api/fee-accounts/${accountId}/cheques`, body, as(who));
const move = (who: Account, chequeId: string, body: Record<string, unknown>) =>
  postJson(t, `/api/fee-cheques/${chequeId}/status`, body, as(who));

let accountId = "";
const account = async () => (await get(owner, `/api/fee-accounts/${accountId}`)).body.account;

beforeAll(async () => {
  t = await createTestApp();
  // The cheque desk reads its date from this clock; the desk itself dates what it is given.
  t.services.feeCheques = new FeeCheques({ db: t.database.db, desk: t.services.feeDesk, now: () => new Date(clock) });
  owner = await register(t, "business", { name: "Anita Sharma" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  staffer = await register(t, "business", { name: "Front Desk Farah" });
  teacher = await register(t, "creator", { name: "Kavya Iyer" });
  student = await register(t, "student", { name: "Priya Das" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "cheque-sunrise" });
  await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "cheque-vidya" });
  await grant(sunrise.id, staffer.user._id, "staff");
  await grant(sunrise.id, teacher.user._id, "teacher");
  await grant(sunrise.id, student.user._id, "student");
  const plan = await postJson(
    t,
    "/api/fee-plans",
    {
      centerId: sunrise.id,
      name: "NEET 2027 two instalments",
      heads: [{ name: "Tuition", amount: 100_000 }],
      instalments: [
        { label: "At admission", amount: 60_000, dueOn: addDays(today(), -5) },
        { label: "Second instalment", amount: 40_000, dueOn: addDays(today(), 30) },
      ],
    },
    as(owner),
  );
  const assigned = await postJson(
    t,
    "/api/fee-accounts",
    { centerId: sunrise.id, studentId: student.user._id, feePlanId: (await plan.json()).feePlan._id },
    as(owner),
  );
  accountId = (await assigned.json()).account._id;
});
afterAll(() => t.close());

describe("cheques at the desk", () => {
  it("receipts a cheque dated today at once, held with its receipt", async () => {
    const res = await takeCheque(staffer, accountId, {
      kind: "cheque",
      number: "004512",
      bank: "State Bank of India",
      chequeDate: today(),
      amount: 20_000,
    });
    expect(res.status).toBe(201);
    const { cheque } = await res.json();
    expect(cheque).toMatchObject({
      kind: "cheque",
      number: "004512",
      bank: "State Bank of India",
      chequeDate: today(),
      amount: 20_000,
      status: "held",
      student: { name: "Priya Das" },
    });
    expect(cheque.receipt.number).toMatch(/^RCT\/\d\d-\d\d\/\d{5}$/);
    const receipt = (await get(owner, `/api/fee-receipts/${cheque.receipt._id}`)).body.receipt;
    expect(receipt).toMatchObject({ amount: 20_000, mode: "cheque", reference: "004512", chequeDate: today() });
    expect(receipt.allocations).toEqual([expect.objectContaining({ label: "At admission", amount: 20_000 })]);
    expect((await account()).paid).toBe(20_000);
    expect(cheque.events).toEqual([expect.objectContaining({ from: null, to: "held", by: "Front Desk Farah" })]);
  });

  it("refuses bad cheques, storing nothing", async () => {
    const before = (await t.database.db.select().from(feeCheques)).length;
    const stale = await takeCheque(owner, accountId, {
      kind: "cheque",
      number: "000111",
      bank: "Canara Bank",
      chequeDate: addDays(today(), -100),
      amount: 1_000,
    });
    expect(stale.status).toBe(400);
    expect((await stale.json()).error).toBe(staleCheque(addDays(today(), -100)));
    const noBank = await takeCheque(owner, accountId, {
      kind: "dd",
      number: "000112",
      chequeDate: today(),
      amount: 1_000,
    });
    expect(noBank.status).toBe(400);
    expect((await noBank.json()).error).toBe("The bank is required");
    const kind = await takeCheque(owner, accountId, {
      kind: "card",
      number: "1",
      bank: "x",
      chequeDate: today(),
      amount: 1,
    });
    expect(kind.status).toBe(400);
    expect((await kind.json()).error).toBe('Kind must be "cheque" or "dd"');
    const tooMuch = await takeCheque(owner, accountId, {
      kind: "cheque",
      number: "000113",
      bank: "Canara Bank",
      chequeDate: addDays(today(), 10),
      amount: 80_001,
    });
    expect(tooMuch.status).toBe(409);
    expect((await tooMuch.json()).error).toBe(chequeMoreThanOwed(80_000));
    expect((await t.database.db.select().from(feeCheques)).length).toBe(before);
  });

  let pdc = "";
  it("holds a post-dated cheque unreceipted in the register, and refuses its deposit before its date", async () => {
    const paidBefore = (await account()).paid;
    const res = await takeCheque(staffer, accountId, {
      kind: "cheque",
      number: "004513",
      bank: "HDFC Bank",
      chequeDate: addDays(today(), 10),
      amount: 40_000,
    });
    expect(res.status).toBe(201);
    const { cheque } = await res.json();
    pdc = cheque._id;
    expect(cheque).toMatchObject({ status: "held", receipt: null, amount: 40_000 });
    expect((await account()).paid).toBe(paidBefore);
    // Post-dated cheques may not promise more than is owed beyond those already held.
    const beyond = await takeCheque(staffer, accountId, {
      kind: "cheque",
      number: "004514",
      bank: "HDFC Bank",
      chequeDate: addDays(today(), 40),
      amount: 40_001,
    });
    expect(beyond.status).toBe(409);
    expect((await beyond.json()).error).toBe(chequeMoreThanOwed(40_000));

    const register = await get(owner, `/api/fee-cheques?centerId=${sunrise.id}&status=held`);
    expect(register.status).toBe(200);
    expect(register.body.cheques.map((c: { number: string }) => c.number)).toEqual(["004512", "004513"]);

    const early = await move(staffer, pdc, { status: "deposited" });
    expect(early.status).toBe(409);
    expect((await early.json()).error).toBe(chequeNotYetDue(addDays(today(), 10)));
    expect((await account()).paid).toBe(paidBefore);
  });

  it("receipts the post-dated cheque when it is deposited on its date; it clears", async () => {
    clock += 10 * DAY;
    const res = await move(staffer, pdc, { status: "deposited", note: "Paying-in slip 88" });
    expect(res.status).toBe(200);
    const { cheque } = await res.json();
    expect(cheque.status).toBe("deposited");
    expect(cheque.receipt).toMatchObject({ reversed: false });
    const receipt = (await get(owner, `/api/fee-receipts/${cheque.receipt._id}`)).body.receipt;
    expect(receipt).toMatchObject({ amount: 40_000, mode: "cheque", reference: "004513", paidOn: today() });
    expect((await account()).paid).toBe(60_000);
    const cleared = await move(owner, pdc, { status: "cleared" });
    expect(cleared.status).toBe(200);
    expect((await cleared.json()).cheque.events.map((e: { to: string }) => e.to)).toEqual([
      "held",
      "deposited",
      "cleared",
    ]);
    const again = await move(owner, pdc, { status: "bounced" });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(illegalChequeMove("cleared", "bounced"));
  });

  it("bounces a cheque: its receipt reversed in its words, the bounce fee charged on the oldest open due, every step kept", async () => {
    const saved = await t.request("/api/fee-settings", {
      method: "PUT",
      headers: { ...bearer(owner.access_token), "content-type": "application/json" },
      body: JSON.stringify({
        centerId: sunrise.id,
        remindDaysBefore: 3,
        remindOnDay: true,
        remindDaysAfter: 3,
        defaulterAfterDays: 15,
        bounceFee: 500,
        allowPartialOnline: false,
      }),
    });
    expect(saved.status).toBe(200);
    const [first] = (await get(owner, `/api/fee-cheques?centerId=${sunrise.id}&status=held`)).body.cheques;
    expect(first.number).toBe("004512");
    const before = await account();
    expect((await move(staffer, first._id, { status: "deposited" })).status).toBe(200);
    const res = await move(staffer, first._id, { status: "bounced", note: "Funds insufficient (memo 01)" });
    expect(res.status).toBe(200);
    const { cheque } = await res.json();
    expect(cheque.status).toBe("bounced");
    expect(cheque.receipt.reversed).toBe(true);
    const receipt = (await get(owner, `/api/fee-receipts/${cheque.receipt._id}`)).body.receipt;
    expect(receipt.reversed).toMatchObject({ reason: chequeBounced("004512") });
    const after = await account();
    expect(after.paid).toBe(before.paid - 20_000);
    expect(after.balance).toBe(before.balance + 20_000 + 500);
    const charges = after.ledger.filter((e: { kind: string }) => e.kind === "charge");
    expect(charges).toEqual([
      expect.objectContaining({ amount: 500, reason: bounceFeeReason("004512"), dueId: after.dues[0]._id }),
    ]);
    expect(cheque.events.map((e: { from: string | null; to: string; note: string | null; by: string }) => e)).toEqual([
      expect.objectContaining({ from: null, to: "held", by: "Front Desk Farah" }),
      expect.objectContaining({ from: "held", to: "deposited", note: null }),
      expect.objectContaining({
        from: "deposited",
        to: "bounced",
        note: "Funds insufficient (memo 01)",
        by: "Front Desk Farah",
      }),
    ]);
    const twice = await move(staffer, first._id, { status: "bounced" });
    expect(twice.status).toBe(409);
    expect((await twice.json()).error).toBe(illegalChequeMove("bounced", "bounced"));
    expect((await account()).balance).toBe(after.balance);
  });

  it("refuses every other move in words, and an unknown status", async () => {
    const res = await takeCheque(owner, accountId, {
      kind: "dd",
      number: "DD-7781",
      bank: "Bank of Baroda",
      chequeDate: today(),
      amount: 1_000,
    });
    const { cheque } = await res.json();
    for (const status of ["cleared", "bounced"]) {
      const refused = await move(owner, cheque._id, { status });
      expect(refused.status).toBe(409);
      expect((await refused.json()).error).toBe(illegalChequeMove("held", status));
    }
    const unknown = await move(owner, cheque._id, { status: "held" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toBe('Status must be one of "deposited", "cleared", "bounced" or "returned"');
    // Given back undeposited: the receipt it had is reversed, no bounce fee.
    const balance = (await account()).balance;
    const returned = await move(owner, cheque._id, { status: "returned", note: "Wrong payee" });
    expect(returned.status).toBe(200);
    const back = (await returned.json()).cheque;
    expect(back.status).toBe("returned");
    const receipt = (await get(owner, `/api/fee-receipts/${back.receipt._id}`)).body.receipt;
    expect(receipt.reversed).toMatchObject({ reason: chequeReturned("DD-7781") });
    expect((await account()).balance).toBe(balance + 1_000);
    const deposit = await move(owner, cheque._id, { status: "deposited" });
    expect(deposit.status).toBe(409);
    expect((await deposit.json()).error).toBe(illegalChequeMove("returned", "deposited"));
  });

  it("deposits a post-dated cheque once when two desks deposit it at once", async () => {
    const res = await takeCheque(owner, accountId, {
      kind: "cheque",
      number: "004520",
      bank: "Axis Bank",
      chequeDate: addDays(today(), 2),
      amount: 5_000,
    });
    const { cheque } = await res.json();
    clock += 2 * DAY;
    const receiptsBefore = (await t.database.db.select().from(feeReceipts)).length;
    const [a, b] = await Promise.all([
      move(owner, cheque._id, { status: "deposited" }),
      move(staffer, cheque._id, { status: "deposited" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await t.database.db.select().from(feeReceipts)).length).toBe(receiptsBefore + 1);
    const [row] = await t.database.db.select().from(feeCheques).where(eq(feeCheques.id, cheque._id));
    expect(row.status).toBe("deposited");
  });

  it("lets only the institute's owners and staff take cheques and see the register", async () => {
    const body = { kind: "cheque", number: "1", bank: "x", chequeDate: today(), amount: 1 };
    for (const who of [student, teacher, otherOwner]) {
      const res = await takeCheque(who, accountId, body);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toBe(FEE_ACCOUNT_NOT_FOUND);
    }
    const [any] = (await get(owner, `/api/fee-cheques?centerId=${sunrise.id}`)).body.cheques;
    const foreign = await move(otherOwner, any._id, { status: "returned" });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error).toBe(CHEQUE_NOT_FOUND);
    const teacherList = await get(teacher, `/api/fee-cheques?centerId=${sunrise.id}`);
    expect(teacherList.status).toBe(403);
    expect(teacherList.body.error).toBe(notAllowed("fees.manage"));
    const stranger = await get(otherOwner, `/api/fee-cheques?centerId=${sunrise.id}`);
    expect(stranger.status).toBe(403);
    expect(stranger.body.error).toBe(NOT_A_MEMBER);
    expect((await get(student, `/api/fee-cheques?centerId=${sunrise.id}`)).status).toBe(403);
  });

  it("refuses a cheque on an account that owes nothing", async () => {
    const { balance } = await account();
    const pay = await postJson(
      t,
      `/api/fee-accounts/${accountId}/payments`,
      { amount: balance, mode: "cash" },
      as(owner),
    );
    expect(pay.status).toBe(201);
    const res = await takeCheque(owner, accountId, {
      kind: "cheque",
      number: "004599",
      bank: "Axis Bank",
      chequeDate: today(),
      amount: 100,
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(FEE_NOTHING_OWED);
  });
});
