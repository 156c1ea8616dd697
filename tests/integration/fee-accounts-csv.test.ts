import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { feeAccounts, memberships, users } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import {
  CSV_HAS_PLAN,
  CSV_NOT_A_STUDENT,
  CSV_NO_ACCOUNT,
  csvSameStudent,
  type FeeAccountJson,
} from "../../common/validation/fees.ts";

/** A fee plan assigned to many students from a CSV (issue 42 §2): every bad row named, all or none. */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let students: Account[];
let outsider: Account;
let center: Awaited<ReturnType<typeof createCenter>>;
let planId: string;

const as = (who: Account) => ({ headers: bearer(who.access_token) });
const bulk = (csv: string, who = owner, plan = planId) =>
  postJson(t, "/api/fee-accounts/bulk", { centerId: center.id, feePlanId: plan, csv }, as(who));
const accountsUnderPlan = () => t.database.db.select().from(feeAccounts).where(eq(feeAccounts.feePlanId, planId));
/** The INSERT statements run while counting, by table. */
let inserts: Record<string, number> | null = null;
const counted = (text: string) => {
  const table = /^\s*insert into "(\w+)"/i.exec(text)?.[1];
  if (inserts && table) inserts[table] = (inserts[table] ?? 0) + 1;
};

beforeAll(async () => {
  t = await createTestApp({}, { onQuery: counted });
  owner = await register(t, "business", { name: "Anita Sharma" });
  center = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "fcsv-sunrise" });
  students = [];
  for (const name of ["Priya Das", "Kabir Jain", "Meera Iyer"]) {
    const s = await register(t, "student", { name });
    await t.database.db
      .insert(memberships)
      .values({ centerId: center.id, userId: s.user._id, role: "student", status: "active", acceptedAt: new Date() });
    students.push(s);
  }
  outsider = await register(t, "student", { name: "Zoya Khan" });
  const plan = await postJson(
    t,
    "/api/fee-plans",
    {
      centerId: center.id,
      name: "Foundation 2027",
      heads: [{ name: "Tuition", amount: 24_000 }],
      instalments: [
        { label: "First", amount: 12_000, dueOn: "2027-04-10" },
        { label: "Second", amount: 12_000, dueOn: "2027-10-10" },
      ],
    },
    as(owner),
  );
  planId = ((await plan.json()) as { feePlan: { _id: string } }).feePlan._id;
});
afterAll(() => t.close());

describe("assigning a plan from a CSV", () => {
  it("names every bad row and assigns nobody when any row is bad", async () => {
    // Kabir already has the plan.
    const one = await postJson(
      t,
      "/api/fee-accounts",
      { centerId: center.id, studentId: students[1].user._id, feePlanId: planId },
      as(owner),
    );
    expect(one.status).toBe(201);
    const csv = [
      "name,email,phone",
      `Priya Das,${students[0].email},`,
      `Kabir Jain,${students[1].email},`,
      `Zoya Khan,${outsider.email},`,
      "Nobody,nobody.here@example.com,",
      `Priya again,${students[0].email.toUpperCase()},`,
      "No address,,",
    ].join("\n");
    const res = await bulk(csv);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; rows: { row: number; message: string }[] };
    // The file's own faults first (as batch admission reads it): a row without an address or number.
    expect(body.rows).toEqual([
      { row: 6, message: "the same person as row 2" },
      { row: 7, message: "give an e-mail address or a phone number" },
    ]);
    expect(body.error).toMatch(/^2 rows of the CSV cannot be assigned the plan, so nobody was: row 6/);
    const fixed = csv.split("\n").slice(0, 5).join("\n");
    const again = await bulk(fixed);
    expect(again.status).toBe(400);
    const refused = (await again.json()) as { error: string; rows: { row: number; message: string }[] };
    expect(refused.rows).toEqual([
      { row: 3, message: CSV_HAS_PLAN },
      { row: 4, message: CSV_NOT_A_STUDENT },
      { row: 5, message: CSV_NO_ACCOUNT },
    ]);
    expect(refused.error).toContain("3 rows of the CSV cannot be assigned the plan, so nobody was");
    // Priya's row was good, but nobody was assigned.
    expect((await accountsUnderPlan()).map((a) => a.studentId)).toEqual([students[1].user._id]);
  });

  it("assigns the plan to every student named, each with their dues", async () => {
    const csv = `name,email,phone\r\nPriya Das,${students[0].email},\r\n"Iyer, Meera",${students[2].email},\r\n`;
    const res = await bulk(csv);
    expect(res.status, await res.clone().text()).toBe(201);
    const body = (await res.json()) as { accounts: FeeAccountJson[]; assigned: number };
    expect(body.assigned).toBe(2);
    expect(body.accounts.map((a) => a.student.name).sort()).toEqual(["Meera Iyer", "Priya Das"]);
    expect(body.accounts.every((a) => a.balance === 24_000 && a.dues.length === 2)).toBe(true);
    // The same file twice: both are now under the plan, so nobody is assigned twice.
    const twice = await bulk(csv);
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { rows: unknown[] }).rows).toEqual([
      { row: 2, message: CSV_HAS_PLAN },
      { row: 3, message: CSV_HAS_PLAN },
    ]);
    expect(await accountsUnderPlan()).toHaveLength(3);
  });

  it("writes a class's accounts, dues and ledger in one statement each, not one per student", async () => {
    const db = t.database.db;
    const made = await db
      .insert(users)
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          name: `Class student ${i + 1}`,
          email: `class.${i + 1}@fcsv.example`,
          passwordHash: "x",
          role: "student" as const,
        })),
      )
      .returning({ id: users.id, email: users.email });
    await db
      .insert(memberships)
      .values(
        made.map((u) => ({ centerId: center.id, userId: u.id, role: "student" as const, status: "active" as const })),
      );
    const csv = ["name,email,phone", ...made.map((u, i) => `Class student ${i + 1},${u.email},`)].join("\n");
    inserts = {};
    const res = await bulk(csv);
    const written = inserts;
    inserts = null;
    expect(res.status, await res.clone().text()).toBe(201);
    const body = (await res.json()) as { accounts: FeeAccountJson[]; assigned: number };
    expect(body.assigned).toBe(40);
    expect(
      body.accounts.every((a) => a.balance === 24_000 && a.dues.map((d) => d.label).join() === "First,Second"),
    ).toBe(true);
    expect(new Set(body.accounts.map((a) => a.student._id))).toEqual(new Set(made.map((u) => u.id)));
    expect(written).toEqual({ fee_accounts: 1, fee_dues: 1, fee_entries: 1 });
  });

  it("is for the institute's managers only, and names a plan of its own", async () => {
    const csv = `name,email,phone\nMeera,${students[2].email},\n`;
    expect((await bulk(csv, students[0])).status).toBe(403);
    const elsewhere = await bulk(csv, owner, "00000000-0000-4000-8000-000000000000");
    expect(elsewhere.status).toBe(404);
    const noHeader = await bulk(`Meera,${students[2].email},\n`);
    expect(noHeader.status).toBe(400);
    expect((await noHeader.json()).error).toBe("The CSV's first row must name its columns: name,email,phone.");
  });

  it("finds a student by their verified number, and names them once when two rows are the same student", async () => {
    const late = await register(t, "student", { name: "Arjun Rao" });
    await t.database.db.insert(memberships).values({
      centerId: center.id,
      userId: late.user._id,
      role: "student",
      status: "active",
      acceptedAt: new Date(),
    });
    await t.database.db
      .update(users)
      .set({ phone: "+919812345678", phoneVerifiedAt: new Date() })
      .where(eq(users.id, late.user._id));
    const twice = await bulk(`name,email,phone\nArjun,${late.email},\nArjun by phone,,98123 45678\n`);
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { rows: unknown[] }).rows).toEqual([{ row: 3, message: csvSameStudent(2) }]);
    const byPhone = await bulk("name,email,phone\nArjun by phone,,+91 98123 45678\n");
    expect(byPhone.status, await byPhone.clone().text()).toBe(201);
    expect(((await byPhone.json()) as { accounts: FeeAccountJson[] }).accounts[0].student._id).toBe(late.user._id);
  });
});
