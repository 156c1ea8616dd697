import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { attempts, contents, feeEntries, memberships, mockTests } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import type { FeeAccountJson } from "../../common/validation/fees.ts";
import {
  SCHOLARSHIP_SKIPPED,
  SCHOLARSHIP_SLABS_OVERLAP,
  type ScholarshipAwardJson,
} from "../../common/validation/fee-scholarships.ts";

/**
 * Scholarships by the institute's own admission-cum-scholarship test (issue 42 §2): rank slabs on
 * a mock test's rank list, stacked first with the 100 % cap, with reason and approver, once.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let center: Awaited<ReturnType<typeof createCenter>>;
let testId: string;
let planId: string;
const people: Record<string, Account> = {};
const accounts: Record<string, FeeAccountJson> = {};

const as = (who: Account) => ({ headers: bearer(who.access_token) });
const award = (body: Record<string, unknown>, who = owner) =>
  postJson(t, "/api/fees/scholarships", { centerId: center.id, testId, feePlanId: planId, ...body }, as(who));
const account = async (id: string) =>
  ((await (await t.request(`/api/fee-accounts/${id}`, as(owner))).json()) as { account: FeeAccountJson }).account;

const SLABS = [
  { from: 1, to: 1, percent: 100 },
  { from: 2, to: 5, percent: 50 },
  { from: 6, to: 20, percent: 25 },
];

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  center = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "fsch-sunrise" });
  const [content] = await t.database.db
    .insert(contents)
    .values({ creatorId: owner.user._id, centerId: center.id, type: "test", title: "Sunrise Scholarship Test 2026" })
    .returning();
  testId = content.id;
  await t.database.db.insert(mockTests).values({
    contentId: testId,
    centerId: center.id,
    pattern: "jee-main-2025",
    durationMinutes: 180,
    sections: [],
    status: "published",
  });
  const plan = await postJson(
    t,
    "/api/fee-plans",
    {
      centerId: center.id,
      name: "JEE 2027 Target",
      heads: [{ name: "Tuition", amount: 100_000 }],
      instalments: [
        { label: "First", amount: 60_000, dueOn: "2027-04-10" },
        { label: "Second", amount: 40_000, dueOn: "2027-10-10" },
      ],
    },
    as(owner),
  );
  planId = ((await plan.json()) as { feePlan: { _id: string } }).feePlan._id;
  // Topper (rank 1), second (rank 3, with a sibling discount already), twelfth (rank 12, paid ₹90,000),
  // fiftieth (rank 50), one who never sat the test, and one who left.
  const cast = [
    { key: "topper", rank: 1 },
    { key: "sibling", rank: 3, discount: { kind: "sibling", percent: 10, reason: "Brother in JEE 2026" } },
    { key: "paid", rank: 12, paid: 90_000 },
    { key: "far", rank: 50 },
    { key: "absent", rank: null },
    // Rank 4, paid ₹20,000 in cash, then left and was refunded ₹5,000 of it.
    { key: "leaver", rank: 4, paid: 20_000, left: true },
  ];
  for (const c of cast) {
    const who = await register(t, "student", { name: c.key });
    people[c.key] = who;
    await t.database.db
      .insert(memberships)
      .values({ centerId: center.id, userId: who.user._id, role: "student", status: "active", acceptedAt: new Date() });
    const res = await postJson(
      t,
      "/api/fee-accounts",
      { centerId: center.id, studentId: who.user._id, feePlanId: planId, discounts: c.discount ? [c.discount] : [] },
      as(owner),
    );
    accounts[c.key] = ((await res.json()) as { account: FeeAccountJson }).account;
    if (c.paid)
      await postJson(
        t,
        `/api/fee-accounts/${accounts[c.key]._id}/payments`,
        { amount: c.paid, mode: "cash" },
        as(owner),
      );
    if (c.left) {
      const refunded = await postJson(
        t,
        `/api/fee-accounts/${accounts[c.key]._id}/refunds`,
        {
          leftOn: "2026-06-01",
          courseFrom: "2026-04-01",
          courseTo: "2027-03-31",
          amount: 5_000,
          reason: "Moved to Kota",
          mode: "cash",
        },
        as(owner),
      );
      expect(refunded.status, await refunded.clone().text()).toBe(201);
    }
    if (c.rank !== null) {
      const started = new Date(Date.now() - 4 * 3600_000);
      // Two attempts for the topper: their best rank counts.
      for (const rank of c.key === "topper" ? [30, 1] : [c.rank])
        await t.database.db.insert(attempts).values({
          testId,
          studentId: who.user._id,
          centerId: center.id,
          number: rank === 30 ? 2 : 1,
          startedAt: started,
          deadline: new Date(started.getTime() + 3 * 3600_000),
          submittedAt: new Date(started.getTime() + 2 * 3600_000),
          score: 10_000 - rank,
          rank,
          takers: 4,
        });
    }
  }
});
afterAll(() => t.close());

describe("scholarships from a mock test's rank slabs", () => {
  it("refuses bad slabs in words and changes nothing", async () => {
    const overlap = await award({ slabs: [SLABS[1], { from: 5, to: 9, percent: 10 }] });
    expect(overlap.status).toBe(400);
    expect((await overlap.json()).error).toBe(SCHOLARSHIP_SLABS_OVERLAP);
    const above = await award({ slabs: [{ from: 1, to: 1, percent: 120 }] });
    expect(above.status).toBe(400);
    expect((await above.json()).error).toBe("A scholarship cannot be more than 100 %");
    const backwards = await award({ slabs: [{ from: 5, to: 2, percent: 10 }] });
    expect((await backwards.json()).error).toBe("A slab's last rank must not be before its first");
    expect((await award({ slabs: SLABS }, people.topper)).status).toBe(403);
    const entries = await t.database.db
      .select()
      .from(feeEntries)
      .where(and(eq(feeEntries.centerId, center.id), eq(feeEntries.kind, "discount")));
    expect(entries.every((e) => e.discount?.kind !== "scholarship")).toBe(true);
  });

  it("applies each rank's slab once, stacked first, capped, with reason and approver", async () => {
    const res = await award({ slabs: SLABS });
    expect(res.status, await res.clone().text()).toBe(200);
    const { awards } = (await res.json()) as { awards: ScholarshipAwardJson[] };
    const by = Object.fromEntries(awards.map((a) => [a.student.name, a]));
    expect(Object.keys(by).sort()).toEqual(["far", "leaver", "paid", "sibling", "topper"]);
    expect(by.topper).toMatchObject({ rank: 1, percent: 100, amount: 100_000, skipped: null });
    // Scholarship first: 50 % of ₹1,00,000, then the sibling's 10 % of what is left (₹5,000, not ₹10,000):
    // ₹55,000 off in all, of which ₹10,000 was given already.
    expect(by.sibling).toMatchObject({ rank: 3, percent: 50, amount: 45_000, skipped: null });
    // 25 % would be ₹25,000, but only ₹10,000 is still unpaid: never more than what is left to pay.
    expect(by.paid).toMatchObject({ rank: 12, percent: 25, amount: 10_000, skipped: null });
    expect(by.far).toMatchObject({ rank: 50, percent: null, amount: 0, skipped: SCHOLARSHIP_SKIPPED.noSlab });
    // A student who left is settled by the refund: no discount reopens the closed account.
    expect(by.leaver).toMatchObject({ rank: 4, percent: 50, amount: 0, skipped: SCHOLARSHIP_SKIPPED.refunded });
    expect((await account(accounts.leaver._id)).discount).toBe(0);

    expect(await account(accounts.topper._id)).toMatchObject({ discount: 100_000, balance: 0 });
    expect(await account(accounts.sibling._id)).toMatchObject({ discount: 55_000, balance: 45_000 });
    const paid = await account(accounts.paid._id);
    expect(paid).toMatchObject({ balance: 0, paid: 90_000 });
    expect(paid.dues.every((d) => d.balance >= 0)).toBe(true);
    const topperLedger = (await account(accounts.topper._id)).ledger!.filter((e) => e.kind === "discount");
    expect(topperLedger.map((e) => e.reason)).toEqual([
      "Rank 1 in Sunrise Scholarship Test 2026",
      "Rank 1 in Sunrise Scholarship Test 2026",
    ]);
    expect(topperLedger.every((e) => e.by === "Anita Sharma" && e.discount?.kind === "scholarship")).toBe(true);
    const approvers = await t.database.db
      .select({ approvedById: feeEntries.approvedById })
      .from(feeEntries)
      .where(and(eq(feeEntries.accountId, accounts.topper._id), eq(feeEntries.kind, "discount")));
    expect(approvers.every((a) => a.approvedById === owner.user._id)).toBe(true);

    // Applied again: every account that has one is skipped; nothing more is taken off.
    const again = (await (await award({ slabs: SLABS })).json()) as { awards: ScholarshipAwardJson[] };
    expect(
      again.awards
        .filter((a) => a.rank <= 20 && a.student.name !== "leaver")
        .every((a) => a.skipped === SCHOLARSHIP_SKIPPED.already),
    ).toBe(true);
    expect(await account(accounts.sibling._id)).toMatchObject({ discount: 55_000 });
  });
});
