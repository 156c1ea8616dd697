/**
 * Prometheus metrics for this process (text exposition format 0.0.4), kept deliberately small:
 * request counts and durations by route, cache hits, database pool, process memory and the collector's pauses.
 * Served at /metrics behind METRICS_TOKEN.
 */

import { PerformanceObserver, constants as perfConstants } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
type Labels = Record<string, string>;

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

function key(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k].replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`)
    .join(",");
}

/**
 * Series are found by a cheap key (the label values joined in the caller's order, which is fixed
 * per call site); the escaped Prometheus label text is made once, when a series first appears.
 */
const fastKey = (labels: Labels) => {
  let k = "";
  for (const name in labels) k += `${labels[name]}\u0001`;
  return k;
};

/** One counter series, found once and then counted without building its key again. */
export interface CounterSeries {
  inc(by?: number): void;
}

/** One histogram series, found once and then observed without building its key again. */
export interface HistogramSeries {
  observe(seconds: number): void;
}

class Counter implements CounterSeries {
  readonly text: string;
  value = 0;

  constructor(text: string) {
    this.text = text;
  }

  inc(by = 1): void {
    this.value += by;
  }
}

class Histogram implements HistogramSeries {
  readonly text: string;
  readonly buckets = BUCKETS.map(() => 0);
  sum = 0;
  count = 0;

  constructor(text: string) {
    this.text = text;
  }

  observe(seconds: number): void {
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]) this.buckets[i]++;
    this.sum += seconds;
    this.count++;
  }
}

class Registry {
  private readonly counters = new Map<string, { help: string; values: Map<string, Counter> }>();
  private readonly histograms = new Map<string, { help: string; values: Map<string, Histogram> }>();
  private readonly gauges = new Map<string, { help: string; read: () => { labels: Labels; value: number }[] }>();

  inc(name: string, help: string, labels: Labels = {}, by = 1): void {
    this.counter(name, help, labels).inc(by);
  }

  observe(name: string, help: string, labels: Labels, seconds: number): void {
    this.histogram(name, help, labels).observe(seconds);
  }

  /** The series of a counter with these labels (made at 0 when new); hot paths keep it. */
  counter(name: string, help: string, labels: Labels = {}): CounterSeries {
    let metric = this.counters.get(name);
    if (!metric) this.counters.set(name, (metric = { help, values: new Map() }));
    const k = fastKey(labels);
    let series = metric.values.get(k);
    if (!series) metric.values.set(k, (series = new Counter(key(labels))));
    return series;
  }

  /** The series of a histogram with these labels (made empty when new); hot paths keep it. */
  histogram(name: string, help: string, labels: Labels): HistogramSeries {
    let metric = this.histograms.get(name);
    if (!metric) this.histograms.set(name, (metric = { help, values: new Map() }));
    const k = fastKey(labels);
    let series = metric.values.get(k);
    if (!series) metric.values.set(k, (series = new Histogram(key(labels))));
    return series;
  }

  /** A value read at scrape time (pool sizes, memory). */
  gauge(name: string, help: string, read: () => { labels: Labels; value: number }[]): void {
    this.gauges.set(name, { help, read });
  }

  render(): string {
    const out: string[] = [];
    for (const [name, { help, values }] of this.counters) {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      for (const { text: labels, value } of values.values()) out.push(`${name}${labels ? `{${labels}}` : ""} ${value}`);
    }
    for (const [name, { help, values }] of this.histograms) {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} histogram`);
      for (const h of values.values()) {
        const labels = h.text;
        const prefix = labels ? `${labels},` : "";
        BUCKETS.forEach((le, i) => out.push(`${name}_bucket{${prefix}le="${le}"} ${h.buckets[i]}`));
        out.push(`${name}_bucket{${prefix}le="+Inf"} ${h.count}`, `${name}_sum${labels ? `{${labels}}` : ""} ${h.sum}`, `${name}_count${labels ? `{${labels}}` : ""} ${h.count}`);
      }
    }
    for (const [name, { help, read }] of this.gauges) {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
      for (const { labels, value } of read()) {
        const k = key(labels);
        out.push(`${name}${k ? `{${k}}` : ""} ${value}`);
      }
    }
    return `${out.join("\n")}\n`;
  }
}

export const metrics = new Registry();

metrics.gauge("process_resident_memory_bytes", "Resident memory of this process.", () => [{ labels: {}, value: process.memoryUsage().rss }]);
metrics.gauge("nodejs_heap_used_bytes", "V8 heap in use.", () => [{ labels: {}, value: process.memoryUsage().heapUsed }]);
// With the two above these tell where resident memory is: the V8 heap, the memory its objects
// hold outside it (Buffers, page caches, file blocks), and the rest: pages V8 keeps for reuse
// beyond its heap's current size, malloc's arenas, thread stacks and code.
metrics.gauge("nodejs_heap_size_total_bytes", "V8 heap reserved, in use or not.", () => [{ labels: {}, value: process.memoryUsage().heapTotal }]);
metrics.gauge("nodejs_external_memory_bytes", "Memory held outside the V8 heap by JavaScript objects (Buffers and other ArrayBuffers included).", () => [
  { labels: {}, value: process.memoryUsage().external },
]);

/**
 * The heap still in use right after the last full collection: what the process really keeps. The
 * two figures above swing with the collector's cycle (resident memory by a fifth), so a leak shows
 * here first, as a floor that keeps rising.
 */
let liveHeapBytes = 0;
let residentAfterGcBytes = 0;
/** The collector's pauses by kind: a latency tail that follows them shows here. */
const gcPause = (kind: string) => metrics.histogram("nodejs_gc_duration_seconds", "Garbage collection pauses by kind.", { kind });
const GC_PAUSES = new Map([
  [perfConstants.NODE_PERFORMANCE_GC_MINOR, gcPause("minor")],
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR, gcPause("major")],
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL, gcPause("incremental")],
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB, gcPause("weakcb")],
]);
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    if (kind !== undefined) GC_PAUSES.get(kind)?.observe(entry.duration / 1000);
    if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) {
      liveHeapBytes = getHeapStatistics().used_heap_size;
      residentAfterGcBytes = process.memoryUsage.rss();
    }
  }
}).observe({ entryTypes: ["gc"] });
metrics.gauge("nodejs_heap_live_after_gc_bytes", "V8 heap in use right after the last full garbage collection (0 before the first).", () => [
  { labels: {}, value: liveHeapBytes },
]);
/**
 * Resident memory at the same moment: the floor the process returns to. Read at any other moment
 * it also counts the garbage of the collector's current cycle, which swings it by a hundred
 * megabytes under load.
 */
metrics.gauge("process_resident_memory_after_gc_bytes", "Resident memory right after the last full garbage collection (0 before the first).", () => [
  { labels: {}, value: residentAfterGcBytes },
]);

/** A bounded label for a request's route: API routes by pattern, pages by their area. */
export function routeLabel(method: string, path: string, routePath: string | undefined, tenant: boolean): string {
  if (path.startsWith("/api/") && routePath && routePath !== "/*" && routePath !== "/api/*") return routePath;
  if (path.startsWith("/api/")) return "/api/*";
  if (path.startsWith("/assets/") || path.startsWith("/_site/")) return "static";
  if (path.startsWith("/media/")) return "/media/*";
  if (path === "/healthz" || path === "/readyz" || path === "/metrics") return path;
  if (tenant && path === "/") return "tenant:/";
  const area = /^\/(creator|student|business|dashboard|pricing|catalog|auth|invest|about|contact|profile|my-courses|admin)\b/.exec(path);
  return area ? `page:/${area[1]}` : path === "/" ? "page:/" : "page:other";
}

type CacheName = "host" | "site" | "answer" | "file" | "reads" | "sessions";
const cacheLookup = (cache: CacheName, result: "hit" | "miss") => metrics.counter("pathshala_cache_lookups_total", "Cache lookups by cache and result.", { cache, result });
const CACHE_LOOKUPS = {
  host: { hit: cacheLookup("host", "hit"), miss: cacheLookup("host", "miss") },
  site: { hit: cacheLookup("site", "hit"), miss: cacheLookup("site", "miss") },
  answer: { hit: cacheLookup("answer", "hit"), miss: cacheLookup("answer", "miss") },
  file: { hit: cacheLookup("file", "hit"), miss: cacheLookup("file", "miss") },
  reads: { hit: cacheLookup("reads", "hit"), miss: cacheLookup("reads", "miss") },
  sessions: { hit: cacheLookup("sessions", "hit"), miss: cacheLookup("sessions", "miss") },
};

/**
 * Counts a lookup in the host or page cache (every request of an institute's site makes two), of
 * a block of a stored file (server/storage/file-blocks.ts), or of a checked session or signed-in
 * read kept in memory (server/db/read-cache.ts).
 */
export function recordCache(cache: CacheName, hit: boolean): void {
  CACHE_LOOKUPS[cache][hit ? "hit" : "miss"].inc();
}
