import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import {
  adminNotificationState,
  centers,
  orders,
  seminarBookings,
  templateSelections,
  users,
} from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { proveCenterDomain } from "../helpers/domains.ts";
import { planOrderRows } from "../helpers/orders.ts";
import { adminToken, createListeningTestApp, signCheckout, type ListeningTestApp } from "../helpers/payments.ts";

let t: ListeningTestApp;
let admin: Record<string, string>;
let otherAdmin: Record<string, string>;
let owner: Awaited<ReturnType<typeof registerUser>>;
let roles: [string, Record<string, string>][];

beforeAll(async () => {
  t = await createListeningTestApp();
  await seedDemo(t.database.db);
  admin = bearer(await adminToken(t));
  otherAdmin = bearer(await adminToken(t));
  owner = await registerUser(t, "business", { name: "Kavya Menon" });
  roles = [
    ["student", bearer((await registerUser(t, "student")).access_token)],
    ["creator", bearer((await registerUser(t, "creator")).access_token)],
    ["business", bearer(owner.access_token)],
  ];
});
afterAll(() => t.close());

let n = 0;
/** A real plan purchase through create-order and a signed verify, as Checkout would do it. */
async function buy(overrides: Record<string, unknown> = {}, who = owner) {
  n += 1;
  const domain = `notify-${Date.now().toString(36)}-${n}.example.com`;
  const res = await postJson(
    t,
    "/api/payment/create-order",
    {
      institute: `Notify Academy ${n}`,
      owner: "Kavya M.",
      email: `kavya.${n}@example.com`,
      plan: "1 Year Plan",
      billing: "monthly",
      domain,
      ...overrides,
    },
    { headers: bearer(who.access_token) },
  );
  expect(res.status).toBe(200);
  const { order } = (await res.json()) as { order: { id: string } };
  const paymentId = `pay_admin${Date.now().toString(36)}${n}`;
  const verified = await postJson(t, "/api/payment/verify", {
    razorpay_order_id: order.id,
    razorpay_payment_id: paymentId,
    razorpay_signature: signCheckout(order.id, paymentId),
  });
  expect(verified.status).toBe(200);
  const [row] = await planOrderRows(t.database.db).where(eq(orders.gatewayOrderId, order.id));
  // The owner proves the domain, so it is the institute's (the notifications name it).
  await proveCenterDomain(t, row.centerId!);
  return { row, domain };
}

const getJson = async (path: string, headers: Record<string, string>) => {
  const res = await t.request(path, { headers });
  return { status: res.status, body: await res.json() };
};

const ADMIN_GETS = [
  "/api/admin/role-stats",
  "/api/admin/recent-purchases?limit=10",
  "/api/admin/recent-template-selections?limit=10",
  "/api/admin/notifications",
  "/api/centers",
];
const ADMIN_POSTS: [string, string, unknown][] = [
  ["POST", "/api/admin/notifications/read", {}],
  ["POST", "/api/admin/notifications/clear", {}],
  [
    "POST",
    "/api/centers",
    { name: "Sneaky", domain: "sneaky.example.com", website: "https://sneaky.example.com", superAdminPath: "/admin" },
  ],
];

describe("admin endpoints are for admins only", () => {
  it("answer 401 without credentials", async () => {
    for (const path of ADMIN_GETS) {
      const { status, body } = await getJson(path, {});
      expect(status, path).toBe(401);
      expect(body).toMatchObject({ success: false, error: "Please sign in to continue." });
    }
    for (const [method, path, body] of ADMIN_POSTS)
      expect((await postJson(t, path, body, { method })).status, path).toBe(401);
  });

  it("answer 403 with an access-denied message for students, creators and businesses, and change nothing", async () => {
    const statesBefore = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(adminNotificationState);
    const centersBefore = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(centers);
    for (const [role, headers] of roles) {
      for (const path of ADMIN_GETS) {
        const { status, body } = await getJson(path, headers);
        expect(status, `${role} ${path}`).toBe(403);
        expect(body).toEqual({
          success: false,
          error: "Access denied. Admins only.",
          message: "Access denied. Admins only.",
        });
      }
      for (const [method, path, body] of ADMIN_POSTS) {
        const res = await postJson(t, path, body, { method, headers });
        expect(res.status, `${role} ${method} ${path}`).toBe(403);
        expect((await res.json()).error).toBe("Access denied. Admins only.");
      }
    }
    expect(await t.database.db.select({ n: sql<number>`count(*)::int` }).from(adminNotificationState)).toEqual(
      statesBefore,
    );
    expect(await t.database.db.select({ n: sql<number>`count(*)::int` }).from(centers)).toEqual(centersBefore);
  });
});

describe("GET /api/admin/role-stats", () => {
  it("counts business, student and creator accounts (admins not among them)", async () => {
    const count = async (role: "business" | "student" | "creator") =>
      (
        await t.database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(users)
          .where(eq(users.role, role))
      )[0].n;
    const { status, body } = await getJson("/api/admin/role-stats", admin);
    expect(status).toBe(200);
    expect(body).toEqual({
      centers: { paid: expect.any(Number), trials: expect.any(Number), lapsed: expect.any(Number) },
      tests: { published: expect.any(Number), attempts: expect.any(Number), submitted: expect.any(Number) },
      collections: {
        businesses: await count("business"),
        students: await count("student"),
        creators: await count("creator"),
      },
    });
    const creator = await registerUser(t, "creator");
    expect((await getJson("/api/admin/role-stats", admin)).body.collections.creators).toBe(
      body.collections.creators + 1,
    );
    // The counts follow every write to users, whichever code makes it: a role change, a removal.
    // Made here in SQL, they reach the counts kept in memory with the database's announcement
    // (on PostgreSQL a moment later).
    const id = creator.user._id;
    const stats = async () => (await getJson("/api/admin/role-stats", admin)).body;
    await t.database.db.update(users).set({ role: "student" }).where(eq(users.id, id));
    await expect
      .poll(stats, { timeout: 10_000 })
      .toEqual({ ...body, collections: { ...body.collections, students: body.collections.students + 1 } });
    await t.database.db.update(users).set({ name: "Renamed" }).where(eq(users.id, id));
    await t.database.db.delete(users).where(eq(users.id, id));
    await expect.poll(stats, { timeout: 10_000 }).toEqual(body);
  });
});

describe("notifications", () => {
  it("give a paid purchase in the spec's shape (amount in paise), newest first; unpaid orders are not notifications", async () => {
    const { row, domain } = await buy({ institute: "Shape Academy", billing: "quarterly", plan: "3 Year Plan" });
    // An order that was never paid.
    await postJson(
      t,
      "/api/payment/create-order",
      {
        institute: "Unpaid",
        owner: "X",
        email: "x@example.com",
        plan: "1 Year Plan",
        domain: "unpaid-order.example.com",
      },
      { headers: bearer(owner.access_token) },
    );
    const { status, body } = await getJson("/api/admin/recent-purchases?limit=10", admin);
    expect(status).toBe(200);
    expect(body.purchases[0]).toEqual({
      _id: row.id,
      createdAt: row.paidAt!.toISOString(),
      orderedAt: row.createdAt.toISOString(),
      plan: "3 Year Plan",
      billing: "quarterly",
      currency: "INR",
      amount: 2_000_000,
      centerId: { _id: row.centerId, instituteName: "Shape Academy", domain, plan: "3 Year Plan" },
      instituteName: "Shape Academy",
      domain,
      createdByName: "Kavya Menon",
      ownerName: "Kavya M.",
      createdByEmail: owner.email,
      email: `kavya.${n}@example.com`,
      businessId: { _id: owner.user._id, name: "Kavya Menon", email: owner.email },
    });
    expect(body.purchases.some((p: { instituteName: string }) => p.instituteName === "Unpaid")).toBe(false);
  });

  it("give a template selection in the spec's shape", async () => {
    const { domain } = await buy({ institute: "Template Academy" });
    const [center] = await t.database.db.select().from(centers).where(eq(centers.customDomain, domain));
    const apply = await postJson(
      t,
      "/api/templates/apply",
      { templateId: "t3", centerId: center.id },
      { headers: bearer(owner.access_token) },
    );
    expect(apply.status).toBe(200);
    const [selection] = await t.database.db
      .select()
      .from(templateSelections)
      .where(eq(templateSelections.centerId, center.id));
    const { status, body } = await getJson("/api/admin/recent-template-selections?limit=10", admin);
    expect(status).toBe(200);
    expect(body.selections[0]).toEqual({
      _id: selection.id,
      appliedAt: selection.createdAt.toISOString(),
      createdAt: selection.createdAt.toISOString(),
      templateId: "t3",
      centerId: { _id: center.id, instituteName: "Template Academy", domain },
      businessId: { _id: owner.user._id, name: "Kavya Menon", email: owner.email },
      businessName: "Kavya Menon",
      businessEmail: owner.email,
    });
  });

  it("make one notification of an owner's template switches in a row, naming the last design", async () => {
    const { domain } = await buy({ institute: "Switching Academy" });
    const [center] = await t.database.db.select().from(centers).where(eq(centers.customDomain, domain));
    for (const templateId of ["t2", "t3", "t4", "t2", "t3", "t4", "t1", "t3"]) {
      const apply = await postJson(
        t,
        "/api/templates/apply",
        { templateId, centerId: center.id },
        { headers: bearer(owner.access_token) },
      );
      expect(apply.status).toBe(200);
    }
    const rows = await t.database.db
      .select()
      .from(templateSelections)
      .where(eq(templateSelections.centerId, center.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].templateId).toBe("t3");
    const { body } = await getJson("/api/admin/recent-template-selections?limit=10", admin);
    const mine = body.selections.filter((s: { centerId: { _id: string } }) => s.centerId._id === center.id);
    expect(mine).toHaveLength(1);
    expect(mine[0].templateId).toBe("t3");

    // A switch after the window is a new choice, and a notification of its own.
    await t.database.db
      .update(templateSelections)
      .set({ createdAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(templateSelections.centerId, center.id));
    await postJson(
      t,
      "/api/templates/apply",
      { templateId: "t2", centerId: center.id },
      { headers: bearer(owner.access_token) },
    );
    const after = await t.database.db
      .select()
      .from(templateSelections)
      .where(eq(templateSelections.centerId, center.id));
    expect(after.map((s) => s.templateId).sort()).toEqual(["t2", "t3"]);
  });

  it("honour limit (default 10, 1 to 50) and refuse a bad one with 400", async () => {
    for (let i = 0; i < 3; i++) await buy();
    expect((await getJson("/api/admin/recent-purchases?limit=2", admin)).body.purchases).toHaveLength(2);
    expect((await getJson("/api/admin/recent-purchases", admin)).body.purchases.length).toBeLessThanOrEqual(10);
    for (const limit of ["0", "51", "abc", "-1", "2.5"]) {
      const { status, body } = await getJson(`/api/admin/recent-purchases?limit=${limit}`, admin);
      expect(status, limit).toBe(400);
      expect(body.error).toBe("limit must be a whole number from 1 to 50");
      expect((await getJson(`/api/admin/recent-template-selections?limit=${limit}`, admin)).status).toBe(400);
    }
  });

  it("keep each admin's read and cleared times on the server: unread, mark all read, clear all", async () => {
    // Start from a known point for this admin.
    await postJson(t, "/api/admin/notifications/read", {}, { headers: admin });
    let state = (await getJson("/api/admin/notifications", admin)).body;
    expect(state.unread).toEqual({ purchases: 0, selections: 0, notices: 0, total: 0 });

    const first = await buy({ institute: "Unread One" });
    const second = await buy({ institute: "Unread Two" });
    state = (await getJson("/api/admin/notifications", admin)).body;
    expect(state.unread).toEqual({ purchases: 2, selections: 0, notices: 0, total: 2 });
    expect(state.purchases.slice(0, 2).map((p: { instituteName: string }) => p.instituteName)).toEqual([
      "Unread Two",
      "Unread One",
    ]);

    // Marking read what the panel showed (the first only) leaves the second unread.
    const read = await postJson(
      t,
      "/api/admin/notifications/read",
      { purchasesSeenAt: first.row.paidAt!.toISOString() },
      { headers: admin },
    );
    expect(read.status).toBe(200);
    expect((await read.json()).state.purchasesSeenAt).toBe(first.row.paidAt!.toISOString());
    expect((await getJson("/api/admin/notifications", admin)).body.unread.purchases).toBe(1);
    // Times never move backwards.
    await postJson(
      t,
      "/api/admin/notifications/read",
      { purchasesSeenAt: "2020-01-01T00:00:00.000Z" },
      { headers: admin },
    );
    expect((await getJson("/api/admin/notifications", admin)).body.unread.purchases).toBe(1);
    // Mark all read with the newest shown.
    await postJson(
      t,
      "/api/admin/notifications/read",
      { purchasesSeenAt: second.row.paidAt!.toISOString(), selectionsSeenAt: null },
      { headers: admin },
    );
    state = (await getJson("/api/admin/notifications", admin)).body;
    expect(state.unread.purchases).toBe(0);
    // Read is not cleared: the items are still listed.
    expect(state.purchases[0].instituteName).toBe("Unread Two");

    // The other admin has their own state: everything is still unread for them.
    const theirs = (await getJson("/api/admin/notifications", otherAdmin)).body;
    expect(theirs.unread.purchases).toBeGreaterThanOrEqual(2);
    expect(theirs.state).toEqual({
      purchasesSeenAt: null,
      selectionsSeenAt: null,
      purchasesClearedAt: null,
      selectionsClearedAt: null,
      noticesSeenAt: null,
      noticesClearedAt: null,
    });

    // Clear all hides everything up to now, from the lists and the spec's endpoints alike.
    const cleared = await postJson(t, "/api/admin/notifications/clear", {}, { headers: admin });
    expect(cleared.status).toBe(200);
    const clearedState = (await cleared.json()).state;
    expect(clearedState.purchasesClearedAt).toBe(clearedState.purchasesSeenAt);
    state = (await getJson("/api/admin/notifications", admin)).body;
    expect(state.purchases).toEqual([]);
    expect(state.selections).toEqual([]);
    expect(state.unread.total).toBe(0);
    expect((await getJson("/api/admin/recent-purchases?limit=10", admin)).body.purchases).toEqual([]);
    expect((await getJson("/api/admin/recent-template-selections?limit=10", admin)).body.selections).toEqual([]);
    // ...but not from the other admin's.
    expect((await getJson("/api/admin/recent-purchases?limit=10", otherAdmin)).body.purchases.length).toBeGreaterThan(
      0,
    );

    // A purchase after clearing shows up, unread.
    await buy({ institute: "After Clear" });
    state = (await getJson("/api/admin/notifications", admin)).body;
    expect(state.purchases.map((p: { instituteName: string }) => p.instituteName)).toEqual(["After Clear"]);
    expect(state.unread).toEqual({ purchases: 1, selections: 0, notices: 0, total: 1 });

    // With no body, mark all read takes the newest in the database.
    const res = await t.request("/api/admin/notifications/read", { method: "POST", headers: admin });
    expect(res.status).toBe(200);
    expect((await getJson("/api/admin/notifications", admin)).body.unread.total).toBe(0);
  });

  it("refuse bad read times with 400 and change nothing", async () => {
    const before = (await getJson("/api/admin/notifications", admin)).body.state;
    for (const body of [{ purchasesSeenAt: "yesterday" }, { selectionsSeenAt: 5 }, "{"]) {
      const res = await postJson(t, "/api/admin/notifications/read", body, { headers: admin });
      expect(res.status).toBe(400);
      expect((await res.json()).success).toBe(false);
    }
    expect((await getJson("/api/admin/notifications", admin)).body.state).toEqual(before);
  });
});

describe("the overview's figures", () => {
  it("growth compares new business accounts this month with last month (India time)", async () => {
    const now = new Date("2026-03-15T12:00:00Z");
    const make = (email: string, createdAt: string) =>
      t.database.db
        .insert(users)
        .values({ name: "G", email, passwordHash: "x", role: "business", createdAt: new Date(createdAt) });
    const base = await t.services.adminFeed.growth(now);
    // 1 March 00:10 IST is still February in UTC: it belongs to March.
    await make("g1@example.com", "2026-02-28T18:40:00Z");
    await make("g2@example.com", "2026-03-10T00:00:00Z");
    await make("g3@example.com", "2026-02-10T00:00:00Z");
    await make("g4@example.com", "2026-02-28T18:20:00Z");
    const after = await t.services.adminFeed.growth(now);
    expect(after.thisMonth - base.thisMonth).toBe(2);
    expect(after.lastMonth - base.lastMonth).toBe(2);
    expect(after.percent).toBe(Math.round(((after.thisMonth - after.lastMonth) / after.lastMonth) * 100));
    const empty = await t.services.adminFeed.growth(new Date("2020-06-01T00:00:00Z"));
    expect(empty).toEqual({ thisMonth: 0, lastMonth: 0, percent: null });
  });

  it("recent activity merges purchases, template choices, new centers and seminar bookings, newest first", async () => {
    await buy({ institute: "Activity Academy", domain: `activity-${Date.now().toString(36)}.example.com` });
    await t.database.db.insert(seminarBookings).values({
      fullName: "Rohit Sen",
      email: "rohit@example.com",
      phoneNumber: "+919876543210",
      city: "Kolkata",
      country: "India",
      date: "2026-09-13",
      time: "10:00 AM",
    });
    const items = await t.services.adminFeed.recentActivity(10);
    expect(items.length).toBeLessThanOrEqual(10);
    expect(items[0]).toMatchObject({
      kind: "booking",
      title: "Rohit Sen booked the investment seminar",
      detail: "2026-09-13, 10:00 AM · Kolkata, India",
    });
    expect(
      items.find((i) => i.kind === "purchase" && i.title === "Activity Academy bought 1 Year Plan")?.detail,
    ).toMatch(/^₹5,000 · activity-/);
    // The purchase made that center: one event, not two. A center made without a purchase is news of its own.
    expect(items.some((i) => i.kind === "center" && i.title === "New center: Activity Academy")).toBe(false);
    await t.database.db
      .insert(centers)
      .values({ slug: `walk-in-${Date.now().toString(36)}`, instituteName: "Walk-in Institute", customDomain: null });
    const later = await t.services.adminFeed.recentActivity(10);
    expect(later[0]).toMatchObject({ kind: "center", title: "New center: Walk-in Institute" });
    const times = items.map((i) => i.at);
    expect([...times].sort().reverse()).toEqual(times);
  });
});
