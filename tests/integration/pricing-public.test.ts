import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { pricingPlans } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.database.db);
});
afterAll(() => t.close());

describe("GET /api/pricing", () => {
  it("lists the active plans in order, in the spec's shape, prices in rupees", async () => {
    const res = await t.request("/api/pricing");
    expect(res.status).toBe(200);
    const { plans } = await res.json();
    expect(plans.map((p: { name: string }) => p.name)).toEqual(["1 Year Plan", "3 Year Plan", "5 Year Plan"]);
    expect(plans[1]).toMatchObject({
      name: "3 Year Plan",
      pricing: {
        monthly: { price: 7000, currency: "INR" },
        quarterly: { price: 20000, currency: "INR" },
        yearly: { price: 70000, currency: "INR" },
      },
      activeDuration: "monthly",
      quarterlyMonths: 3,
      yearlyYears: 1,
      isActive: true,
      isPopular: true,
      order: 1,
    });
    expect(plans[1]._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(plans[1].features[0]).toEqual({
      name: "From Control",
      description: "Manage admissions and enquiries from one dashboard",
      included: true,
    });
  });

  it("leaves out inactive plans", async () => {
    await t.database.db.update(pricingPlans).set({ isActive: false }).where(eq(pricingPlans.name, "5 Year Plan"));
    await t.services.plans.changed();
    const { plans } = await (await t.request("/api/pricing")).json();
    expect(plans.map((p: { name: string }) => p.name)).toEqual(["1 Year Plan", "3 Year Plan"]);
  });
});
