import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { registerRuntimeGauges } from "../../server/main/runtime.ts";
import { registerUser } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: "scrape-secret" });
});
afterAll(() => t.close());

describe("GET /metrics", () => {
  it("is for the token's holder only", async () => {
    expect((await t.request("/metrics")).status).toBe(401);
    expect((await t.request("/metrics", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
  });

  it("counts requests by route and status, with durations and cache lookups", async () => {
    await t.request("/api/pricing");
    await t.request("/api/nothing");
    const res = await t.request("/metrics", { headers: { authorization: "Bearer scrape-secret" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const text = await res.text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/pricing",status="200"\} \d+/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/\*",status="404"\} \d+/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/pricing"\} \d+/);
    expect(text).toContain("process_resident_memory_bytes");
  });

  it("reports how many institutes' home pages are kept rendered, and the memory they take", async () => {
    registerRuntimeGauges(t.database, t.services);
    const scrape = async () =>
      (await t.request("/metrics", { headers: { authorization: "Bearer scrape-secret" } })).text();
    const gauge = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1]);
    const owner = await registerUser(t, "business");
    const center = await createCenter(t, owner.user._id);
    const before = await scrape();
    const page = await t.request("/", { host: center.customDomain! });
    expect(page.status).toBe(200);
    const length = (await page.arrayBuffer()).byteLength;
    const after = await scrape();
    expect(gauge(after, "pathshala_site_cache_entries")).toBe(gauge(before, "pathshala_site_cache_entries") + 1);
    expect(gauge(after, "pathshala_site_cache_bytes")).toBe(gauge(before, "pathshala_site_cache_bytes") + length);
  });

  it("does not exist without a configured token", async () => {
    const plain = await createTestApp();
    expect((await plain.request("/metrics")).status).toBe(404);
    await plain.close();
  });
});
