import { PerformanceObserver, constants as perfConstants } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { httpRequestDuration, httpRequests, metrics, readAtScrape, recordCache, routeLabel } from "./metrics.ts";

/** An unlabelled series' value in a metrics text (NaN when it is missing). */
const valueIn = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1]);

describe("metrics", () => {
  it("renders request counts and durations in Prometheus text format", async () => {
    httpRequests.labels("GET", '/api/a"b', "200").inc();
    httpRequestDuration.labels("GET", "/api/x").observe(0.004);
    const text = await metrics.render();
    expect(metrics.contentType).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(text).toContain(
      '# TYPE http_requests_total counter\nhttp_requests_total{method="GET",route="/api/a\\"b",status="200"} 1',
    );
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/x"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.0025",method="GET",route="/api/x"} 0');
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/api/x"} 1');
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
  });

  it("shows every cache's lookups from zero, and counts them", async () => {
    const lookups = async () =>
      Number(/pathshala_cache_lookups_total\{cache="file",result="hit"\} (\d+)/.exec(await metrics.render())?.[1]);
    const before = await lookups();
    expect(before).toBeGreaterThanOrEqual(0);
    recordCache("file", true);
    recordCache("file", true);
    expect(await lookups()).toBe(before + 2);
    expect(await metrics.render()).toMatch(/pathshala_cache_lookups_total\{cache="sessions",result="miss"\} \d+/);
  });

  it("reads the pool and the page cache when scraped", async () => {
    let entries = 3;
    readAtScrape({ pool: () => ({ total: 5, idle: 2, waiting: 1 }), siteCache: () => ({ entries, bytes: 4096 }) });
    let text = await metrics.render();
    expect(text).toContain('pathshala_db_pool_connections{state="waiting"} 1');
    expect(valueIn(text, "pathshala_site_cache_entries")).toBe(3);
    expect(valueIn(text, "pathshala_site_cache_bytes")).toBe(4096);
    entries = 4;
    text = await metrics.render();
    expect(valueIn(text, "pathshala_site_cache_entries")).toBe(4);
    readAtScrape({});
  });

  it("keeps route labels bounded", () => {
    expect(routeLabel("GET", "/api/content/123", "/api/content/:id", false)).toBe("/api/content/:id");
    expect(routeLabel("GET", "/student/live", "*", false)).toBe("page:/student");
    expect(routeLabel("GET", "/whatever/abc", "*", false)).toBe("page:other");
    expect(routeLabel("GET", "/", "/", true)).toBe("tenant:/");
  });
});

/** A full garbage collection, now. */
function collect() {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

describe("live heap after a full collection", () => {
  it("reports the heap and resident memory left by the last full garbage collection, and its pause", async () => {
    collect();
    // The collector's entries reach observers on a later turn: wait for the major pause to be counted.
    const text = await vi.waitFor(async () => {
      const rendered = await metrics.render();
      expect(rendered).toMatch(/^nodejs_gc_duration_seconds_count\{kind="major"\} [1-9]\d*$/m);
      return rendered;
    });
    const live = valueIn(text, "nodejs_heap_live_after_gc_bytes");
    expect(live).toBeGreaterThan(1024 * 1024);
    expect(live).toBeLessThanOrEqual(process.memoryUsage().heapTotal);
    const resident = valueIn(text, "process_resident_memory_after_gc_bytes");
    expect(resident).toBeGreaterThan(live);
    expect(resident).toBeLessThanOrEqual(process.memoryUsage.rss() + 64 * 1024 * 1024);
    expect(text).toMatch(/^nodejs_gc_duration_seconds_count\{kind="major"\} [1-9]\d*$/m);
  });
});

describe("collector pauses", () => {
  it("counts every pause, not one per batch the runtime reports", async () => {
    const minorCount = async () =>
      Number(/^nodejs_gc_duration_seconds_count\{kind="minor"\} (\d+)$/m.exec(await metrics.render())?.[1] ?? 0);
    let seen = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (
          (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
          perfConstants.NODE_PERFORMANCE_GC_MINOR
        )
          seen++;
    });
    observer.observe({ entryTypes: ["gc"] });
    const before = await minorCount();
    // Garbage until the runtime has reported several pauses: how much that takes depends on the
    // heap this worker has grown, so it is a condition, not a fixed amount.
    let junk: unknown[] = [];
    for (let round = 0; seen < 3 && round < 2_000; round++) {
      junk = Array.from({ length: 100_000 }, (_, i) => ({ i, round }));
      // Observers are told between tasks.
      if (round % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(junk).toHaveLength(100_000);
    expect(seen).toBeGreaterThan(1);
    // The metric hears of pauses on a later turn than this observer did: wait until it has them all.
    const counted = seen;
    await vi.waitFor(async () => expect((await minorCount()) - before).toBeGreaterThanOrEqual(counted));
    observer.disconnect();
  });
});

describe("where resident memory is", () => {
  it("reports the heap's reserved size and the memory held outside it", async () => {
    const before = valueIn(await metrics.render(), "nodejs_external_memory_bytes");
    const held = Buffer.alloc(32 * 1024 * 1024, 1);
    // Other Buffers may be freed between the readings: allow for a few megabytes of them.
    expect(valueIn(await metrics.render(), "nodejs_external_memory_bytes") - before).toBeGreaterThan(
      held.length - 4 * 1024 * 1024,
    );
    // Right after a full collection the heap reserves at least its empty young generation beyond
    // what is in use: a gauge that read the heap in use would differ by a few kilobytes at most.
    collect();
    const text = await metrics.render();
    expect(
      valueIn(text, "nodejs_heap_size_total_bytes") - valueIn(text, "nodejs_heap_size_used_bytes"),
    ).toBeGreaterThan(512 * 1024);
  });
});
