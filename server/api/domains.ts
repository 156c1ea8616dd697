import { Hono } from "hono";
import { isIP } from "node:net";
import type { AppEnv } from "../http/types.ts";
import type { AppDeps } from "../app.ts";
import { normaliseHost } from "../runtime/env.ts";
import { isCenterLive } from "../services/tenants.ts";
import { operation } from "./openapi.ts";

/**
 * GET /api/domains/ask?domain= answers from the in-memory host cache, so Caddy's check costs
 * microseconds. Only platform hosts and live institutes' domains get certificates; IP addresses never.
 */
export function domainsRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.get(
    "/ask",
    operation({
      tag: "domains",
      auth: "public",
      summary: "For Caddy's on-demand TLS: 200 when a certificate may be issued for the domain",
      query: { domain: "the host name Caddy is asked for" },
      responses: {
        200: { description: "Allowed: the text ok", content: ["text/plain"] },
        404: { description: "Not a live institute's domain (or an IP address): the text no", content: ["text/plain"] },
      },
    }),
    async (c) => {
      const raw = c.req.query("domain") ?? "";
      const domain = normaliseHost(raw);
      if (
        !domain ||
        raw.length > 253 ||
        isIP(domain.replace(/^\[|\]$/g, "")) ||
        (!domain.includes(".") && domain !== "localhost")
      ) {
        return c.text("no", 404);
      }
      const site = await services.tenants.resolve(domain);
      const allowed = site.kind === "platform" || (site.kind === "tenant" && isCenterLive(site.center));
      return allowed ? c.text("ok", 200) : c.text("no", 404);
    },
  );
  return api;
}
