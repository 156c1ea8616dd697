import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import type { AppDeps } from "../app.ts";
import { jsonBody } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { allow, requireAuth } from "./guards.ts";
import { CreateSeriesSchema } from "#common/mock-tests/test-input.ts";
import { TEAM_ONLY } from "./questions.ts";

/** /api/series: test series, an ordered bundle of tests sold as one (issue 29). */
export function seriesRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  const { series } = services;

  api.get(
    "/",
    operation({
      tag: "tests",
      auth: "public",
      summary:
        "Test series: a creator's or owner's own and their teams'; anyone else's: those on sale on this site (a student's with whether they bought each)",
      responses: { 200: "{series: [{_id, title, description, price, businessId, tests: [{_id, title}], enrolled?}]}" },
    }),
    async (c) => {
      c.header("Cache-Control", "no-store");
      const user = c.get("auth")?.user ?? null;
      if (user && user.role !== "student") return c.json({ series: await series.listForTeam(user) });
      return c.json({ series: await series.listForSite(user, c.get("site")) });
    },
  );

  api.post(
    "/",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "Bundle the team's tests into a series sold as one (bought with POST /api/student/enroll like any content)",
      body: CreateSeriesSchema,
      responses: { 201: "{success, series}", 400: "Invalid input, or tests not the team's", ...TEAM_ONLY },
    }),
    allow("creator", "business", "admin"),
    async (c) => c.json({ success: true, series: await series.create(requireAuth(c).user, await jsonBody(c)) }, 201),
  );

  return api;
}
