import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { memberships, users } from "../../server/db/schema/index.ts";
import { createLoadContext } from "../../server/middleware/context.ts";
import type { AppDeps, AppEnv } from "../../server/middleware/types.ts";
import { loadBusinessStudents } from "../../app/lib/families.server.ts";
import { CENTER_COOKIE } from "../../app/lib/business.server.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";

/**
 * The business area's Students page (decision 0047, issue 43) searches and pages in the database:
 * with more than 2,000 students, one whose name sorts last is found by her name, her e-mail or her
 * phone number, the pages go on to the end, and each student shows only their own parents.
 */

const STUDENTS = 2_100;
let t: TestApp;
let owner: Awaited<ReturnType<typeof register>>;
let center: { id: string };
let zoya: string;

type Page = Exclude<Awaited<ReturnType<typeof loadBusinessStudents>>, { center: null }>;

async function pages(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  if (new URL(c.req.url).pathname !== "/business/students") return c.text("react-router");
  return c.json(await loadBusinessStudents(createLoadContext(c, deps), c.req.raw));
}

async function studentsPage(query: Record<string, string> = {}): Promise<Page> {
  const res = await t.request(`/business/students?${new URLSearchParams(query)}`, {
    headers: { ...bearer(owner.access_token), cookie: `${CENTER_COOKIE}=${center.id}` },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Page;
}

beforeAll(async () => {
  t = await createTestApp({}, { pages });
  owner = await register(t, "business", { name: "Anita Sharma" });
  center = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy" });
  const db = t.database.db;
  const people = Array.from({ length: STUDENTS }, (_, i) => {
    const n = String(i + 1).padStart(4, "0");
    return { name: `Student ${n}`, email: `student${n}@example.com`, passwordHash: "x", role: "student" as const };
  });
  people.push({ name: "Zoya Qureshi", email: "zq.2027@example.com", passwordHash: "x", role: "student" });
  for (let i = 0; i < people.length; i += 500) {
    const made = await db
      .insert(users)
      .values(people.slice(i, i + 500))
      .returning({ id: users.id, email: users.email });
    await db
      .insert(memberships)
      .values(
        made.map((u) => ({ centerId: center.id, userId: u.id, role: "student" as const, status: "active" as const })),
      );
    zoya = made.find((u) => u.email === "zq.2027@example.com")?.id ?? zoya;
  }
  await db.update(users).set({ phone: "+919812345678" }).where(eq(users.id, zoya));
  const desk = { id: owner.user._id, name: owner.user.name, email: owner.email };
  await t.services.familyInvitations.invite(desk, center.id, zoya, {
    name: "Farah Qureshi",
    relation: "mother",
    phone: "+919830000777",
  });
}, 120_000);
afterAll(() => t?.close());

describe("the Students page", () => {
  it("lists a page of 100 by name, with every student counted, and goes on to the last page", async () => {
    const first = await studentsPage();
    expect(first.total).toBe(STUDENTS + 1);
    expect(first.pages).toBe(22);
    expect(first.students).toHaveLength(100);
    expect(first.students[0].name).toBe("Student 0001");
    const last = await studentsPage({ page: "22" });
    expect(last.first).toBe(2_101);
    expect(last.students.map((s) => s.name)).toEqual(["Zoya Qureshi"]);
    expect(last.students[0].parents.map((p) => [p.name, p.status])).toEqual([["Farah Qureshi", "invited"]]);
    const before = await studentsPage({ page: "21" });
    expect(before.students.at(-1)!.name).toBe("Student 2100");
    expect(before.students.flatMap((s) => s.parents)).toEqual([]);
    // A page past the end (an old link) shows the last one, numbered as such.
    const past = await studentsPage({ page: "40" });
    expect([past.page, past.first, past.students.map((s) => s.name)]).toEqual([22, 2_101, ["Zoya Qureshi"]]);
  });

  it("finds a student past the 2,000th by part of her name, her e-mail or her phone number", async () => {
    for (const q of ["zoya", "QURESHI", "zq.2027@", "98123"]) {
      const found = await studentsPage({ q });
      expect(found.total, q).toBe(1);
      expect(
        found.students.map((s) => s.name),
        q,
      ).toEqual(["Zoya Qureshi"]);
    }
    const some = await studentsPage({ q: "Student 20" });
    expect(some.total).toBe(100);
    expect(some.students[0].name).toBe("Student 2000");
  });

  it("takes what is typed as words: % and _ match only themselves", async () => {
    expect((await studentsPage({ q: "%" })).total).toBe(0);
    expect((await studentsPage({ q: "Student_0" })).total).toBe(0);
  });
});
