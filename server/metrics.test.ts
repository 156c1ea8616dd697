import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { metrics, routeLabel } from "./metrics.ts";

describe("metrics", () => {
  it("renders counters and histograms in Prometheus text format", () => {
    metrics.inc("test_things_total", "Things.", { kind: 'a"b' });
    metrics.observe("test_seconds", "Durations.", { route: "/x" }, 0.004);
    const text = metrics.render();
    expect(text).toContain('# TYPE test_things_total counter\ntest_things_total{kind="a\\"b"} 1');
    expect(text).toContain('test_seconds_bucket{route="/x",le="0.005"} 1');
    expect(text).toContain('test_seconds_bucket{route="/x",le="0.0025"} 0');
    expect(text).toContain('test_seconds_count{route="/x"} 1');
    expect(text).toMatch(/process_resident_memory_bytes \d+/);
  });

  it("counts through kept series, which appear at zero when made", () => {
    const hits = metrics.counter("test_kept_total", "Kept.", { cache: "x" });
    const durations = metrics.histogram("test_kept_seconds", "Kept durations.", { route: "/y" });
    expect(metrics.render()).toContain('test_kept_total{cache="x"} 0');
    hits.inc();
    hits.inc(2);
    durations.observe(0.02);
    metrics.inc("test_kept_total", "Kept.", { cache: "x" });
    const text = metrics.render();
    expect(text).toContain('test_kept_total{cache="x"} 4');
    expect(text).toContain('test_kept_seconds_bucket{route="/y",le="0.01"} 0');
    expect(text).toContain('test_kept_seconds_bucket{route="/y",le="0.025"} 1');
    expect(text).toContain('test_kept_seconds_count{route="/y"} 1');
  });

  it("keeps route labels bounded", () => {
    expect(routeLabel("GET", "/api/content/123", "/api/content/:id", false)).toBe("/api/content/:id");
    expect(routeLabel("GET", "/student/live", "*", false)).toBe("page:/student");
    expect(routeLabel("GET", "/whatever/abc", "*", false)).toBe("page:other");
    expect(routeLabel("GET", "/", "/", true)).toBe("tenant:/");
  });
});

/** An unlabelled series' value in a metrics text (NaN when it is missing). */
const valueIn = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1]);

/** A full garbage collection, now. */
function collect() {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

describe("live heap after a full collection", () => {
  it("reports the heap and resident memory left by the last full garbage collection, and its pause", async () => {
    collect();
    // The collector's entries reach observers on a later turn.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = metrics.render();
    const live = valueIn(text, "nodejs_heap_live_after_gc_bytes");
    expect(live).toBeGreaterThan(1024 * 1024);
    expect(live).toBeLessThanOrEqual(process.memoryUsage().heapTotal);
    const resident = valueIn(text, "process_resident_memory_after_gc_bytes");
    expect(resident).toBeGreaterThan(live);
    expect(resident).toBeLessThanOrEqual(process.memoryUsage.rss() + 64 * 1024 * 1024);
    expect(text).toMatch(/^nodejs_gc_duration_seconds_count\{kind="major"\} [1-9]\d*$/m);
  });
});

describe("where resident memory is", () => {
  it("reports the heap's reserved size and the memory held outside it", () => {
    const before = valueIn(metrics.render(), "nodejs_external_memory_bytes");
    const held = Buffer.alloc(32 * 1024 * 1024, 1);
    // Other Buffers may be freed between the readings: allow for a few megabytes of them.
    expect(valueIn(metrics.render(), "nodejs_external_memory_bytes") - before).toBeGreaterThan(held.length - 4 * 1024 * 1024);
    // Right after a full collection the heap reserves at least its empty young generation beyond
    // what is in use: a gauge that read the heap in use would differ by a few kilobytes at most.
    collect();
    const text = metrics.render();
    expect(valueIn(text, "nodejs_heap_size_total_bytes") - valueIn(text, "nodejs_heap_used_bytes")).toBeGreaterThan(512 * 1024);
  });
});
