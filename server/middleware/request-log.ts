import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../http-types.ts";
import type { Logger } from "../logger.ts";
import { metrics, routeLabel, type CounterSeries, type HistogramSeries } from "../metrics.ts";

const SAFE_ID = /^[\w\-=.]{1,128}$/;

/** The request's id: the caller's X-Request-Id when it looks sane, else a new one. */
export function requestIdFrom(incoming: string | undefined): string {
  return incoming && SAFE_ID.test(incoming) ? incoming : crypto.randomUUID();
}

export interface FinishedRequest {
  requestId: string;
  method: string;
  path: string;
  /** The bounded metrics label (see routeLabel). */
  route: string;
  status: number;
  /** performance.now() when the request arrived. */
  started: number;
  host?: string;
  tenant?: string;
}

/** Route → method → status: the metric series of each kind of request, found without building keys. */
const SERIES = new Map<string, Map<string, Map<number, { count: CounterSeries; duration: HistogramSeries }>>>();

function requestSeries(method: string, route: string, status: number) {
  let byMethod = SERIES.get(route);
  if (!byMethod) SERIES.set(route, (byMethod = new Map()));
  let byStatus = byMethod.get(method);
  if (!byStatus) byMethod.set(method, (byStatus = new Map()));
  let series = byStatus.get(status);
  if (!series) {
    series = {
      count: metrics.counter("http_requests_total", "HTTP requests by method, route and status.", { method, route, status: String(status) }),
      duration: metrics.histogram("http_request_duration_seconds", "HTTP request durations by method and route.", { method, route }),
    };
    byStatus.set(status, series);
  }
  return series;
}

/**
 * Counts, times and logs one answered request: the framework's middleware and the cached home
 * page path (server/tenant-home.ts) both end here, so their metrics and log lines are the same.
 */
export function recordRequest(logger: Logger, r: FinishedRequest): void {
  const ms = performance.now() - r.started;
  const series = requestSeries(r.method, r.route, r.status);
  series.count.inc();
  series.duration.observe(ms / 1000);
  logger.info("request", {
    requestId: r.requestId,
    method: r.method,
    path: r.path,
    status: r.status,
    ms: Math.round(ms * 10) / 10,
    host: r.host,
    tenant: r.tenant,
  });
}

/** Gives every request an id and a logger that carries it, and records the request when done. */
export function requestLog(logger: Logger) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const requestId = requestIdFrom(c.req.header("x-request-id"));
    c.set("requestId", requestId);
    c.set("log", logger.child({ requestId }));
    const started = performance.now();
    await next();
    // On the answer's own headers: c.header() after the handler would rebuild the answer as a
    // stream, which costs a tenth of a small API request's time.
    c.res.headers.set("X-Request-Id", requestId);
    const site = c.get("site");
    const tenant = site?.kind === "tenant";
    const handler = matchedRoutes(c).filter((r) => r.method !== "ALL").at(-1)?.path;
    recordRequest(logger, {
      requestId,
      method: c.req.method,
      path: c.req.path,
      route: routeLabel(c.req.method, c.req.path, handler, tenant),
      status: c.res.status,
      started,
      host: site?.host,
      tenant: tenant ? site.center.slug : undefined,
    });
  });
}
