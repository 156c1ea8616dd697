import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { like } from "drizzle-orm";
import { feeSettings, messages } from "../../server/db/schema/index.ts";
import { FeeDues, NO_BATCH } from "../../server/services/fees/dues.ts";
import { FeeCheques } from "../../server/services/fees/cheques.ts";
import { FeeDesk } from "../../server/services/fees/desk.ts";
import { FeeReminders } from "../../server/messages/fee-reminders.ts";
import { ledgerDues } from "../../server/services/fees/statements.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { loginOn, register } from "../helpers/learning.ts";
import { admitStudents, grantRole, makeBatch } from "../helpers/attendance-rows.ts";
import { notAllowed } from "../../server/auth/permissions.ts";
import { NOT_A_MEMBER } from "../../server/api/member-guard.ts";
import { addDays, indiaInstant } from "../../common/india-dates.ts";
import { FEE_ACCOUNT_NOT_FOUND } from "../../common/validation/fees.ts";
import { COLLECTION_TEXTS, FEE_NOTHING_OVERDUE, alreadyReminded } from "../../common/validation/fee-dues.ts";

/**
 * Dues at a glance through the API (issue 42 §5): the collection by day and mode with a reversed
 * receipt listed and not counted, its CSV for the accountant, defaulters by days overdue, what is
 * outstanding by batch and by student, the one-click reminder once a day, and who may see any of
 * it. The server's clock is injected: every date here is relative to 15 June 2027, India time.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let staffer: Account;
let teacher: Account;
let otherOwner: Account;
let asha: Account;
let bilal: Account;
let chitra: Account;
let dev: Account;
let esha: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let vidya: Awaited<ReturnType<typeof createCenter>>;
let morning: { _id: string; name: string };
let evening: { _id: string; name: string };
const ids: Record<string, string> = {};

const D = "2027-06-15";
let clock = indiaInstant(D, 10 * 60);
const as = (who: Account, host?: string) => ({ headers: bearer(who.access_token), host });
const get = async (who: Account, path: string, host?: string) => {
  const res = await t.request(path, as(who, host));
  return { status: res.status, body: await res.json() };
};

/** A plan of Sunrise's (rupees) assigned to each student; their accounts' ids by name. */
async function plan(name: string, instalments: { label: string; amount: number; dueOn: string }[]) {
  return t.services.feePlans.create(owner.user._id, sunrise.id, {
    name,
    heads: [{ name: "Tuition", amount: instalments.reduce((s, i) => s + i.amount, 0) }],
    instalments,
  });
}
const assign = async (student: Account, feePlanId: string) =>
  (await t.services.feeAccounts.assign(owner.user._id, sunrise.id, { studentId: student.user._id, feePlanId }))._id;
const pay = (accountId: string, body: Record<string, unknown>) =>
  t.services.feeDesk.takeAtDesk(owner.user._id, sunrise.id, accountId, body);

beforeAll(async () => {
  t = await createTestApp();
  // The server's clock, for every service that reads today.
  const now = () => clock;
  t.services.feeDues = new FeeDues({ db: t.database.db, now });
  t.services.feeDesk = new FeeDesk({ db: t.database.db, now });
  t.services.feeReminders = new FeeReminders({
    db: t.database.db,
    messages: t.services.messages,
    links: t.services.links,
    ledger: ledgerDues,
    now,
  });
  owner = await register(t, "business", { name: "Anita Sharma" });
  staffer = await register(t, "business", { name: "Front Desk Farah" });
  teacher = await register(t, "creator", { name: "Kavya Iyer" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  asha = await register(t, "student", { name: "Asha Verma" });
  bilal = await register(t, "student", { name: "Bilal Khan" });
  chitra = await register(t, "student", { name: "Chitra Nair" });
  dev = await register(t, "student", { name: "Dev Malhotra" });
  esha = await register(t, "student", { name: "Esha Gupta" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "dues-sunrise" });
  vidya = await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "dues-vidya" });
  await grantRole(t, sunrise.id, staffer.user._id, "staff");
  await grantRole(t, sunrise.id, teacher.user._id, "teacher");
  for (const s of [asha, bilal, chitra, dev, esha]) await grantRole(t, sunrise.id, s.user._id, "student");
  morning = await makeBatch(t, owner.access_token, sunrise.id, { name: "JEE 2027 Morning" });
  evening = await makeBatch(t, owner.access_token, sunrise.id, { name: "JEE 2027 Evening" });
  await admitStudents(t, owner.access_token, evening._id, [dev.user._id], new Date("2027-04-01T00:00:00Z"));
  await admitStudents(
    t,
    owner.access_token,
    morning._id,
    [asha.user._id, bilal.user._id],
    new Date("2027-04-01T00:00:00Z"),
  );

  const year = await plan("JEE 2027 Morning, three instalments", [
    { label: "First", amount: 30_000, dueOn: addDays(D, -40) },
    { label: "Second", amount: 20_000, dueOn: addDays(D, -10) },
    { label: "Third", amount: 50_000, dueOn: addDays(D, 30) },
  ]);
  const crash = await plan("Crash course", [{ label: "Lump sum", amount: 12_000, dueOn: addDays(D, -20) }]);
  ids.asha = await assign(asha, year._id);
  ids.bilal = await assign(bilal, year._id);
  ids.chitra = await assign(chitra, year._id);
  ids.dev = await assign(dev, crash._id);
  ids.esha = await assign(esha, crash._id);
  await pay(ids.asha, { amount: 30_000, mode: "cash", paidOn: addDays(D, -41) });
  await pay(ids.chitra, { amount: 60_000, mode: "upi", reference: "UPI-7781", paidOn: addDays(D, -2) });
  // A cheque comes through the cheque desk, receipted the day it is taken (the clock on that day).
  clock = indiaInstant(addDays(D, -1), 10 * 60);
  await new FeeCheques({ db: t.database.db, desk: t.services.feeDesk, now }).take(
    owner.user._id,
    sunrise.id,
    ids.chitra,
    { kind: "cheque", number: "004512", bank: "State Bank of India", chequeDate: addDays(D, -1), amount: 40_000 },
  );
  clock = indiaInstant(D, 10 * 60);
  const wrong = await pay(ids.esha, { amount: 5_000, mode: "cash", paidOn: addDays(D, -2) });
  ids.wrongReceipt = wrong._id;
  await t.services.feeDesk.reverse(owner.user._id, sunrise.id, wrong._id, { reason: "Counted short at closing" });
});
afterAll(() => t.close());

describe("collections", () => {
  it("totals receipts by day and by mode; a reversed one is listed and not counted", async () => {
    const { status, body } = await get(
      owner,
      `/api/fees/collections?centerId=${sunrise.id}&from=${addDays(D, -2)}&to=${D}`,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      from: addDays(D, -2),
      to: D,
      total: 100_000,
      count: 2,
      reversed: { amount: 5_000, count: 1 },
      byDay: [
        { date: addDays(D, -2), amount: 60_000, count: 1 },
        { date: addDays(D, -1), amount: 40_000, count: 1 },
      ],
      byMode: [
        { mode: "cheque", amount: 40_000, count: 1 },
        { mode: "upi", amount: 60_000, count: 1 },
      ],
    });
    expect(body.receipts).toHaveLength(3);
    expect(body.receipts.find((r: { _id: string }) => r._id === ids.wrongReceipt)).toMatchObject({
      name: "Esha Gupta",
      amount: 5_000,
      mode: "cash",
      reversed: { reason: "Counted short at closing" },
    });
    // Neither date: this month so far, by the server's clock (Asha's May payment is not in it).
    const month = await get(staffer, `/api/fees/collections?centerId=${sunrise.id}`);
    expect(month.body).toMatchObject({ from: "2027-06-01", to: D, total: 100_000 });
  });

  it("gives the accountant a CSV, by format=csv or Accept: text/csv", async () => {
    for (const [query, headers] of [
      ["&format=csv", {}],
      ["", { accept: "text/csv" }],
    ] as const) {
      const res = await t.request(
        `/api/fees/collections?centerId=${sunrise.id}&from=${addDays(D, -2)}&to=${D}${query}`,
        {
          headers: { ...bearer(owner.access_token), ...headers },
        },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="collections-${addDays(D, -2)}-to-${D}.csv"`,
      );
      const lines = (await res.text()).replace(/^\ufeff/, "").split("\r\n");
      expect(lines[0]).toBe("Receipt,Paid on,Student,Fee plan,Mode,Reference,Amount (₹),Reversed,Reversal reason");
      // Newest first: the cheque, then the day before's reversed cash receipt and the UPI payment.
      expect(lines.slice(1).map((l) => l.replace(/^RCT\/\d\d-\d\d\/\d{5},/, ""))).toEqual([
        `${addDays(D, -1)},Chitra Nair,"JEE 2027 Morning, three instalments",Cheque,004512,40000.00,No,`,
        `${addDays(D, -2)},Esha Gupta,Crash course,Cash,,5000.00,Yes,Counted short at closing`,
        `${addDays(D, -2)},Chitra Nair,"JEE 2027 Morning, three instalments",UPI,UPI-7781,60000.00,No,`,
        "",
      ]);
    }
  });

  it("refuses a range in the product's words", async () => {
    const only = await get(owner, `/api/fees/collections?centerId=${sunrise.id}&from=${D}`);
    expect(only.status).toBe(400);
    expect(only.body.error).toBe(COLLECTION_TEXTS.both);
    const backwards = await get(owner, `/api/fees/collections?centerId=${sunrise.id}&from=${D}&to=${addDays(D, -1)}`);
    expect(backwards.body.error).toBe(COLLECTION_TEXTS.order);
    const long = await get(owner, `/api/fees/collections?centerId=${sunrise.id}&from=2026-01-01&to=${D}`);
    expect(long.body.error).toBe(COLLECTION_TEXTS.long);
    const notDate = await get(owner, `/api/fees/collections?centerId=${sunrise.id}&from=2027-02-30&to=${D}`);
    expect(notDate.body.error).toBe(COLLECTION_TEXTS.from);
  });
});

describe("defaulters", () => {
  it("lists those overdue by more than the days asked, else 15, longest first, from the ledger", async () => {
    const { status, body } = await get(owner, `/api/fees/defaulters?centerId=${sunrise.id}`);
    expect(status).toBe(200);
    expect(body.overdueDays).toBe(15);
    expect(body.students).toEqual([
      {
        studentId: bilal.user._id,
        name: "Bilal Khan",
        accountId: ids.bilal,
        planName: "JEE 2027 Morning, three instalments",
        overdue: 50_000,
        oldestDueOn: addDays(D, -40),
        daysOverdue: 40,
      },
      {
        studentId: dev.user._id,
        name: "Dev Malhotra",
        accountId: ids.dev,
        planName: "Crash course",
        overdue: 12_000,
        oldestDueOn: addDays(D, -20),
        daysOverdue: 20,
      },
      expect.objectContaining({ name: "Esha Gupta", overdue: 12_000, daysOverdue: 20 }),
    ]);
    const five = await get(owner, `/api/fees/defaulters?centerId=${sunrise.id}&overdueDays=5`);
    expect(five.body.students.map((s: { name: string }) => s.name)).toEqual([
      "Bilal Khan",
      "Dev Malhotra",
      "Esha Gupta",
      "Asha Verma",
    ]);
    expect(five.body.students[3]).toMatchObject({ overdue: 20_000, daysOverdue: 10, oldestDueOn: addDays(D, -10) });
    const thirty = await get(owner, `/api/fees/defaulters?centerId=${sunrise.id}&overdueDays=30`);
    expect(thirty.body.students.map((s: { name: string }) => s.name)).toEqual(["Bilal Khan"]);
    const bad = await get(owner, `/api/fees/defaulters?centerId=${sunrise.id}&overdueDays=-1`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(COLLECTION_TEXTS.overdueDays);
  });

  it("move with the clock: a day later Asha's second instalment is 11 days overdue", async () => {
    clock = indiaInstant(addDays(D, 1), 10 * 60);
    try {
      const { body } = await get(owner, `/api/fees/defaulters?centerId=${sunrise.id}&overdueDays=10`);
      expect(body.students.find((s: { name: string }) => s.name === "Asha Verma")).toMatchObject({ daysOverdue: 11 });
    } finally {
      clock = indiaInstant(D, 10 * 60);
    }
  });

  it("remind a defaulter in one click, once a day, with what is overdue and the Fees page", async () => {
    const remind = (who: Account, accountId: string) =>
      postJson(t, `/api/fees/defaulters/${accountId}/remind`, {}, as(who));
    const res = await remind(staffer, ids.bilal);
    expect(res.status).toBe(201);
    expect((await res.json()).reminder).toMatchObject({
      accountId: ids.bilal,
      name: "Bilal Khan",
      amount: 50_000,
      on: D,
    });
    const sent = await t.database.db.select().from(messages).where(like(messages.dedupeKey, "fee-reminder:%"));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ template: "fee-reminder-after", channel: "email", recipient: bilal.email });
    expect(sent[0].text).toBe(
      `Bilal Khan, ₹50,000 for First, Second was due on 6 May 2027 at Sunrise Academy and is still unpaid. Pay: ${t.services.links.to(
        { slug: "dues-sunrise", customDomain: sunrise.customDomain },
        "/student/fees",
      )}`,
    );
    const again = await remind(owner, ids.bilal);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(alreadyReminded("Bilal Khan"));
    clock = indiaInstant(addDays(D, 1), 10 * 60);
    try {
      expect((await remind(owner, ids.bilal)).status).toBe(201);
    } finally {
      clock = indiaInstant(D, 10 * 60);
    }
    const settled = await remind(owner, ids.chitra);
    expect(settled.status).toBe(409);
    expect((await settled.json()).error).toBe(FEE_NOTHING_OVERDUE);
    expect(await t.database.db.select().from(messages).where(like(messages.dedupeKey, "fee-reminder:%"))).toHaveLength(
      2,
    );
  });

  it("take the institute's own defaulter days when it saved them", async () => {
    await t.database.db.insert(feeSettings).values({ centerId: sunrise.id, defaulterAfterDays: 25 });
    try {
      const { body } = await get(owner, `/api/fees/defaulters?centerId=${sunrise.id}`);
      expect(body.overdueDays).toBe(25);
      expect(body.students.map((s: { name: string }) => s.name)).toEqual(["Bilal Khan"]);
    } finally {
      await t.database.db.delete(feeSettings);
    }
  });
});

describe("outstanding", () => {
  it("by student: what each owes and how much of it is overdue, largest first", async () => {
    const { status, body } = await get(owner, `/api/fees/outstanding?centerId=${sunrise.id}&by=student`);
    expect(status).toBe(200);
    expect(body).toEqual({
      by: "student",
      rows: [
        { _id: bilal.user._id, name: "Bilal Khan", accounts: 1, balance: 100_000, overdue: 50_000 },
        { _id: asha.user._id, name: "Asha Verma", accounts: 1, balance: 70_000, overdue: 20_000 },
        { _id: dev.user._id, name: "Dev Malhotra", accounts: 1, balance: 12_000, overdue: 12_000 },
        { _id: esha.user._id, name: "Esha Gupta", accounts: 1, balance: 12_000, overdue: 12_000 },
      ],
      balance: 194_000,
      overdue: 94_000,
    });
  });

  it("by batch: the student's batch with that plan, else their batch, else none; the batches add up to the whole", async () => {
    const { body } = await get(owner, `/api/fees/outstanding?centerId=${sunrise.id}`);
    expect(body).toEqual({
      by: "batch",
      rows: [
        { _id: morning._id, name: "JEE 2027 Morning", accounts: 2, balance: 170_000, overdue: 70_000 },
        { _id: evening._id, name: "JEE 2027 Evening", accounts: 1, balance: 12_000, overdue: 12_000 },
        { _id: null, name: NO_BATCH, accounts: 1, balance: 12_000, overdue: 12_000 },
      ],
      balance: 194_000,
      overdue: 94_000,
    });
    const bad = await get(owner, `/api/fees/outstanding?centerId=${sunrise.id}&by=month`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(COLLECTION_TEXTS.by);
  });
});

describe("who may see dues", () => {
  it("owners and staff; a teacher or a student of the institute 403; another institute's owner nothing", async () => {
    const onVidya = { ...otherOwner, access_token: await loginOn(t, "dues-vidya.test", otherOwner.email) };
    for (const path of ["collections", "defaulters", "outstanding"]) {
      expect((await get(staffer, `/api/fees/${path}?centerId=${sunrise.id}`)).status).toBe(200);
      const byTeacher = await get(teacher, `/api/fees/${path}?centerId=${sunrise.id}`);
      expect(byTeacher.status).toBe(403);
      expect(byTeacher.body.error).toBe(notAllowed("fees.manage"));
      const byStudent = await get(bilal, `/api/fees/${path}?centerId=${sunrise.id}`);
      expect(byStudent.status).toBe(403);
      expect(byStudent.body.error).toBe(notAllowed("fees.manage"));
      const byOther = await get(otherOwner, `/api/fees/${path}?centerId=${sunrise.id}`);
      expect(byOther.status).toBe(403);
      expect(byOther.body.error).toBe(NOT_A_MEMBER);
      // On another institute's domain, Sunrise's dues are not there to be found.
      const elsewhere = await get(onVidya, `/api/fees/${path}?centerId=${sunrise.id}`, "dues-vidya.test");
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body.error).toBe("Institute not found");
      // Vidya's own dues: empty, never Sunrise's.
      const own = await get(otherOwner, `/api/fees/${path}?centerId=${vidya.id}`);
      expect(own.status).toBe(200);
      expect(JSON.stringify(own.body)).not.toContain("Bilal");
    }
  });

  it("a reminder only by the account's institute: another owner, the student himself and a bad id find nothing", async () => {
    for (const who of [otherOwner, bilal]) {
      const res = await postJson(t, `/api/fees/defaulters/${ids.bilal}/remind`, {}, as(who));
      expect(res.status).toBe(404);
      expect((await res.json()).error).toBe(FEE_ACCOUNT_NOT_FOUND);
    }
    const bad = await postJson(t, "/api/fees/defaulters/not-an-id/remind", {}, as(owner));
    expect(bad.status).toBe(404);
  });
});
