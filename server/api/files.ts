import { Hono } from "hono";
import type { AppEnv } from "../http-types.ts";
import type { AppDeps } from "../app.ts";
import { describe } from "./openapi.ts";

describe({
  method: "get",
  path: "/files/{id}/{name}",
  tag: "content",
  auth: "public",
  summary: "A content's file through a signed link (HTTP Range supported); links come from the content calls",
  query: { u: "the user the link was issued to", e: "expiry (seconds since 1970)", s: "signature" },
  responses: { 200: "The file", 206: "The requested range", 403: "Invalid or expired link, or no access", 404: "Not found", 416: "Range not satisfiable" },
});

/** GET/HEAD /api/files/{contentId}/{name}?u&e&s: protected delivery (services/delivery.ts decides). */
export function filesRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.get("/:id/:name", (c) =>
    services.delivery.serve({
      contentId: c.req.param("id"),
      params: { u: c.req.query("u"), e: c.req.query("e"), s: c.req.query("s") },
      method: c.req.method,
      range: c.req.header("range"),
      ifRange: c.req.header("if-range"),
      sessionUser: c.get("auth")?.user ?? null,
    }),
  );
  return api;
}
