import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import type { AppDeps } from "../app.ts";
import { readJson } from "../http/errors.ts";
import { describe } from "./openapi.ts";
import { platformOnly, requireRole } from "./guards.ts";
import { TrialSchema } from "#common/trial.ts";

describe({
  method: "post",
  path: "/trial",
  tag: "trial",
  auth: "business",
  platformOnly: true,
  summary:
    "Start a 14-day free trial of a plan with the setup wizard's fields: the institute is live at once on its domain and on {slug}.{PLATFORM_DOMAIN}, nothing is paid",
  body: TrialSchema,
  responses: {
    201: "{success, center: {_id, slug, instituteName, domain, workingHost, plan, billing, status: 'trial', trialEndsAt, expiresAt}}",
    400: "Invalid input, unknown plan or a Pathshala address",
    401: "Not signed in",
    403: "Not a business account",
    409: "The owner or the domain already had a trial, or the domain belongs to a center",
    429: "Rate limited",
  },
});

/** POST /api/trial: a free trial, no payment (server/services/trials.ts). */
export function trialRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.post("/", platformOnly, async (c) => {
    const { user } = requireRole(c, "business");
    const center = await services.trials.start(user.id, await readJson(c, TrialSchema));
    return c.json({ success: true, center }, 201);
  });
  return api;
}
