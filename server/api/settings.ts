import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import type { AppDeps } from "../app.ts";
import { readJson } from "../http/errors.ts";
import { describe } from "./openapi.ts";
import { platformOnly, requireRole } from "./guards.ts";
import { SettingsSchema } from "#common/validation/settings.ts";

describe(
  {
    method: "get",
    path: "/settings",
    tag: "settings",
    auth: "admin",
    summary:
      "The platform settings: stored values, their defaults (environment, or what the platform can tell) and what is in force",
    responses: { 200: "{stored, defaults, effective, updatedAt}" },
  },
  {
    method: "put",
    path: "/settings",
    tag: "settings",
    auth: "admin",
    summary: "Store the DNS targets, support contacts and legal identity (an empty field goes back to its default)",
    body: SettingsSchema,
    responses: { 200: "{success, settings: {stored, defaults, effective, updatedAt}}", 400: "Invalid input" },
  },
);

/** /api/settings: the admins' platform settings (server/services/settings.ts). */
export function settingsRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.use(platformOnly);
  api.get("/", async (c) => {
    requireRole(c, "admin");
    c.header("Cache-Control", "no-store");
    return c.json(await services.settings.get());
  });
  api.put("/", async (c) => {
    const { user } = requireRole(c, "admin");
    const settings = await services.settings.update(await readJson(c, SettingsSchema), user.id);
    return c.json({ success: true, settings });
  });
  return api;
}
