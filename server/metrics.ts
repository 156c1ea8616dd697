/**
 * Prometheus metrics for this process (text exposition format 0.0.4), kept deliberately small:
 * request counts and durations by route, cache hits, database pool and process memory.
 * Served at /metrics behind METRICS_TOKEN.
 */
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

class Registry {
  private readonly counters = new Map<string, { help: string; values: Map<string, { text: string; value: number }> }>();
  private readonly histograms = new Map<string, { help: string; values: Map<string, { text: string; buckets: number[]; sum: number; count: number }> }>();
  private readonly gauges = new Map<string, { help: string; read: () => { labels: Labels; value: number }[] }>();

  inc(name: string, help: string, labels: Labels = {}, by = 1): void {
    let metric = this.counters.get(name);
    if (!metric) this.counters.set(name, (metric = { help, values: new Map() }));
    const k = fastKey(labels);
    const series = metric.values.get(k);
    if (series) series.value += by;
    else metric.values.set(k, { text: key(labels), value: by });
  }

  observe(name: string, help: string, labels: Labels, seconds: number): void {
    let metric = this.histograms.get(name);
    if (!metric) this.histograms.set(name, (metric = { help, values: new Map() }));
    const k = fastKey(labels);
    let h = metric.values.get(k);
    if (!h) metric.values.set(k, (h = { text: key(labels), buckets: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]) h.buckets[i]++;
    h.sum += seconds;
    h.count++;
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

export function recordCache(cache: "host" | "site", hit: boolean): void {
  metrics.inc("pathshala_cache_lookups_total", "Cache lookups by cache and result.", { cache, result: hit ? "hit" : "miss" });
}
