import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { input, operation } from "./openapi.ts";
import { allow, platformOnly, requireAuth } from "./guards.ts";
import { TrialSchema } from "#common/trial.ts";

/** POST /api/trial: a free trial, no payment (server/services/trials.ts). */
export function trialRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.post(
    "/",
    platformOnly,
    operation({
      tag: "trial",
      auth: "business",
      summary:
        "Start a 14-day free trial of a plan with the setup wizard's fields: the institute is live at once on {slug}.{PLATFORM_DOMAIN} and asks for its domain (bound once its owner proves it), nothing is paid",
      responses: {
        201: "{success, center: {_id, slug, instituteName, domain (null until proven), pendingDomain, workingHost, plan, billing, status: 'trial', trialEndsAt, expiresAt}}",
        400: "Invalid input, unknown plan or a Pathshala address",
        409: "The owner already had a trial or already has an institute, or the domain (its www. twin, or a domain above it) is bound to another institute, or to the owner's own",
        429: "Rate limited",
      },
    }),
    allow("business"),
    input("json", TrialSchema),
    async (c) => {
      const { user } = requireAuth(c);
      const center = await services.trials.start(user.id, c.req.valid("json"));
      return c.json({ success: true, center }, 201);
    },
  );
  return api;
}
