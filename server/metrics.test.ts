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

describe("live heap after a full collection", () => {
  it("reports the heap left by the last full garbage collection", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    gc();
    // The collector's entries reach observers on a later turn.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = /^nodejs_heap_live_after_gc_bytes (\d+)$/m.exec(metrics.render());
    expect(line).not.toBeNull();
    const live = Number(line![1]);
    expect(live).toBeGreaterThan(1024 * 1024);
    expect(live).toBeLessThanOrEqual(process.memoryUsage().heapTotal);
  });
});
