import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { input, operation } from "./openapi.ts";
import { allow, platformOnly, requireAuth } from "./guards.ts";
import { SettingsSchema } from "#common/validation/settings.ts";

/** /api/settings: the admins' platform settings (server/services/settings.ts). */
export function settingsRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.use(platformOnly);
  api.get(
    "/",
    operation({
      tag: "settings",
      auth: "admin",
      summary:
        "The platform settings: stored values, their defaults (environment, or what the platform can tell) and what is in force",
      responses: { 200: "{stored, defaults, effective, updatedAt}" },
    }),
    allow("admin"),
    async (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(await services.settings.get());
    },
  );
  api.put(
    "/",
    operation({
      tag: "settings",
      auth: "admin",
      summary: "Store the DNS targets, support contacts and legal identity (an empty field goes back to its default)",
      responses: { 200: "{success, settings: {stored, defaults, effective, updatedAt}}", 400: "Invalid input" },
    }),
    allow("admin"),
    input("json", SettingsSchema),
    async (c) => {
      const { user } = requireAuth(c);
      const settings = await services.settings.update(c.req.valid("json"), user.id);
      return c.json({ success: true, settings });
    },
  );
  return api;
}
