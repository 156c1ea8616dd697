import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { operation } from "./openapi.ts";
import { requireAuth } from "./guards.ts";
import { jsonBody } from "../http/errors.ts";
import { builders, TEAM_ONLY } from "./mock-test-team.ts";
import { deskReader } from "./creator-desk.ts";
import { LateAnswerSettingsSchema } from "#common/mock-tests/late-answers.ts";
import { EXAM_ACCESS_TEXTS } from "../services/mock-tests/exam-access.ts";

/** GET /api/businesses: the creator's Business dropdown (spec §7). */
export function businessesRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const guardBuilders = builders(services, database.db);
  api.get(
    "/",
    operation({
      tag: "content",
      auth: "signed-in",
      summary:
        "The businesses the caller may assign content to: a creator's teams (an owner's own institutes, every one for an admin, none for a student)",
      responses: { 200: "{businesses: [{_id, name}]}" },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      return c.json({ businesses: await services.team.assignableBusinesses(user) });
    },
  );
  api.get(
    "/:id/late-answers",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "The institute's rule for answers made before a sitting's deadline that arrive after it: the grace period and whether they count",
      responses: { 200: '{graceMinutes, policy: "count" | "review" | "ignore"}', ...LATE_SETTINGS_REFUSALS },
    }),
    guardBuilders,
    async (c) => c.json(await services.attempts.lateAnswerSettings(deskReader(c), c.req.param("id"))),
  );
  api.put(
    "/:id/late-answers",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        'Set the grace period (0–60 minutes, default 10) and what late answers made in time do: "count" (default), "review" (held until decided) or "ignore"',
      body: LateAnswerSettingsSchema,
      responses: { 200: "{success, graceMinutes, policy}", 400: "Invalid input", ...LATE_SETTINGS_REFUSALS },
    }),
    guardBuilders,
    async (c) => {
      const settings = await services.attempts.setLateAnswerSettings(
        deskReader(c),
        c.req.param("id"),
        await jsonBody(c),
      );
      return c.json({ success: true, ...settings });
    },
  );
  return api;
}

const LATE_SETTINGS_REFUSALS = { ...TEAM_ONLY, 404: EXAM_ACCESS_TEXTS.notYourBusiness };
