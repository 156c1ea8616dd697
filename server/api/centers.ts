import { Hono } from "hono";
import * as v from "valibot";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { HttpError, jsonBody } from "../http/errors.ts";
import { emailSchema } from "#common/validation/account.ts";
import { normaliseHost } from "../runtime/env.ts";
import type { OwnedCenter } from "../services/business.ts";
import { TEMPLATE_IDS } from "../../tenants/types.ts";
import { input, operation } from "./openapi.ts";
import { allow, idParam, platformOnly, requireAuth } from "./guards.ts";
import { CENTER_NOT_FOUND } from "../services/center-admin.ts";
import { NO_SUBSCRIPTION } from "./business-context.ts";
import { CenterStatusSchema, CENTER_TEXTS, ExtendCenterSchema, SubCenterSchema } from "#common/validation/centers.ts";

const CenterListQuery = v.object({
  q: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(100, "Search text is too long"),
      v.description("part of the name, domain or slug"),
    ),
  ),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, "limit must be a whole number from 1 to 200"),
      v.transform(Number),
      v.minValue(1, "limit must be a whole number from 1 to 200"),
      v.maxValue(200, "limit must be a whole number from 1 to 200"),
      v.description("1 to 200 (default 50)"),
    ),
    "50",
  ),
  offset: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,9}$/, "offset must be a whole number"),
      v.transform(Number),
      v.description("rows to skip (default 0)"),
    ),
    "0",
  ),
});

const LookupQuery = v.union(
  [
    v.object({ email: emailSchema }),
    v.object({ domain: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.nonEmpty("Please give an email or a domain")) }),
  ],
  "Please give an email or a domain",
);

const CenterTemplateInput = v.object({
  email: emailSchema,
  templateId: v.picklist(TEMPLATE_IDS, "Please choose a template: t1, t2, t3 or t4"),
});

/** The subscription lookup's answer (spec §3 "Subscription lookup"). */
export function subscriptionOf(center: OwnedCenter) {
  const expired = center.expiresAt ? center.expiresAt.getTime() <= Date.now() : false;
  const live = center.status === "active" && !expired;
  return {
    plan: center.planName,
    // A trial reads "trial" while it runs and "expired" once it has ended unpaid.
    status: live && center.trialEndsAt ? "trial" : live ? "active" : expired ? "expired" : "inactive",
    trialEndsAt: center.trialEndsAt?.toISOString() ?? null,
    subscriptionStartAt: center.startsAt.toISOString(),
    expiresAt: center.expiresAt?.toISOString() ?? null,
    instituteName: center.instituteName,
    templateId: center.templateId,
    domain: center.customDomain,
    billing: center.billing,
    _id: center.id,
  };
}

/** /api/centers: the admins' center management, subscription lookup and template choice by owner email. */
export function centersRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();

  api.get(
    "/",
    operation({
      tag: "centers",
      auth: "admin",
      summary: "Every center, newest first (search by name or domain; paged)",
      responses: {
        200: "{centers: [{_id, name, domain, website, superAdminPath, createdAt, startsAt, expireDate, status, plan, billing, owner}], total}",
        400: "Invalid query",
      },
    }),
    platformOnly,
    allow("admin"),
    input("query", CenterListQuery),
    async (c) => {
      const query = c.req.valid("query");
      return c.json(await services.centers.list(query));
    },
  );

  api.post(
    "/",
    operation({
      tag: "centers",
      auth: "admin",
      summary: "Create a sub center; its domain serves it at once",
      body: SubCenterSchema,
      responses: {
        201: `{success, message: '${CENTER_TEXTS.created}', center}`,
        400: "Invalid input (spec §5 messages) or a Pathshala address",
        409: "Domain already used by another center",
      },
    }),
    platformOnly,
    allow("admin"),
    async (c) => {
      const center = await services.centers.create(await jsonBody(c));
      return c.json({ success: true, message: CENTER_TEXTS.created, center }, 201);
    },
  );

  api.put(
    "/:id",
    operation({
      tag: "centers",
      auth: "admin",
      summary: "Edit a center's name, domain, website and super admin path",
      body: SubCenterSchema,
      responses: {
        200: "{success, center}",
        400: "Invalid input",
        404: "Center not found",
        409: "Domain already used by another center",
      },
    }),
    platformOnly,
    allow("admin"),
    async (c) => {
      const id = idParam(c, CENTER_NOT_FOUND);
      return c.json({ success: true, center: await services.centers.update(id, await jsonBody(c)) });
    },
  );

  api.post(
    "/:id/extend",
    operation({
      tag: "centers",
      auth: "admin",
      summary: "Extend a center's expiry by whole days (from its expiry, or from now if it has passed)",
      body: ExtendCenterSchema,
      responses: {
        200: "{success, center}",
        400: "Invalid days",
        404: "Center not found",
      },
    }),
    platformOnly,
    allow("admin"),
    async (c) => {
      const id = idParam(c, CENTER_NOT_FOUND);
      return c.json({ success: true, center: await services.centers.extend(id, await jsonBody(c)) });
    },
  );

  api.put(
    "/:id/status",
    operation({
      tag: "centers",
      auth: "admin",
      summary: "Activate or deactivate a center (an inactive center's site is unavailable)",
      body: CenterStatusSchema,
      responses: {
        200: "{success, center}",
        400: "Invalid status",
        404: "Center not found",
      },
    }),
    platformOnly,
    allow("admin"),
    async (c) => {
      const id = idParam(c, CENTER_NOT_FOUND);
      return c.json({ success: true, center: await services.centers.setStatus(id, await jsonBody(c)) });
    },
  );

  api.get(
    "/lookup",
    operation({
      tag: "centers",
      auth: "signed-in",
      summary: "Subscription of an institute by its owner's email or its domain (the owner's own, or any for admins)",
      query: { email: "owner's email (trimmed, lower-cased)", domain: "the institute's domain (trimmed, lower-cased)" },
      responses: {
        200: "{plan, status (active, trial, expired or inactive), trialEndsAt, subscriptionStartAt, expiresAt, instituteName, templateId}",
        400: "Neither email nor domain",
        403: "Not yours",
        404: NO_SUBSCRIPTION,
      },
    }),
    allow("business", "admin"),
    input("query", LookupQuery),
    async (c) => {
      const { user } = requireAuth(c);
      const query = c.req.valid("query");
      let center: OwnedCenter | undefined;
      if ("email" in query) {
        if (user.role !== "admin" && query.email !== user.email)
          throw new HttpError(403, "You can only look up your own subscription.");
        const owner = user.role === "admin" ? await services.accounts.findByEmail(query.email) : user;
        center = owner ? (await services.business.ownedCenters(owner.id))[0] : undefined;
      } else {
        const site = await services.tenants.resolve(normaliseHost(query.domain));
        center = site.kind === "tenant" ? await services.business.centerById(site.center.id) : undefined;
        if (center && user.role !== "admin" && center.ownerId !== user.id)
          throw new HttpError(403, "You can only look up your own subscription.");
      }
      if (!center) throw new HttpError(404, NO_SUBSCRIPTION);
      return c.json(subscriptionOf(center));
    },
  );

  api.post(
    "/template",
    operation({
      tag: "centers",
      auth: "business",
      summary: "Record the template of the owner's institute (by the owner's email)",
      responses: {
        200: "{success, alreadyApplied, templateId}",
        400: "Invalid input",
        403: "Not your email, or no active plan",
        404: NO_SUBSCRIPTION,
      },
    }),
    allow("business"),
    input("json", CenterTemplateInput),
    async (c) => {
      const { user } = requireAuth(c);
      const choice = c.req.valid("json");
      if (choice.email !== user.email) throw new HttpError(403, "You can only change your own institute's template.");
      const center = await services.business.currentCenter(user.id, c.get("site"));
      if (!center) throw new HttpError(404, NO_SUBSCRIPTION);
      const { alreadyApplied } = await services.sites.applyTemplate(center, choice.templateId, user.id);
      return c.json({ success: true, alreadyApplied, templateId: choice.templateId });
    },
  );

  return api;
}
