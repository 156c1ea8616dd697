import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../http-types.ts";
import type { Logger } from "../logger.ts";
import { metrics, routeLabel } from "../metrics.ts";

const SAFE_ID = /^[\w\-=.]{1,128}$/;

/** Gives every request an id (kept from X-Request-Id when it looks sane), logs it once when done. */
export function requestLog(logger: Logger) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : crypto.randomUUID();
    const log = logger.child({ requestId });
    c.set("requestId", requestId);
    c.set("log", log);
    const started = performance.now();
    await next();
    // An answer written straight to the socket carried its id already (server/http-direct.ts).
    if (!c.res.headers.has("x-hono-already-sent")) c.header("X-Request-Id", requestId);
    const site = c.get("site");
    const seconds = (performance.now() - started) / 1000;
    const handler = matchedRoutes(c).filter((r) => r.method !== "ALL").at(-1)?.path;
    const route = routeLabel(c.req.method, c.req.path, handler, site?.kind === "tenant");
    metrics.inc("http_requests_total", "HTTP requests by method, route and status.", { method: c.req.method, route, status: String(c.res.status) });
    metrics.observe("http_request_duration_seconds", "HTTP request durations by method and route.", { method: c.req.method, route }, seconds);
    log.info("request", {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      host: site?.host,
      tenant: site?.kind === "tenant" ? site.center.slug : undefined,
    });
  });
}
