import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { PLAN_NOT_FOUND, toPlanJson } from "../services/plans.ts";
import { badRequest } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { allow, idParam, platformOnly } from "./guards.ts";
import { PlanSchema } from "#common/validation/plans.ts";

export const PLAN_DEACTIVATED = "This plan has purchases, so it was deactivated instead of deleted.";

/** GET /api/pricing (public); GET /admin, POST /, PUT /:id, DELETE /:id (admins only). */
export function pricingRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.get(
    "/",
    operation({
      tag: "pricing",
      auth: "public",
      summary: "The plans on sale, in display order",
      responses: { 200: "{plans: Plan[]}" },
    }),
    async (c) => {
      const plans = await services.plans.listActive();
      c.header("Cache-Control", "public, max-age=30");
      return c.json({ plans: plans.map(toPlanJson) });
    },
  );

  api.get(
    "/admin",
    operation({
      tag: "pricing",
      auth: "admin",
      summary: "Every plan, active or not, in display order",
      responses: { 200: "{plans: Plan[]}" },
    }),
    platformOnly,
    allow("admin"),
    async (c) => {
      const plans = await services.plans.listAll();
      c.header("Cache-Control", "no-store");
      return c.json({ plans: plans.map(toPlanJson) });
    },
  );

  api.post(
    "/",
    operation({
      tag: "pricing",
      auth: "admin",
      summary: "Create a plan (prices in rupees)",
      body: PlanSchema,
      responses: {
        201: "{success, plan}",
        400: "Invalid plan",
        409: "A plan with this name already exists",
      },
    }),
    platformOnly,
    allow("admin"),
    async (c) => {
      const plan = await services.plans.create(await readBody(c));
      return c.json({ success: true, message: "Plan created", plan: toPlanJson(plan) }, 201);
    },
  );

  api.put(
    "/:id",
    operation({
      tag: "pricing",
      auth: "admin",
      summary: "Edit a plan: the whole plan body or any part of it; the result is validated whole",
      body: PlanSchema,
      responses: {
        200: "{success, plan}",
        400: "Invalid plan",
        404: "Plan not found",
        409: "A plan with this name already exists",
      },
    }),
    platformOnly,
    allow("admin"),
    async (c) => {
      const id = idParam(c, PLAN_NOT_FOUND);
      const plan = await services.plans.update(id, await readBody(c));
      return c.json({ success: true, message: "Plan updated", plan: toPlanJson(plan) });
    },
  );

  api.delete(
    "/:id",
    operation({
      tag: "pricing",
      auth: "admin",
      summary: "Delete a plan; a plan with purchases is deactivated instead",
      responses: {
        200: "{success, deleted, deactivated, message}",
        404: "Plan not found",
      },
    }),
    platformOnly,
    allow("admin"),
    async (c) => {
      const result = await services.plans.remove(idParam(c, PLAN_NOT_FOUND));
      return c.json({
        success: true,
        deleted: result.deleted,
        deactivated: result.deactivated,
        message: result.deleted ? "Plan deleted" : PLAN_DEACTIVATED,
        plan: toPlanJson(result.plan),
      });
    },
  );
  return api;
}

async function readBody(c: { req: { json(): Promise<unknown> } }): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw badRequest("The request body must be valid JSON.");
  }
}
