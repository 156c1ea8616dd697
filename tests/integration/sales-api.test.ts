import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, registerUser } from "../helpers/http.ts";
import { FIXTURES, insertPaidOrder, uploadContent } from "../helpers/content.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function publish(token: string, title: string, price: string) {
  const res = await uploadContent(t, token, { title, type: "pdf", price }, { file: FIXTURES.pdf() });
  return (await res.json()).content._id as string;
}

describe("sales figures from paid content orders", () => {
  it("count only paid orders, per content, in rupees, and only the caller's", async () => {
    const creator = await registerUser(t, "creator");
    const rival = await registerUser(t, "creator");
    const student = await registerUser(t, "student");
    const physics = await publish(creator.access_token, "Physics notes", "499");
    const chemistry = await publish(creator.access_token, "Chemistry notes", "199.50");
    const unsold = await publish(creator.access_token, "Unsold notes", "99");
    const rivalContent = await publish(rival.access_token, "Rival notes", "999");

    await insertPaidOrder(t, physics, student.user._id, 49900);
    await insertPaidOrder(t, physics, student.user._id, 49900);
    await insertPaidOrder(t, chemistry, student.user._id, 19950);
    await insertPaidOrder(t, chemistry, student.user._id, 19950, new Date(), "created");
    await insertPaidOrder(t, chemistry, student.user._id, 19950, new Date(), "failed");
    await insertPaidOrder(t, rivalContent, student.user._id, 99900);

    const res = await t.request("/api/sales/my", { headers: bearer(creator.access_token) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.totalRevenue).toBe(1197.5);
    expect(body.totalOrders).toBe(3);
    expect(body.sales).toEqual([
      { contentId: physics, title: "Physics notes", totalSales: 2, totalEarnings: 998 },
      { contentId: chemistry, title: "Chemistry notes", totalSales: 1, totalEarnings: 199.5 },
      { contentId: unsold, title: "Unsold notes", totalSales: 0, totalEarnings: 0 },
    ]);
    expect(body.recent).toHaveLength(3);
    expect(body.recent[0]).toMatchObject({
      title: expect.any(String),
      amount: expect.any(Number),
      paidAt: expect.any(String),
    });
    expect(body.daily).toHaveLength(30);
    expect(body.monthly).toHaveLength(12);
    expect(body.daily.at(-1)).toMatchObject({ orders: 3, revenue: 1197.5 });

    const one = await t.request(`/api/sales/content/${physics}`, { headers: bearer(creator.access_token) });
    expect(await one.json()).toEqual({
      sales: { contentId: physics, title: "Physics notes", totalSales: 2, totalEarnings: 998 },
    });
    const none = await t.request(`/api/sales/content/${unsold}`, { headers: bearer(creator.access_token) });
    expect((await none.json()).sales).toEqual({
      contentId: unsold,
      title: "Unsold notes",
      totalSales: 0,
      totalEarnings: 0,
    });
    expect(
      (await t.request(`/api/sales/content/${rivalContent}`, { headers: bearer(creator.access_token) })).status,
    ).toBe(403);
    expect((await t.request("/api/sales/my", { headers: bearer(student.access_token) })).status).toBe(403);
  });

  it("buckets revenue by India-time day (last 30) and month (last 12)", async () => {
    const creator = await registerUser(t, "creator");
    const student = await registerUser(t, "student");
    const id = await publish(creator.access_token, "Bucketed", "100");
    // 19:00 UTC on 9 Mar is 00:30 IST on 10 Mar.
    await insertPaidOrder(t, id, student.user._id, 10000, new Date("2026-03-09T19:00:00Z"));
    await insertPaidOrder(t, id, student.user._id, 20000, new Date("2026-03-09T18:00:00Z"));
    await insertPaidOrder(t, id, student.user._id, 30000, new Date("2026-01-20T10:00:00Z"));
    await insertPaidOrder(t, id, student.user._id, 40000, new Date("2025-03-20T10:00:00Z"));
    const now = new Date("2026-03-15T06:00:00Z");

    const daily = await t.services.sales.series(creator.user._id, "day", now);
    expect(daily[0].period).toBe("2026-02-14");
    expect(daily.at(-1)!.period).toBe("2026-03-15");
    expect(daily.find((p) => p.period === "2026-03-10")).toEqual({ period: "2026-03-10", orders: 1, revenue: 100 });
    expect(daily.find((p) => p.period === "2026-03-09")).toEqual({ period: "2026-03-09", orders: 1, revenue: 200 });
    expect(daily.reduce((n, p) => n + p.orders, 0)).toBe(2);

    const monthly = await t.services.sales.series(creator.user._id, "month", now);
    expect(monthly.map((p) => p.period)).toEqual([
      "2025-04",
      "2025-05",
      "2025-06",
      "2025-07",
      "2025-08",
      "2025-09",
      "2025-10",
      "2025-11",
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
    ]);
    expect(monthly.find((p) => p.period === "2026-03")).toEqual({ period: "2026-03", orders: 2, revenue: 300 });
    expect(monthly.find((p) => p.period === "2026-01")).toEqual({ period: "2026-01", orders: 1, revenue: 300 });
    // A year-old sale is outside the window but still in the totals.
    expect(monthly.reduce((n, p) => n + p.orders, 0)).toBe(3);
    expect((await t.services.sales.summary(creator.user._id, now)).totalOrders).toBe(4);
  });

  it("exports the per-content table as CSV", async () => {
    const creator = await registerUser(t, "creator");
    const student = await registerUser(t, "student");
    const id = await publish(creator.access_token, "Maths, part 1", "50");
    await insertPaidOrder(t, id, student.user._id, 5000);
    const res = await t.request("/api/sales/my?format=csv", { headers: bearer(creator.access_token) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="sales-\d{4}-\d{2}-\d{2}\.csv"$/);
    // A byte-order mark first, so that Excel reads the rupee titles as UTF-8.
    const raw = new Uint8Array(await res.arrayBuffer());
    expect([...raw.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(raw)).toBe('Title,Orders,Earnings (INR)\r\n"Maths, part 1",1,50.00\r\n');
  });
});
