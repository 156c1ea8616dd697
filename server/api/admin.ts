import { Hono } from "hono";
import * as v from "valibot";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { badRequest, parseWith } from "../http/errors.ts";
import { NOTIFICATION_LIMIT_MAX } from "../services/admin-feed.ts";
import { input, operation } from "./openapi.ts";
import { allow, requireAuth, requireRole, platformOnly } from "./guards.ts";

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${NOTIFICATION_LIMIT_MAX}`;
const LimitQuery = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, LIMIT_MESSAGE),
      v.transform(Number),
      v.minValue(1, LIMIT_MESSAGE),
      v.maxValue(NOTIFICATION_LIMIT_MAX, LIMIT_MESSAGE),
      v.description(`1 to ${NOTIFICATION_LIMIT_MAX} (default 10)`),
    ),
    "10",
  ),
});

const isoTime = (field: string) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(`${field} must be a date and time`),
        v.isoTimestamp(`${field} must be a date and time`),
        v.transform((s) => new Date(s)),
      ),
    ),
  );

/** What the panel showed as newest; omitted, the newest in the database are taken. */
export const MarkReadSchema = v.object({
  purchasesSeenAt: isoTime("purchasesSeenAt"),
  selectionsSeenAt: isoTime("selectionsSeenAt"),
  noticesSeenAt: isoTime("noticesSeenAt"),
});

/** /api/admin: platform figures and the admins' notifications (spec §6: admins only, decided here). */
export function adminRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  const feed = services.adminFeed;

  api.use(platformOnly);
  api.get(
    "/role-stats",
    operation({
      tag: "admin",
      auth: "admin",
      summary:
        "How many business, student and creator accounts exist, centers by paid plan, trial or lapsed, and mock tests and their sittings",
      responses: {
        200: "{collections: {businesses, students, creators}, centers: {paid, trials, lapsed}, tests: {published, attempts, submitted}}",
      },
    }),
    allow("admin"),
    async (c) => {
      const [roles, centers, tests] = await Promise.all([feed.roleStats(), feed.centerStats(), feed.testStats()]);
      return c.json({ ...roles, centers, tests });
    },
  );

  api.get(
    "/recent-purchases",
    operation({
      tag: "admin",
      auth: "admin",
      summary: "Newest paid plan purchases (spec §3 Purchase notification), hiding what this admin cleared",
      responses: {
        200: "{purchases: [{createdAt, plan, currency, amount, centerId {instituteName, domain, plan}, instituteName, domain, createdByName, ownerName, createdByEmail, email, businessId {name, email}}]}",
        400: "Invalid limit",
      },
    }),
    allow("admin"),
    input("query", LimitQuery),
    async (c) => {
      const { user } = requireAuth(c);
      const { limit } = c.req.valid("query");
      return c.json({ purchases: await feed.recentPurchases(user.id, limit) });
    },
  );

  api.get(
    "/recent-template-selections",
    operation({
      tag: "admin",
      auth: "admin",
      summary: "Newest template choices (spec §3 Template selection notification), hiding what this admin cleared",
      responses: {
        200: "{selections: [{appliedAt, createdAt, templateId, centerId {instituteName, domain}, businessId {name, email}, businessName, businessEmail}]}",
        400: "Invalid limit",
      },
    }),
    allow("admin"),
    input("query", LimitQuery),
    async (c) => {
      const { user } = requireAuth(c);
      const { limit } = c.req.valid("query");
      return c.json({ selections: await feed.recentSelections(user.id, limit) });
    },
  );

  api.get(
    "/notifications",
    operation({
      tag: "admin",
      auth: "admin",
      summary:
        "Both notification lists, this admin's unread counts and read/cleared times, in one call (what the bell polls)",
      responses: {
        200: "{purchases, selections, notices (trials and refunds), unread: {purchases, selections, notices, total}, state: {purchasesSeenAt, selectionsSeenAt, noticesSeenAt, purchasesClearedAt, selectionsClearedAt, noticesClearedAt}}",
        400: "Invalid limit",
      },
    }),
    allow("admin"),
    input("query", LimitQuery),
    async (c) => {
      const { user } = requireAuth(c);
      const { limit } = c.req.valid("query");
      c.header("Cache-Control", "no-store");
      return c.json(await feed.notifications(user.id, limit));
    },
  );

  api.post(
    "/notifications/read",
    operation({
      tag: "admin",
      auth: "admin",
      summary: "Mark all read: store the newest times seen (given, or the newest in the database); never moves back",
      body: MarkReadSchema,
      responses: { 200: "{success, state}", 400: "Invalid times" },
    }),
    async (c) => {
      const { user } = requireRole(c, "admin");
      // An empty body means "everything up to the newest".
      const raw = (await c.req.text()).trim();
      const seen = raw ? parseWith(MarkReadSchema, safeJson(raw)) : {};
      return c.json({ success: true, state: await feed.markRead(user.id, seen) });
    },
  );

  api.post(
    "/notifications/clear",
    operation({
      tag: "admin",
      auth: "admin",
      summary: "Clear all: hide everything up to now from this admin's panel",
      responses: { 200: "{success, state}" },
    }),
    async (c) => {
      const { user } = requireRole(c, "admin");
      return c.json({ success: true, state: await feed.clear(user.id) });
    },
  );

  return api;
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest("The request body must be valid JSON.");
  }
}
