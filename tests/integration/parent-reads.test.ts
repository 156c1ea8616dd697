import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { centers, memberships, users } from "../../server/db/schema/index.ts";
import { createLoadContext } from "../../server/middleware/context.ts";
import type { AppDeps, AppEnv } from "../../server/middleware/types.ts";
import { loadParentHome } from "../../app/lib/parent/children.server.ts";
import { loadParentWeek } from "../../app/lib/parent/week.server.ts";
import { loadHouseholdFees } from "../../app/lib/parent/fees.server.ts";
import { familyViewer } from "../../app/lib/parent/area.server.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { seedDemoFees } from "../../server/seed/demo-fees.ts";
import { DEMO_PARENT, seedDemoFamily } from "../../server/seed/demo-family.ts";
import { seedDemoTimetable } from "../../server/seed/demo-timetable.ts";
import { DEMO_ATTENDANCE } from "../../server/seed/demo-attendance.ts";
import { DEMO_CENTERS } from "../../server/seed/demo-data.ts";
import { CONSENT_NOTICE_VERSION } from "#common/family.ts";
import { addDays, indiaDate, mondayOf } from "#common/india-dates.ts";
import { feesAtAGlance } from "#common/parent-area.ts";

/**
 * The parent's pages read all their children together (issue 43): the home cards, the week and
 * the household's fees take as many queries for four children at two institutes as for two (the
 * fees, but for each account's receipts and refund), and what they show of each child is what that
 * child's own reads (attendance report, own classes, fee accounts, results) say.
 */

const LOADERS: Record<string, (context: ReturnType<typeof createLoadContext>) => Promise<unknown>> = {
  "/parent": loadParentHome,
  "/parent/week": loadParentWeek,
  "/parent/fees": loadHouseholdFees,
};

/** The statements each page's loader ran, last time it was asked. */
const ran: Record<string, number> = {};
let counting: string | null = null;
let t: TestApp;
let parent: { id: string; token: string };

async function pages(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const path = new URL(c.req.url).pathname;
  const loader = LOADERS[path];
  if (!loader) return c.text("react-router");
  counting = path;
  ran[path] = 0;
  try {
    return c.json(await loader(createLoadContext(c, deps)));
  } finally {
    counting = null;
  }
}

async function page<T>(path: string): Promise<{ data: T; queries: number }> {
  const res = await t.request(path, { headers: bearer(parent.token) });
  expect(res.status, await res.clone().text()).toBe(200);
  return { data: (await res.json()) as T, queries: ran[path] };
}

type Home = Awaited<ReturnType<typeof loadParentHome>>;
type Week = Awaited<ReturnType<typeof loadParentWeek>>;
type Fees = Awaited<ReturnType<typeof loadHouseholdFees>>;

/** Links one more child of the demo parent's (a student of `slug`), as the institute invites and she agrees. */
async function linkChild(slug: string, email: string) {
  const db = t.database.db;
  const [center] = await db
    .select({ id: centers.id, ownerId: centers.ownerId })
    .from(centers)
    .where(eq(centers.slug, slug));
  const [owner] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, center.ownerId!));
  const [child] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  const { link } = await t.services.familyInvitations.invite(owner, center.id, child.id, {
    name: DEMO_PARENT.name,
    relation: "mother",
    phone: DEMO_PARENT.phone,
  });
  await t.services.familyInvitations.answer(
    link.slice(link.lastIndexOf("/") + 1),
    { answer: "granted", noticeVersion: CONSENT_NOTICE_VERSION },
    { id: parent.id },
  );
  return { center, owner, childId: child.id };
}

beforeAll(async () => {
  // The outbox's worker sends the invitations beside the pages: its statements are not theirs.
  const count = (text: string) => void (counting && !/"messages"/.test(text) && ran[counting]++);
  t = await createTestApp({}, { pages, onQuery: count });
  const db = t.database.db;
  await seedDemo(db, undefined, null);
  await seedDemoFees(db, t.services);
  await seedDemoFamily(db, t.services);
  await seedDemoTimetable(db, t.services);
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_PARENT.email));
  parent = { id: row.id, token: (await t.services.sessions.issueApiTokens(row.id, "localhost")).access_token };
}, 120_000);
afterAll(() => t?.close());

describe("the parent's pages with more children", () => {
  const before: Record<string, number> = {};

  it("read two children", async () => {
    // Asked twice: the first also makes what is made once (the calendar's signing secret).
    for (const path of Object.keys(LOADERS)) await page(path);
    for (const path of Object.keys(LOADERS)) before[path] = (await page(path)).queries;
    expect((await page<Home>("/parent")).data.children).toHaveLength(2);
  });

  it("take no more queries for four children at two institutes, each shown as their own reads say", async () => {
    // A classmate at Sunrise Academy, and a new student at the second institute with a fee plan there.
    await linkChild(DEMO_CENTERS[0].slug, DEMO_ATTENDANCE.classmates[0].email);
    const db = t.database.db;
    const [vidya] = await db.select().from(centers).where(eq(centers.slug, DEMO_CENTERS[1].slug));
    const [kabir] = await db
      .insert(users)
      .values({ name: "Kabir Das", email: "kabir.das@example.com", passwordHash: "x", role: "student" })
      .returning({ id: users.id });
    await db.insert(memberships).values({ centerId: vidya.id, userId: kabir.id, role: "student", status: "active" });
    const plan = await t.services.feePlans.create(vidya.ownerId!, vidya.id, {
      name: "NEET 2028, one instalment",
      heads: [{ name: "Tuition", amount: 40_000 }],
      instalments: [{ label: "Full fee", amount: 40_000, dueOn: addDays(indiaDate(new Date()), 10) }],
    });
    await t.services.feeAccounts.assign(vidya.ownerId!, vidya.id, { studentId: kabir.id, feePlanId: plan._id });
    await linkChild(DEMO_CENTERS[1].slug, "kabir.das@example.com");

    const home = await page<Home>("/parent");
    const week = await page<Week>("/parent/week");
    const fees = await page<Fees>("/parent/fees");
    expect(home.data.children).toHaveLength(4);
    // Two children more, one with an account: not one query more on any page.
    expect({ home: home.queries, week: week.queries, fees: fees.queries }).toEqual({
      home: before["/parent"],
      week: before["/parent/week"],
      fees: before["/parent/fees"],
    });

    // Each card and each week's line agrees with the child's own reads, one child at a time.
    const children = await t.services.families.children(parent.id);
    const today = t.services.timetables.today();
    const ahead = { from: today, to: addDays(today, 13) };
    const monday = mondayOf(today);
    const fortnight = { from: monday, to: addDays(monday, 13) };
    const parentWeek = await t.services.timetables.mine(parent.id, ahead);
    for (const child of children) {
      const link = { guardianId: child._id, studentId: child.studentId, centerId: child.centerId };
      const card = home.data.children.find((c) => c.linkId === child._id)!;
      const report = await t.services.attendanceReports.report(familyViewer(parent.id, link), {
        studentId: child.studentId,
        month: today.slice(0, 7),
      });
      expect(card.attendance).toEqual({ percent: report.totals.percent, sessions: report.totals.sessions });
      const own = new Set((await t.services.timetables.mine(child.studentId, ahead)).map((s) => s._id));
      const next = parentWeek.find(
        (s) => own.has(s._id) && s.status !== "cancelled" && Date.parse(s.endsAt) > Date.now(),
      );
      expect(card.nextClass?.on ?? null).toBe(next?.on ?? null);
      expect(card.nextClass?.start ?? null).toBe(next?.start ?? null);
      const accounts = await t.services.feeAccounts.ofStudent(child.studentId, child.centerId);
      expect(card.fees).toEqual(feesAtAGlance(accounts, indiaDate(new Date())));
      const released = (await t.services.families.results(link)).find((r) => r.score !== null);
      expect(card.latestResult?.title ?? null).toBe(released?.title ?? null);
      const theirs = new Set((await t.services.timetables.mine(child.studentId, fortnight)).map((s) => s._id));
      for (const s of week.data.sessions) expect(week.data.whose[s._id].includes(child.name)).toBe(theirs.has(s._id));
      const dues = fees.data.dues.filter((d) => d.child.linkId === child._id).map((d) => d.due._id);
      expect(dues.sort()).toEqual(accounts.flatMap((a) => a.dues.map((d) => d._id)).sort());
    }
    expect(home.data.children.filter((c) => c.nextClass).length).toBeGreaterThan(0);
    expect(home.data.children.filter((c) => c.attendance.sessions > 0).length).toBeGreaterThanOrEqual(2);
    expect(fees.data.dues.length).toBeGreaterThanOrEqual(6);
  });
});
