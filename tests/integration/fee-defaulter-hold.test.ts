import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { batchContents, batchStudents, batches, contents, memberships } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { heldThroughBatch } from "../../server/services/content-access.ts";
import { joinTeam } from "../helpers/team.ts";
import { publishTest, startSitting, writeQuestions } from "../helpers/sittings.ts";
import { addDays, indiaDate } from "../../common/india-dates.ts";
import { HOLD_NEEDS_POLICY } from "../../common/validation/fee-settings.ts";
import type { StudentBatchContentJson } from "../../common/validation/batches.ts";
import type { FeeAccountJson } from "../../common/validation/fees.ts";

/**
 * The defaulter policy made true (issue 42 §5): where the institute's fee settings say so, a
 * student overdue by more than its days loses batch content added after they became a defaulter,
 * never a test, and only until they pay; the one access rule (batchHeldContentIds) decides.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let student: Account;
let center: Awaited<ReturnType<typeof createCenter>>;
let account: FeeAccountJson;
let batchId: string;
/** The statements run while recording: whether a path read the ledger. */
let recorded: string[] | null = null;
const ids: Record<"old" | "fresh" | "test", string> = { old: "", fresh: "", test: "" };

const DAY = 86_400_000;
const today = indiaDate(new Date());
const POLICY = "New lectures are locked after 15 days overdue; a test already paid for never is.";
const as = (who: Account) => ({ headers: bearer(who.access_token) });
const settings = (body: Record<string, unknown>) =>
  t.request("/api/fee-settings", {
    method: "PUT",
    headers: { ...as(owner).headers, "content-type": "application/json" },
    body: JSON.stringify({
      centerId: center.id,
      remindDaysBefore: 3,
      remindOnDay: true,
      remindDaysAfter: 3,
      defaulterAfterDays: 15,
      bounceFee: 0,
      allowPartialOnline: false,
      ...body,
    }),
  });
const open = async () => heldThroughBatch(t.database.db, student.user._id, Object.values(ids));
const fileUrl = (id: string) => t.request(`/api/content/${id}/file-url`, as(student));
const listed = async () => {
  const res = await t.request("/api/student/batch-contents", as(student));
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: StudentBatchContentJson[] }).items;
};

beforeAll(async () => {
  t = await createTestApp({}, { onQuery: (text) => void recorded?.push(text) });
  owner = await register(t, "business", { name: "Anita Sharma" });
  student = await register(t, "student", { name: "Priya Das" });
  center = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "fdh-sunrise" });
  await t.database.db.insert(memberships).values({
    centerId: center.id,
    userId: student.user._id,
    role: "student",
    status: "active",
    acceptedAt: new Date(),
  });
  const [batch] = await t.database.db
    .insert(batches)
    .values({ centerId: center.id, name: "JEE 2027 Morning", startsOn: addDays(today, -60) })
    .returning();
  batchId = batch.id;
  await t.database.db.insert(batchStudents).values({
    batchId: batch.id,
    centerId: center.id,
    userId: student.user._id,
    status: "admitted",
    admittedAt: new Date(Date.now() - 60 * DAY),
  });
  // A lecture from before the student became a defaulter, one from two days ago, and a test from two days ago.
  for (const [key, type, ago] of [
    ["old", "pdf", 20],
    ["fresh", "video", 2],
    ["test", "test", 2],
  ] as const) {
    const [c] = await t.database.db
      .insert(contents)
      .values({
        creatorId: owner.user._id,
        centerId: center.id,
        type,
        title: `${key} ${type}`,
        fileKey: type === "test" ? null : `contents/${key}.bin`,
      })
      .returning();
    ids[key] = c.id;
    await t.database.db
      .insert(batchContents)
      .values({ batchId: batch.id, centerId: center.id, contentId: c.id, createdAt: new Date(Date.now() - ago * DAY) });
  }
  // ₹10,000 due 30 days ago, unpaid: a defaulter since 14 days ago (more than 15 days overdue).
  const plan = await postJson(
    t,
    "/api/fee-plans",
    {
      centerId: center.id,
      name: "Monthly",
      heads: [{ name: "Tuition", amount: 10_000 }],
      instalments: [{ label: "October", amount: 10_000, dueOn: addDays(today, -30) }],
    },
    as(owner),
  );
  const feePlanId = ((await plan.json()) as { feePlan: { _id: string } }).feePlan._id;
  const res = await postJson(
    t,
    "/api/fee-accounts",
    { centerId: center.id, studentId: student.user._id, feePlanId },
    as(owner),
  );
  account = ((await res.json()) as { account: FeeAccountJson }).account;
});
afterAll(() => t.close());

describe("the institute's defaulter policy, enforced", () => {
  it("holds nothing back while the institute has not switched it on", async () => {
    expect(await open()).toEqual(new Set(Object.values(ids)));
    const rows = await listed();
    // Every batch item listed (an empty list would hold nothing back too), none withheld.
    expect(rows).toHaveLength(Object.keys(ids).length);
    expect(rows.every((row) => row.withheld === null)).toBe(true);
    expect((await fileUrl(ids.fresh)).status).toBe(200);
  });

  it("needs the policy written before it is enforced", async () => {
    const res = await settings({ defaulterHoldsNewContent: true, defaulterPolicy: "" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(HOLD_NEEDS_POLICY);
  });

  it("withholds only content added after the student became a defaulter, never a test, in the policy's words", async () => {
    const res = await settings({ defaulterHoldsNewContent: true, defaulterPolicy: POLICY });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).settings.defaulterHoldsNewContent).toBe(true);
    expect(await open()).toEqual(new Set([ids.old, ids.test]));
    const rows = await listed();
    const fresh = rows.find((r) => r.content._id === ids.fresh)!;
    expect(fresh.withheld).toBe(POLICY);
    expect(fresh.content.fileUrl ?? null).toBeNull();
    expect(rows.filter((r) => r.content._id !== ids.fresh).every((r) => r.withheld === null)).toBe(true);
    // The file itself is refused too: the one rule decides everywhere.
    expect((await fileUrl(ids.fresh)).status).toBe(403);
    expect((await fileUrl(ids.old)).status).toBe(200);
    // Not yet a defaulter under a longer grace: nothing withheld.
    await settings({ defaulterHoldsNewContent: true, defaulterPolicy: POLICY, defaulterAfterDays: 45 });
    expect(await open()).toEqual(new Set(Object.values(ids)));
    await settings({ defaulterHoldsNewContent: true, defaulterPolicy: POLICY });
    expect((await open()).has(ids.fresh)).toBe(false);
  });

  it("lets the defaulter start a paid test their batch gives, without reading the ledger", async () => {
    const creator = await register(t, "creator", { name: "Rahul Verma" });
    await joinTeam(t, center.id, creator.user._id);
    const questions = await writeQuestions(
      t,
      creator.access_token,
      [
        {
          type: "single",
          text: "A body at rest stays at rest unless acted on by a net force: whose law?",
          options: ["Newton's first", "Newton's second", "Newton's third", "Hooke's"],
          answer: 0,
          tags: { subject: "Physics", chapter: "Laws of motion", difficulty: "easy" },
        },
      ],
      { bank: center.id },
    );
    const { _id: mock } = await publishTest(t, creator.access_token, {
      title: "Weekly mock 7",
      businessId: center.id,
      pattern: "custom",
      price: 299,
      sections: [{ name: "Physics", questions }],
    });
    // Given by the batch two days ago, after she became a defaulter (a lecture then would be withheld).
    await t.database.db
      .insert(batchContents)
      .values({ batchId, centerId: center.id, contentId: mock, createdAt: new Date(Date.now() - 2 * DAY) });
    expect(await open()).toEqual(new Set([ids.old, ids.test]));
    expect(await heldThroughBatch(t.database.db, student.user._id, [mock, ids.test], "tests")).toEqual(
      new Set([mock, ids.test]),
    );
    // A sitting is started on the institute's site, with a session made there.
    const host = center.customDomain!;
    const { access_token } = await t.services.sessions.issueApiTokens(student.user._id, host);
    recorded = [];
    const sitting = await startSitting(t, access_token, mock, host);
    const ran = recorded;
    recorded = null;
    expect(sitting.sections[0].questions).toHaveLength(1);
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.filter((text) => /"fee_/.test(text))).toEqual([]);
    // The mock leaves the batch again: the next test counts the batch's own three items.
    await t.database.db.delete(batchContents).where(eq(batchContents.contentId, mock));
  });

  it("gives it back as soon as what is overdue is paid", async () => {
    const paid = await postJson(
      t,
      `/api/fee-accounts/${account._id}/payments`,
      { amount: 10_000, mode: "cash" },
      as(owner),
    );
    expect(paid.status, await paid.clone().text()).toBe(201);
    expect(await open()).toEqual(new Set(Object.values(ids)));
    const rows = await listed();
    // Every batch item listed (an empty list would hold nothing back too), none withheld.
    expect(rows).toHaveLength(Object.keys(ids).length);
    expect(rows.every((row) => row.withheld === null)).toBe(true);
    expect((await fileUrl(ids.fresh)).status).toBe(200);
  });
});
