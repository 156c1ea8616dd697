import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { contents, enquiries, hiddenContents, questions, memberships } from "../../server/db/schema/index.ts";
import { runInTenantScope } from "../../server/db/tenant-scope.ts";
import type { TestApp } from "./app.ts";
import { registerUser } from "./http.ts";
import { createCenter } from "./centers.ts";

/**
 * Row-level security, the second wall behind the application's own filters: a query that forgot
 * its institute's filter still sees and writes only that institute's rows. `open` makes the app:
 * on the test database as it is, and through PgBouncer in transaction mode
 * (tests/integration/pooler-isolation.test.ts).
 */
export function describeRowLevelSecurity(open: () => Promise<TestApp>) {
  let t: TestApp;
  let a: { id: string };
  let b: { id: string };

  beforeAll(async () => {
    t = await open();
    a = await createCenter(t, null, { instituteName: "Alpha" });
    b = await createCenter(t, null, { instituteName: "Beta" });
    const creator = await registerUser(t, "creator");
    await t.database.db.insert(enquiries).values([
      { centerId: a.id, name: "Lead A", phone: "+919800000001", email: "a@example.com" },
      { centerId: b.id, name: "Lead B", phone: "+919800000002", email: "b@example.com" },
    ]);
    const [alphaClass, betaClass] = await t.database.db
      .insert(contents)
      .values([
        {
          creatorId: creator.user._id,
          centerId: a.id,
          type: "live",
          title: "Alpha class",
          liveLink: "https://meet.example.com/a",
        },
        {
          creatorId: creator.user._id,
          centerId: b.id,
          type: "live",
          title: "Beta class",
          liveLink: "https://meet.example.com/b",
        },
      ])
      .returning();
    await t.database.db.insert(memberships).values([
      { centerId: a.id, email: "alpha.team@example.com", role: "creator", status: "invited" },
      { centerId: b.id, email: "beta.team@example.com", role: "creator", status: "invited" },
    ]);
    await t.database.db.insert(hiddenContents).values([
      { centerId: a.id, contentId: alphaClass.id },
      { centerId: b.id, contentId: betaClass.id },
    ]);
    const data = (text: string) => ({ type: "single" as const, text, options: ["x", "y"], answer: 0 });
    await t.database.db.insert(questions).values([
      { authorId: creator.user._id, centerId: a.id, type: "single", data: data("Alpha's question") },
      { authorId: creator.user._id, centerId: b.id, type: "single", data: data("Beta's question") },
      { authorId: creator.user._id, centerId: null, type: "single", data: data("The author's own") },
    ]);
  });
  afterAll(() => t.close());

  /** Runs `query` inside the scope; a query builder executes when awaited, so it is awaited in there. */
  const within = <T>(centerId: string | null, query: () => PromiseLike<T>) =>
    runInTenantScope(centerId, async () => await query());

  describe("the application's database role", () => {
    it("owns no table (so the policies bind it)", async () => {
      const result = (await t.database.db.execute(sql`select current_user as who`)) as unknown as
        { rows: { who: string }[] } | { who: string }[];
      const who = ("rows" in result ? result.rows : result)[0].who;
      expect(who).toBe("pathshala_app");
    });
  });

  // On both databases: every transaction begins in its scope (decision 0049).
  describe("row-level security (a second wall behind the app's filters)", () => {
    it("shows a query that forgot its tenant filter nothing of another institute", async () => {
      const inA = await within(a.id, () => t.database.db.select().from(enquiries));
      expect(inA.map((r) => r.name)).toEqual(["Lead A"]);
      const classes = await within(b.id, () => t.database.db.select().from(contents));
      expect(classes.map((r) => r.title)).toEqual(["Beta class"]);
      // On the platform the policies leave it to the application.
      const all = await within(null, () => t.database.db.select().from(enquiries));
      expect(all).toHaveLength(2);
    });

    it("shows an institute's domain only its own team and hidden items", async () => {
      expect(
        (await within(a.id, () => t.database.db.select().from(memberships).where(eq(memberships.role, "creator")))).map(
          (r) => r.email,
        ),
      ).toEqual(["alpha.team@example.com"]);
      expect((await within(b.id, () => t.database.db.select().from(hiddenContents))).map((r) => r.centerId)).toEqual([
        b.id,
      ]);
      await expect(
        within(a.id, () =>
          t.database.db.insert(memberships).values({ centerId: b.id, email: "forged@example.com", role: "creator" }),
        ),
      ).rejects.toMatchObject({
        cause: { code: "42501" },
      });
    });

    it("shows an institute's domain only its own question bank, never another's or an author's own", async () => {
      const inA = await within(a.id, () => t.database.db.select().from(questions));
      expect(inA.map((q) => q.data.text)).toEqual(["Alpha's question"]);
      await expect(
        within(a.id, () =>
          t.database.db
            .insert(questions)
            .values({ authorId: inA[0].authorId, centerId: b.id, type: "single", data: inA[0].data }),
        ),
      ).rejects.toMatchObject({ cause: { code: "42501" } });
      // Nor can a question be moved out of the institute's bank.
      await expect(
        within(a.id, () => t.database.db.update(questions).set({ centerId: b.id }).returning({ id: questions.id })),
      ).rejects.toMatchObject({ cause: { code: "42501" } });
    });

    it("refuses writing another institute's rows, and updates miss them", async () => {
      await expect(
        within(a.id, () =>
          t.database.db
            .insert(enquiries)
            .values({ centerId: b.id, name: "Forged", phone: "+919800000003", email: "f@example.com" }),
        ),
      ).rejects.toMatchObject({ cause: { code: "42501", message: expect.stringMatching(/row-level security/) } });
      const changed = await within(a.id, () =>
        t.database.db.update(enquiries).set({ status: "enrolled" }).returning({ id: enquiries.id }),
      );
      expect(changed).toHaveLength(1);
      const beta = await within(b.id, () => t.database.db.select().from(enquiries));
      expect(beta[0].status).toBe("new");
    });

    it("keeps the scope per request even when connections are reused concurrently", async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const center = i % 2 ? a.id : b.id;
          return within(center, async () =>
            (await t.database.db.select({ c: enquiries.centerId }).from(enquiries)).map((r) => r.c),
          );
        }),
      );
      results.forEach((seen, i) => expect(seen).toEqual([i % 2 ? a.id : b.id]));
    });
  });
}
