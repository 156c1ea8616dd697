import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { CreateSeriesSchema } from "#common/mock-tests/test-input.ts";
import { builders, TEAM_ONLY, teamOrSite } from "./mock-test-team.ts";
import { deskReader } from "./creator-desk.ts";

/** /api/series: test series, an ordered bundle of tests sold as one (issue 29). */
export function seriesRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const guardBuilders = builders(services, database.db);
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
    async (c) =>
      c.json({
        series: await teamOrSite(
          c,
          services,
          (user) => series.listForTeam(user),
          (user, site) => series.listForSite(user, site),
        ),
      }),
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
    guardBuilders,
    async (c) => c.json({ success: true, series: await series.create(deskReader(c), await jsonBody(c)) }, 201),
  );

  return api;
}
