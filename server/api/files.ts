import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { operation } from "./openapi.ts";
import { idParam } from "./guards.ts";

/** GET/HEAD /api/files/{contentId}/{name}?u&e&s: protected delivery (services/delivery.ts decides). */
export function filesRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.get(
    "/:id/:name",
    operation({
      tag: "content",
      auth: "public",
      summary: "A content's file through a signed link (HTTP Range supported); links come from the content calls",
      query: { u: "the user the link was issued to", e: "expiry (seconds since 1970)", s: "signature" },
      responses: {
        200: { description: "The file, as its own type", content: ["*/*"] },
        206: { description: "The requested range", content: ["*/*"] },
        403: "Invalid or expired link, or no access",
        404: "Not found",
        416: { description: "Range not satisfiable", content: [] },
      },
    }),
    (c) =>
      services.delivery.serve({
        contentId: idParam(c, "File not found"),
        params: { u: c.req.query("u"), e: c.req.query("e"), s: c.req.query("s") },
        method: c.req.method,
        range: c.req.header("range"),
        ifRange: c.req.header("if-range"),
        sessionUser: c.get("auth")?.user ?? null,
      }),
  );
  return api;
}
