import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { centers, pricingPlans, users } from "../../server/db/schema/index.ts";
import { seedDemo, seedDemoOnce } from "../../server/seed/demo.ts";
import { createOrPromoteAdmin } from "../../server/services/admins.ts";
import { verifyPassword } from "../../server/auth/password.ts";
import { CENTERS_CHANNEL } from "../../server/services/tenants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { announcementsSettled, waitFor } from "../helpers/wait.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemoOnce(t.database.db);
});
afterAll(() => t.close());

describe("health probes", () => {
  it("answers /healthz and /readyz", async () => {
    const health = await t.request("/healthz");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await t.request("/readyz");
    expect(ready.status).toBe(200);
    expect((await ready.json()).database).toBe("ok");
  });

  it("tags every response with a request id, keeping a sane incoming one", async () => {
    const fresh = await t.request("/healthz");
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.request("/healthz", { headers: { "x-request-id": "abc-123" } });
    expect(kept.headers.get("x-request-id")).toBe("abc-123");
    const replaced = await t.request("/healthz", { headers: { "x-request-id": "<script>" } });
    expect(replaced.headers.get("x-request-id")).not.toBe("<script>");
  });

  it("puts the request id on every kind of answer, each its own", async () => {
    const answers = await Promise.all([
      t.request("/api/pricing"),
      t.request("/api/no-such-thing"),
      t.request("/", { host: "localhost:3000" }),
      t.request("/", { host: "nobody-uses-this.example" }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 404, 200, 404]);
    const ids = answers.map((a) => a.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // The answer itself is whole: the id is added without touching its body.
    expect((await answers[0].json()).plans.length).toBeGreaterThan(0);
  });
});

describe("host to tenant", () => {
  it("hands platform hosts to React Router", async () => {
    const res = await t.request("/", { host: "localhost:3000" });
    expect(await res.text()).toBe("react-router");
  });

  it("serves an institute on its custom domain and on its slug host", async () => {
    for (const host of ["demo-t1.localhost", "DEMO-T1.localhost.:3000"]) {
      const res = await t.request("/", { host });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Sunrise Academy");
    }
    const viaSlug = await t.request("/", { host: "demo-t2.localhost" });
    expect(await viaSlug.text()).toContain("Vidya JEE &amp; NEET Classes");
  });

  it("answers 404 'This site is not configured' for a host nobody uses, API included", async () => {
    for (const path of ["/", "/pricing", "/api/pricing"]) {
      const res = await t.request(path, { host: "unknown.example.org" });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("This site is not configured");
    }
  });

  it("shows a temporarily-unavailable page for an inactive or expired institute", async () => {
    await t.database.db.update(centers).set({ status: "inactive" }).where(eq(centers.slug, "demo-t1"));
    t.services.tenants.changed();
    const inactive = await t.request("/", { host: "demo-t1.localhost" });
    expect(inactive.status).toBe(503);
    expect(await inactive.text()).toContain("This site is temporarily unavailable");

    await t.database.db
      .update(centers)
      .set({ status: "active", expiresAt: new Date(Date.now() - 1000) })
      .where(eq(centers.slug, "demo-t1"));
    t.services.tenants.changed();
    expect((await t.request("/", { host: "demo-t1.localhost" })).status).toBe(503);

    await t.database.db
      .update(centers)
      .set({ expiresAt: new Date(Date.now() + 86_400_000) })
      .where(eq(centers.slug, "demo-t1"));
    t.services.tenants.changed();
    expect((await t.request("/", { host: "demo-t1.localhost" })).status).toBe(200);
  });

  it("forgets cached answers when centers change, including unknown hosts", async () => {
    // On PostgreSQL answers are cached only once the change listener is connected.
    await waitFor(() => t.database.listening(), 2000);
    // Earlier tests' announcements would otherwise empty the cache mid-test.
    await announcementsSettled(t.database, CENTERS_CHANNEL);
    expect((await t.request("/", { host: "new-institute.example" })).status).toBe(404);
    // Written as another instance or a tool would: only the database's announcement tells this one.
    await t.database.db
      .insert(centers)
      .values({ slug: "new-inst", instituteName: "New Institute", customDomain: "new-institute.example" });
    await announcementsSettled(t.database, CENTERS_CHANNEL);
    const res = await t.request("/", { host: "new-institute.example" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("New Institute");
  });

  it("trusts X-Forwarded-Host only behind a configured proxy", async () => {
    const res = await t.request("/", { host: "localhost", headers: { "x-forwarded-host": "demo-t2.localhost" } });
    expect(await res.text()).toBe("react-router");
  });
});

describe("API basics", () => {
  it("answers unknown API paths with the JSON error shape", async () => {
    const res = await t.request("/api/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, error: "Not found", message: "Not found" });
  });
});

describe("demo seed", () => {
  it("loads the fallback plans, two institutes, one on its free trial, and the demo accounts once", async () => {
    const plans = await t.database.db.select().from(pricingPlans).orderBy(pricingPlans.sortOrder);
    expect(plans.map((p) => [p.name, p.monthlyPrice, p.quarterlyPrice, p.yearlyPrice, p.isPopular])).toEqual([
      ["1 Year Plan", 500000, 1400000, 5000000, false],
      ["3 Year Plan", 700000, 2000000, 7000000, true],
      ["5 Year Plan", 1000000, 2800000, 10000000, false],
    ]);
    expect(plans[0].features.map((f) => f.name)).toEqual(["From Control", "Home Page", "AI-Chatbot"]);
    const demo = await t.database.db
      .select()
      .from(centers)
      .where(sql`${centers.slug} like 'demo-%'`)
      .orderBy(centers.slug);
    expect(demo.map((c) => [c.customDomain, c.templateId])).toEqual([
      ["demo-t1.localhost", "t1"],
      ["demo-t2.localhost", "t2"],
      ["demo-trial.localhost", "t3"],
    ]);
    expect(await seedDemoOnce(t.database.db)).toBe(false);
    await seedDemo(t.database.db);
    const [{ count }] = await t.database.db.select({ count: sql<number>`count(*)::int` }).from(pricingPlans);
    expect(count).toBe(3);
    const [{ userCount }] = await t.database.db.select({ userCount: sql<number>`count(*)::int` }).from(users);
    // The four demo accounts, the four who sat the finished demo mock beside the demo student, and
    // the demo batch's three classmates (server/seed/demo-attendance.ts).
    expect(userCount).toBe(11);
  });
});

describe("create-admin", () => {
  it("creates an admin, then promotes an existing account and resets its password", async () => {
    const created = await createOrPromoteAdmin(t.database.db, {
      email: " Root@Example.com ",
      password: "long-and-unusual-9",
    });
    expect(created).toMatchObject({ created: true, email: "root@example.com" });
    const promoted = await createOrPromoteAdmin(t.database.db, {
      email: "student@example.com",
      password: "another-unusual-pass",
    });
    expect(promoted.created).toBe(false);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, "student@example.com"));
    expect(row.role).toBe("admin");
    expect(await verifyPassword(row.passwordHash, "another-unusual-pass")).toBe(true);
  });

  it("refuses a bad email or a weak password and creates nothing", async () => {
    await expect(
      createOrPromoteAdmin(t.database.db, { email: "not-an-email", password: "long-and-unusual-9" }),
    ).rejects.toThrow("Please enter a valid email address");
    await expect(
      createOrPromoteAdmin(t.database.db, { email: "x@example.com", password: "password123" }),
    ).rejects.toThrow("This password is too common. Please choose another.");
    await expect(createOrPromoteAdmin(t.database.db, { email: "x@example.com", password: "short" })).rejects.toThrow(
      "Password must be at least 8 characters",
    );
    expect(await t.database.db.select().from(users).where(eq(users.email, "x@example.com"))).toEqual([]);
  });
});
