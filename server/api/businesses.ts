import { Hono } from "hono";
import type { AppEnv } from "../http-types.ts";
import type { AppDeps } from "../app.ts";
import { describe } from "./openapi.ts";
import { requireAuth } from "./guards.ts";

describe({
  method: "get",
  path: "/businesses",
  tag: "content",
  auth: "signed-in",
  summary: "Every active business (center) content can be assigned to",
  responses: { 200: "{businesses: [{_id, name}]}", 401: "Not signed in" },
});

/** GET /api/businesses: the creator's Business dropdown (spec §7). */
export function businessesRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.get("/", async (c) => {
    requireAuth(c);
    return c.json({ businesses: await services.content.assignableBusinesses() });
  });
  return api;
}
