import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { operation } from "./openapi.ts";

/** GET /api/contents (spec §7): the public catalog. */
export function contentsRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.get(
    "/",
    operation({
      tag: "student",
      auth: "public",
      summary:
        "The catalog: active content offered on this site (only the institute's own on its domain). Live links are never listed here except to enrolled students from 15 minutes before the class; signed-in students see what they are enrolled in.",
      responses: { 200: "{items: Content[]} with liveStartsAt, hasLiveLink, liveOpensAt, enrolled, enrollmentId" },
    }),
    async (c) => {
      const user = c.get("auth")?.user ?? null;
      // Personal (enrolment flags, links) once someone is signed in; otherwise the same for every visitor.
      c.header("Cache-Control", user ? "private, no-store" : "public, max-age=30");
      c.header("Vary", "Cookie, Authorization");
      return c.json({ items: await services.catalog.list(c.get("site"), user) });
    },
  );
  return api;
}
