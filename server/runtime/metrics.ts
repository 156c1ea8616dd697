/**
 * Prometheus metrics for this process (prom-client), served at /metrics behind METRICS_TOKEN:
 * prom-client's default process and Node.js metrics (memory, heap, event loop…), the collector's
 * pauses by kind, request counts and durations by route, cache lookups, the database pool and the
 * rendered-page cache, and the memory left after the last full garbage collection.
 */

import { PerformanceObserver, constants as perfConstants } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Request and collector-pause buckets, in seconds: a millisecond to five seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export const registry = new Registry();
collectDefaultMetrics({ register: registry });
// prom-client's own pause histogram counts only the first collection of each batch the runtime
// reports (most scavenges go missing): this file counts every one, under the same name.
registry.removeSingleMetric("nodejs_gc_duration_seconds");

/** The metrics text a scrape gets, and its content type. */
export const metrics = {
  render: (): Promise<string> => registry.metrics(),
  contentType: registry.contentType,
};

export const httpRequests = new Counter({
  name: "http_requests_total",
  help: "HTTP requests by method, route and status.",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "HTTP request durations by method and route.",
  labelNames: ["method", "route"] as const,
  buckets: BUCKETS,
  registers: [registry],
});

/** The collector's pauses by kind: a latency tail that follows them shows here. */
const gcPauses = new Histogram({
  name: "nodejs_gc_duration_seconds",
  help: "Garbage collection pauses by kind (major, minor, incremental or weakcb).",
  labelNames: ["kind"] as const,
  buckets: BUCKETS,
  registers: [registry],
});
const GC_KINDS = new Map([
  [perfConstants.NODE_PERFORMANCE_GC_MINOR, gcPauses.labels("minor")],
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR, gcPauses.labels("major")],
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL, gcPauses.labels("incremental")],
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB, gcPauses.labels("weakcb")],
]);

/**
 * The heap still in use right after the last full collection: what the process really keeps. The
 * heap and resident memory read at any other moment swing with the collector's cycle (resident
 * memory by a fifth), so a leak shows here first, as a floor that keeps rising. Resident memory
 * at the same moment is the floor the process returns to.
 */
let liveHeapBytes = 0;
let residentAfterGcBytes = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    if (kind === undefined) continue;
    GC_KINDS.get(kind)?.observe(entry.duration / 1000);
    if (kind !== perfConstants.NODE_PERFORMANCE_GC_MAJOR) continue;
    liveHeapBytes = getHeapStatistics().used_heap_size;
    residentAfterGcBytes = process.memoryUsage.rss();
  }
}).observe({ entryTypes: ["gc"] });
new Gauge({
  name: "nodejs_heap_live_after_gc_bytes",
  help: "V8 heap in use right after the last full garbage collection (0 before the first).",
  registers: [registry],
  collect() {
    this.set(liveHeapBytes);
  },
});
new Gauge({
  name: "process_resident_memory_after_gc_bytes",
  help: "Resident memory right after the last full garbage collection (0 before the first).",
  registers: [registry],
  collect() {
    this.set(residentAfterGcBytes);
  },
});

/** What the runtime's gauges read when /metrics is scraped (set once the runtime exists). */
export interface ScrapedSources {
  /** Connection pool sizes (PostgreSQL only). */
  pool?: () => { total: number; idle: number; waiting: number };
  /** The rendered institute home pages held, and their bytes. */
  siteCache?: () => { entries: number; bytes: number };
}
let sources: ScrapedSources = {};

/** Points the runtime's gauges at this instance's pool and caches. */
export function readAtScrape(next: ScrapedSources): void {
  sources = next;
}

new Gauge({
  name: "pathshala_db_pool_connections",
  help: "Database pool connections by state.",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const stats = sources.pool?.();
    if (!stats) return;
    this.set({ state: "total" }, stats.total);
    this.set({ state: "idle" }, stats.idle);
    this.set({ state: "waiting" }, stats.waiting);
  },
});
new Gauge({
  name: "pathshala_site_cache_bytes",
  help: "Memory held by rendered institute home pages.",
  registers: [registry],
  collect() {
    this.set(sources.siteCache?.().bytes ?? 0);
  },
});
new Gauge({
  name: "pathshala_site_cache_entries",
  help: "Rendered institute home pages held.",
  registers: [registry],
  collect() {
    this.set(sources.siteCache?.().entries ?? 0);
  },
});

/** A bounded label for a request's route: API routes by pattern, pages by their area. */
export function routeLabel(method: string, path: string, routePath: string | undefined, tenant: boolean): string {
  if (path.startsWith("/api/") && routePath && routePath !== "/*" && routePath !== "/api/*") return routePath;
  if (path.startsWith("/api/")) return "/api/*";
  if (path.startsWith("/assets/") || path.startsWith("/_site/")) return "static";
  if (path.startsWith("/media/")) return "/media/*";
  if (path === "/healthz" || path === "/readyz" || path === "/metrics") return path;
  if (tenant && path === "/") return "tenant:/";
  const area =
    /^\/(creator|student|business|dashboard|pricing|catalog|auth|invest|about|contact|profile|my-courses|admin)\b/.exec(
      path,
    );
  return area ? `page:/${area[1]}` : path === "/" ? "page:/" : "page:other";
}

const CACHES = ["host", "site", "file", "reads", "sessions"] as const;
type CacheName = (typeof CACHES)[number];
const cacheLookups = new Counter({
  name: "pathshala_cache_lookups_total",
  help: "Cache lookups by cache and result.",
  labelNames: ["cache", "result"] as const,
  registers: [registry],
});
/** Each cache's two series, found once and shown at 0 from the start. */
const CACHE_LOOKUPS = Object.fromEntries(
  CACHES.map((cache) => {
    const series = (result: "hit" | "miss") => {
      cacheLookups.inc({ cache, result }, 0);
      return cacheLookups.labels(cache, result);
    };
    return [cache, { hit: series("hit"), miss: series("miss") }];
  }),
) as Record<CacheName, Record<"hit" | "miss", { inc(): void }>>;

/**
 * Counts a lookup in the host or page cache, of a block of a stored file
 * (server/storage/file-blocks.ts), or of a checked session or signed-in read kept in memory
 * (server/caches/read-cache.ts).
 */
export function recordCache(cache: CacheName, hit: boolean): void {
  CACHE_LOOKUPS[cache][hit ? "hit" : "miss"].inc();
}
