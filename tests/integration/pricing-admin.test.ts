import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { orders, pricingPlans } from "../../server/db/schema/index.ts";
import { insertPlanOrder } from "../helpers/orders.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { adminToken } from "../helpers/payments.ts";

let t: TestApp;
let admin: Record<string, string>;
let business: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.database.db);
  admin = bearer(await adminToken(t));
  business = bearer((await registerUser(t, "business")).access_token);
});
afterAll(() => t.close());

const validPlan = (overrides: Record<string, unknown> = {}) => ({
  name: "Starter",
  description: "For new institutes",
  pricing: {
    monthly: { price: 999, currency: "INR" },
    quarterly: { price: 2799, currency: "INR" },
    yearly: { price: 9999, currency: "INR" },
  },
  activeDuration: "monthly",
  features: [{ name: " Home Page ", description: "Your own site", included: true }],
  isActive: true,
  isPopular: false,
  order: 5,
  ...overrides,
});

const planCount = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(pricingPlans))[0].n;
const put = (id: string, body: unknown, headers = admin) =>
  postJson(t, `/api/pricing/${id}`, body, { method: "PUT", headers });
const del = (id: string, headers = admin) => t.request(`/api/pricing/${id}`, { method: "DELETE", headers });

describe("plan management is for admins only", () => {
  it("answers 401 without credentials and 403 for other roles, changing nothing", async () => {
    const [plan] = await t.database.db.select().from(pricingPlans).limit(1);
    const before = await planCount();
    for (const [headers, status] of [
      [{}, 401],
      [business, 403],
      [bearer((await registerUser(t, "student")).access_token), 403],
      [bearer((await registerUser(t, "creator")).access_token), 403],
    ] as const) {
      expect((await t.request("/api/pricing/admin", { headers })).status).toBe(status);
      const created = await postJson(t, "/api/pricing", validPlan({ name: `Sneaky ${status}` }), { headers });
      expect(created.status).toBe(status);
      expect(await created.json()).toMatchObject({ success: false });
      expect((await put(plan.id, { name: "Hacked" }, headers)).status).toBe(status);
      expect((await del(plan.id, headers)).status).toBe(status);
    }
    expect(await planCount()).toBe(before);
    const [after] = await t.database.db.select().from(pricingPlans).where(eq(pricingPlans.id, plan.id));
    expect(after.name).toBe(plan.name);
  });

  it("answers 401 with an expired or made-up token", async () => {
    const res = await t.request("/api/pricing/admin", { headers: bearer("a".repeat(32)) });
    expect(res.status).toBe(401);
  });
});

describe("GET /api/pricing/admin", () => {
  it("lists every plan, inactive ones too, in display order", async () => {
    await t.database.db.update(pricingPlans).set({ isActive: false }).where(eq(pricingPlans.name, "5 Year Plan"));
    await t.services.plans.changed();
    const res = await t.request("/api/pricing/admin", { headers: admin });
    expect(res.status).toBe(200);
    const { plans } = await res.json();
    expect(plans.map((p: { name: string }) => p.name)).toEqual(["1 Year Plan", "3 Year Plan", "5 Year Plan"]);
    expect(plans[2].isActive).toBe(false);
    const pub = await (await t.request("/api/pricing")).json();
    expect(pub.plans.map((p: { name: string }) => p.name)).not.toContain("5 Year Plan");
    await t.database.db.update(pricingPlans).set({ isActive: true }).where(eq(pricingPlans.name, "5 Year Plan"));
    await t.services.plans.changed();
  });
});

describe("POST /api/pricing", () => {
  it("creates a plan with prices in rupees stored as paise, trimmed names and the defaults", async () => {
    const res = await postJson(t, "/api/pricing", validPlan(), { headers: admin });
    expect(res.status).toBe(201);
    const { plan, success } = await res.json();
    expect(success).toBe(true);
    expect(plan).toMatchObject({
      name: "Starter",
      pricing: {
        monthly: { price: 999, currency: "INR" },
        quarterly: { price: 2799, currency: "INR" },
        yearly: { price: 9999, currency: "INR" },
      },
      quarterlyMonths: 3,
      yearlyYears: 1,
      features: [{ name: "Home Page", description: "Your own site", included: true }],
      isActive: true,
      isPopular: false,
      order: 5,
    });
    const [row] = await t.database.db.select().from(pricingPlans).where(eq(pricingPlans.id, plan._id));
    expect(row.monthlyPrice).toBe(99_900);
    const pub = await (await t.request("/api/pricing")).json();
    expect(pub.plans.map((p: { name: string }) => p.name)).toContain("Starter");
  });

  it("fills the spec's defaults: order 0, quarterlyMonths 3, yearlyYears 1, active, not popular, no features", async () => {
    const res = await postJson(
      t,
      "/api/pricing",
      { name: "Bare", pricing: { monthly: { price: 1 }, quarterly: { price: 2 }, yearly: { price: 3 } } },
      { headers: admin },
    );
    expect(res.status).toBe(201);
    expect((await res.json()).plan).toMatchObject({
      order: 0,
      quarterlyMonths: 3,
      yearlyYears: 1,
      isActive: true,
      isPopular: false,
      features: [],
      activeDuration: "monthly",
      description: "",
    });
  });

  const invalid: [string, unknown, string][] = [
    ["no name", validPlan({ name: undefined }), "Plan name is required"],
    ["a blank name", validPlan({ name: "   " }), "Plan name is required"],
    ["a name of the wrong type", validPlan({ name: 42 }), "Plan name is required"],
    ["a long name", validPlan({ name: "x".repeat(81) }), "Plan name is too long"],
    ["no pricing", validPlan({ pricing: undefined }), "Monthly price is required"],
    ["pricing that is not an object", validPlan({ pricing: "cheap" }), "Pricing must be an object"],
    [
      "a missing quarterly price",
      validPlan({ pricing: { monthly: { price: 1 }, yearly: { price: 3 } } }),
      "Quarterly price is required",
    ],
    [
      "a price that is text",
      validPlan({ pricing: { monthly: { price: "abc" }, quarterly: { price: 2 }, yearly: { price: 3 } } }),
      "Monthly price must be a number",
    ],
    [
      "a fractional price",
      validPlan({ pricing: { monthly: { price: 10.5 }, quarterly: { price: 2 }, yearly: { price: 3 } } }),
      "Monthly price must be a whole number of rupees",
    ],
    [
      "a negative price",
      validPlan({ pricing: { monthly: { price: 1 }, quarterly: { price: 2 }, yearly: { price: -3 } } }),
      "Yearly price cannot be negative",
    ],
    [
      "a huge price",
      validPlan({ pricing: { monthly: { price: 10_000_001 }, quarterly: { price: 2 }, yearly: { price: 3 } } }),
      "Monthly price cannot be more than ₹1,00,00,000",
    ],
    [
      "another currency",
      validPlan({ pricing: { monthly: { price: 1, currency: "USD" }, quarterly: { price: 2 }, yearly: { price: 3 } } }),
      "Currency must be INR",
    ],
    [
      "an unknown active duration",
      validPlan({ activeDuration: "weekly" }),
      "Active duration must be monthly, quarterly or yearly",
    ],
    ["zero quarterly months", validPlan({ quarterlyMonths: 0 }), "Quarterly months must be at least 1"],
    ["fractional quarterly months", validPlan({ quarterlyMonths: 1.5 }), "Quarterly months must be a whole number"],
    ["zero yearly years", validPlan({ yearlyYears: 0 }), "Yearly years must be at least 1"],
    ["yearly years as text", validPlan({ yearlyYears: "2" }), "Yearly years must be a number"],
    ["a feature without a name", validPlan({ features: [{ name: "  ", included: true }] }), "Feature name is required"],
    ["a feature with no name key", validPlan({ features: [{ included: true }] }), "Feature name is required"],
    ["features that are not a list", validPlan({ features: "all" }), "Features must be a list"],
    ["a feature that is not an object", validPlan({ features: ["x"] }), "Each feature must be an object with a name"],
    [
      "included that is not a boolean",
      validPlan({ features: [{ name: "A", included: "yes" }] }),
      "Feature included must be true or false",
    ],
    [
      "too many features",
      validPlan({ features: Array.from({ length: 31 }, (_, i) => ({ name: `F${i}` })) }),
      "A plan can have at most 30 features",
    ],
    ["isActive as text", validPlan({ isActive: "true" }), "Active must be true or false"],
    ["isPopular as a number", validPlan({ isPopular: 1 }), "Popular must be true or false"],
    ["a negative order", validPlan({ order: -1 }), "Display order cannot be negative"],
    ["a fractional order", validPlan({ order: 1.5 }), "Display order must be a whole number"],
    ["a body that is a list", [], "The plan must be a JSON object"],
  ];

  it.each(invalid)("refuses %s with 400 and the field's message, creating nothing", async (_what, body, message) => {
    const before = await planCount();
    const res = await postJson(t, "/api/pricing", body, { headers: admin });
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json).toMatchObject({ success: false, error: message, message });
    expect(await planCount()).toBe(before);
  });

  it("refuses malformed JSON with 400", async () => {
    const res = await postJson(t, "/api/pricing", "{not json", { headers: admin });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("The request body must be valid JSON.");
  });

  it("refuses a second plan with the same name (any case) with 409", async () => {
    const res = await postJson(t, "/api/pricing", validPlan({ name: "3 YEAR PLAN" }), { headers: admin });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe("A plan with this name already exists");
  });
});

describe("PUT /api/pricing/{id}", () => {
  it("applies a partial edit (one price) and keeps the rest", async () => {
    const created = (
      await (await postJson(t, "/api/pricing", validPlan({ name: "Editable" }), { headers: admin })).json()
    ).plan;
    const res = await put(created._id, { pricing: { monthly: { price: 1499 } }, description: "  New words  " });
    expect(res.status).toBe(200);
    const { plan } = await res.json();
    expect(plan.pricing).toEqual({
      monthly: { price: 1499, currency: "INR" },
      quarterly: { price: 2799, currency: "INR" },
      yearly: { price: 9999, currency: "INR" },
    });
    expect(plan.description).toBe("New words");
    expect(plan.features).toEqual(created.features);
    expect(new Date(plan.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(created.updatedAt).getTime());
  });

  it("replaces the whole body when sent whole", async () => {
    const created = (await (await postJson(t, "/api/pricing", validPlan({ name: "Whole" }), { headers: admin })).json())
      .plan;
    const res = await put(
      created._id,
      validPlan({ name: "Whole Renamed", features: [], isPopular: true, quarterlyMonths: 4, yearlyYears: 2, order: 9 }),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).plan).toMatchObject({
      name: "Whole Renamed",
      features: [],
      isPopular: true,
      quarterlyMonths: 4,
      yearlyYears: 2,
      order: 9,
    });
  });

  it("validates the merged plan and changes nothing on bad input", async () => {
    const created = (
      await (await postJson(t, "/api/pricing", validPlan({ name: "Guarded" }), { headers: admin })).json()
    ).plan;
    for (const [body, message] of [
      [{ name: "" }, "Plan name is required"],
      [{ features: [{ name: "" }] }, "Feature name is required"],
      [{ quarterlyMonths: 0 }, "Quarterly months must be at least 1"],
      [{ pricing: { yearly: { price: -1 } } }, "Yearly price cannot be negative"],
      [{ name: "1 Year Plan" }, "A plan with this name already exists"],
      ['"just text"', "The plan must be a JSON object"],
    ] as const) {
      const res = await put(created._id, body);
      expect([400, 409]).toContain(res.status);
      expect((await res.json()).error).toBe(message);
    }
    const [row] = await t.database.db.select().from(pricingPlans).where(eq(pricingPlans.id, created._id));
    expect(row).toMatchObject({ name: "Guarded", quarterlyMonths: 3, yearlyPrice: 999_900 });
  });

  it("answers 404 for an unknown or malformed id", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      const res = await put(id, { name: "Ghost" });
      expect(res.status).toBe(404);
      expect((await res.json()).error).toBe("Plan not found");
    }
  });

  it("keeps its own name when renamed in another case", async () => {
    const created = (await (await postJson(t, "/api/pricing", validPlan({ name: "Casey" }), { headers: admin })).json())
      .plan;
    const res = await put(created._id, { name: "CASEY" });
    expect(res.status).toBe(200);
  });
});

describe("DELETE /api/pricing/{id}", () => {
  it("deletes a plan nobody bought", async () => {
    const created = (
      await (await postJson(t, "/api/pricing", validPlan({ name: "Short-lived" }), { headers: admin })).json()
    ).plan;
    const res = await del(created._id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, deleted: true, deactivated: false });
    expect(await t.database.db.select().from(pricingPlans).where(eq(pricingPlans.id, created._id))).toEqual([]);
    expect((await del(created._id)).status).toBe(404);
  });

  it("deactivates a plan with purchases instead of breaking their history", async () => {
    const created = (
      await (await postJson(t, "/api/pricing", validPlan({ name: "Bought" }), { headers: admin })).json()
    ).plan;
    const buyer = await registerUser(t, "business");
    const purchase = await insertPlanOrder(t.database.db, {
      buyerId: buyer.user._id,
      planId: created._id,
      planName: "Bought",
      billing: "monthly",
      durationDays: 30,
      amount: 99_900,
      instituteName: "X",
      ownerName: "Y",
      email: buyer.email,
      domain: "bought.example.com",
      gatewayOrderId: "order_bought1",
      status: "paid",
    });
    const res = await del(created._id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      success: true,
      deleted: false,
      deactivated: true,
      message: "This plan has purchases, so it was deactivated instead of deleted.",
      plan: { isActive: false },
    });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, purchase.id));
    expect(row.planId).toBe(created._id);
    const pub = await (await t.request("/api/pricing")).json();
    expect(pub.plans.map((p: { name: string }) => p.name)).not.toContain("Bought");
  });

  it("deactivates a plan that centers are on", async () => {
    const [plan] = await t.database.db.select().from(pricingPlans).where(eq(pricingPlans.name, "3 Year Plan"));
    const res = await del(plan.id);
    expect(await res.json()).toMatchObject({ deleted: false, deactivated: true });
    await t.database.db.update(pricingPlans).set({ isActive: true }).where(eq(pricingPlans.id, plan.id));
    await t.services.plans.changed();
  });
});
