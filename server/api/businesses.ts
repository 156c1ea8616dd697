import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import type { AppDeps } from "../app.ts";
import { operation } from "./openapi.ts";
import { requireAuth } from "./guards.ts";

/** GET /api/businesses: the creator's Business dropdown (spec §7). */
export function businessesRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
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
  return api;
}
