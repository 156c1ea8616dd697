import type { Hono as HonoApp } from "hono";
import { Hono } from "hono";
import { isIP } from "node:net";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { normaliseHost } from "../runtime/env.ts";
import { isCenterLive } from "../services/tenants.ts";
import { operation } from "./openapi.ts";
import { requestHost } from "../middleware/tenant.ts";
import { PROOF_PATH } from "#common/domains.ts";

/**
 * GET /api/domains/ask?domain= answers from the in-memory host cache, so Caddy's check costs
 * microseconds. Only platform hosts, working addresses and the bound (proven) domains of live
 * institutes (with their `www.` twins, which lead to them) get certificates; a domain only asked
 * for never does, nor an IP address.
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

/**
 * The platform's half of the HTTP proof of a domain (DomainService): on a host that has a live
 * claim with this token, the answer the check expects; a plain 404 otherwise. Answered on any
 * host before host resolution, since the domain is not bound yet (deploy/Caddyfile passes this
 * path through on plain HTTP).
 */
export function mountDomainProof(app: HonoApp<AppEnv>, { services, env }: Pick<AppDeps, "services" | "env">): void {
  app.get(`${PROOF_PATH}:token`, async (c) => {
    c.header("Cache-Control", "no-store");
    const host = requestHost(c, env.TRUST_PROXY);
    const answer = host ? await services.domains.answer(host, c.req.param("token")) : null;
    return answer ? c.text(answer, 200) : c.text("Not found", 404);
  });
}
