import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { input, operation } from "./openapi.ts";
import { NO_SUBSCRIPTION, allowBusinessArea, requireBusinessCenter } from "./business-context.ts";
import { DomainCenterSchema, DomainClaimSchema } from "#common/domains.ts";

const STATE =
  "{bound, workingHost, claim: {domain, status (pending or lapsed), createdAt, expiresAt, txt: {name, value}, checkedAt, lastResult} | null}";

/**
 * An institute's own domain, for its owner (server/services/domains.ts): what is bound and what
 * waits for proof, asking for a domain, and "Check now".
 */
export function domainClaimsRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.get(
    "/claim",
    operation({
      tag: "domains",
      auth: "business",
      summary:
        "The institute's domain: the one bound to it, the one waiting for proof (with its TXT record) and its working address",
      responses: { 200: `{success, domain: ${STATE}}`, 404: NO_SUBSCRIPTION },
    }),
    allowBusinessArea(services),
    input("query", DomainCenterSchema),
    async (c) => {
      const { center } = await requireBusinessCenter(
        c,
        services,
        database.db,
        "site.edit",
        c.req.valid("query").centerId,
      );
      return c.json({ success: true, domain: await services.domains.state(center) });
    },
  );
  api.post(
    "/claim",
    operation({
      tag: "domains",
      auth: "business",
      summary:
        "Ask for a domain for the institute: it is bound only once proven (a TXT record, or the domain leading here); a new ask replaces the last and lapses after 7 days",
      responses: {
        200: `{success, proven: false, message, domain: ${STATE}}`,
        400: "Not a domain anyone can own, or a Pathshala address",
        404: NO_SUBSCRIPTION,
        409: "Bound to another institute (or under its domain), or already this institute's",
        429: "Rate limited",
      },
    }),
    allowBusinessArea(services),
    input("json", DomainClaimSchema),
    async (c) => {
      const body = c.req.valid("json");
      const { center } = await requireBusinessCenter(c, services, database.db, "site.edit", body.centerId);
      return c.json({ success: true, ...(await services.domains.ask(center, body)) });
    },
  );
  api.post(
    "/verify",
    operation({
      tag: "domains",
      auth: "business",
      summary: "Check now: look for the proof of the institute's domain and bind it when found",
      responses: {
        200: `{success, proven, message, domain: ${STATE}}`,
        404: `${NO_SUBSCRIPTION}; or no domain waiting to be proven`,
        409: "The time to prove it has run out",
        429: "Rate limited",
      },
    }),
    allowBusinessArea(services),
    input("json", DomainCenterSchema),
    async (c) => {
      const { center } = await requireBusinessCenter(
        c,
        services,
        database.db,
        "site.edit",
        c.req.valid("json").centerId,
      );
      return c.json({ success: true, ...(await services.domains.verify(center)) });
    },
  );
  return api;
}
