import { createMiddleware } from "hono/factory";
import { requestId } from "hono/request-id";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./types.ts";
import type { Logger } from "../runtime/logger.ts";
import { httpRequestDuration, httpRequests, routeLabel } from "../runtime/metrics.ts";

type Series = { count: { inc(): void }; duration: { observe(seconds: number): void } };
/** Route → method → status: the metric series of each kind of request, found once. */
const SERIES = new Map<string, Map<string, Map<number, Series>>>();

function requestSeries(method: string, route: string, status: number): Series {
  let byMethod = SERIES.get(route);
  if (!byMethod) SERIES.set(route, (byMethod = new Map()));
  let byStatus = byMethod.get(method);
  if (!byStatus) byMethod.set(method, (byStatus = new Map()));
  let series = byStatus.get(status);
  if (!series) {
    series = {
      count: httpRequests.labels(method, route, String(status)),
      duration: httpRequestDuration.labels(method, route),
    };
    byStatus.set(status, series);
  }
  return series;
}

/**
 * The request's id (Hono's requestId: the caller's X-Request-Id when it is word characters, `-`
 * and `=` up to 128 long, else a new UUID), then a logger that carries it; when the answer is
 * made, the id on it and the request counted, timed and logged.
 */
export function requestLog(logger: Logger) {
  return [
    requestId({ limitLength: 128 }),
    createMiddleware<AppEnv>(async (c, next) => {
      const id = c.get("requestId");
      c.set("log", logger.child({ requestId: id }));
      const started = performance.now();
      await next();
      // requestId's own header is set before the handler, and an answer the handler makes as a
      // Response of its own (React Router's pages) does not carry it.
      c.res.headers.set("X-Request-Id", id);
      const ms = performance.now() - started;
      const site = c.get("site");
      const tenant = site?.kind === "tenant";
      const handler = matchedRoutes(c)
        .filter((r) => r.method !== "ALL")
        .at(-1)?.path;
      const series = requestSeries(c.req.method, routeLabel(c.req.method, c.req.path, handler, tenant), c.res.status);
      series.count.inc();
      series.duration.observe(ms / 1000);
      logger.info("request", {
        requestId: id,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(ms * 10) / 10,
        host: site?.host,
        tenant: tenant ? site.center.slug : undefined,
      });
    }),
  ] as const;
}
