import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { centers, contents } from "../../server/db/schema/index.ts";
import { metrics } from "../../server/runtime/metrics.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { registerUser } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { announcementsSettled } from "../helpers/wait.ts";
import { joinTeam } from "../helpers/team.ts";
import { CENTERS_CHANNEL } from "../../server/services/tenants.ts";
import { CATALOG_CHANNEL } from "../../server/services/sites.ts";

/**
 * An institute's home page is one Hono route over the rendered-page cache: a page answered from
 * the cache is byte for byte, header for header, the answer its render gave, and anything that
 * changes what the page shows is on the next request.
 */
let t: TestApp;
let center: Awaited<ReturnType<typeof createCenter>>;
const HOST = "fastlane.test";

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  const owner = await registerUser(t, "business");
  center = await createCenter(t, owner.user._id, { instituteName: "Fast Lane Academy", slug: "fastlane" });
  await settled();
});
afterAll(() => t.close());

/**
 * On PostgreSQL an instance hears its own change announced some time after it has already
 * forgotten what it cached; tests that count renders wait for that echo first.
 */
const settled = () => announcementsSettled(t.database, CENTERS_CHANNEL);

/** Home pages rendered so far: the page cache's misses. */
const renders = async () =>
  Number(/pathshala_cache_lookups_total\{cache="site",result="miss"\} (\d+)/.exec(await metrics.render())?.[1] ?? 0);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Whether the page was rendered for it (the cache did not hold it). */
  rendered: boolean;
}

async function get(host: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  const before = await renders();
  const res = await t.request("/", { host, method, headers });
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    body: Buffer.from(await res.arrayBuffer()),
    rendered: (await renders()) > before,
  };
}

/** The headers that may differ between two answers of the same page. */
const comparable = (headers: Record<string, string>) => {
  const { date: _date, "x-request-id": _id, ...rest } = headers;
  return rest;
};

describe("an institute's home page from the rendered-page cache", () => {
  it("answers from the cache exactly as the render answered, headers included", async () => {
    t.services.sites.catalogChanged(center.id);
    await announcementsSettled(t.database, CATALOG_CHANNEL);
    const first = await get(HOST);
    expect(first).toMatchObject({ status: 200, rendered: true });
    const second = await get(HOST);
    expect(second).toMatchObject({ status: 200, rendered: false });
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.body.toString()).toContain("Fast Lane Academy");
    expect(comparable(second.headers)).toEqual(comparable(first.headers));
    expect(second.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(second.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(second.headers["x-content-type-options"]).toBe("nosniff");
    expect(second.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
  });

  it("keeps a sane caller's request id, answers 304 to its ETag, and HEAD without a body", async () => {
    const page = await get(HOST);
    expect((await get(HOST, { "x-request-id": "trace-123" })).headers["x-request-id"]).toBe("trace-123");
    expect((await get(HOST, { "x-request-id": "bad id with spaces" })).headers["x-request-id"]).not.toBe(
      "bad id with spaces",
    );

    for (const ifNoneMatch of [page.headers.etag, `W/${page.headers.etag}`, `"other", ${page.headers.etag}`]) {
      const notModified = await get(HOST, { "if-none-match": ifNoneMatch });
      expect(notModified).toMatchObject({ status: 304, rendered: false });
      expect(notModified.body.length).toBe(0);
      expect(notModified.headers.etag).toBe(page.headers.etag);
    }
    expect((await get(HOST, { "if-none-match": '"other"' })).status).toBe(200);

    const head = await get(HOST, {}, "HEAD");
    expect(head).toMatchObject({ status: 200, rendered: false });
    expect(head.body.length).toBe(0);
  });

  it("makes each compressed copy once and sends it as the render did", async () => {
    for (const [accept, encoding, decode] of [
      ["gzip, deflate, br", "br", brotliDecompressSync],
      ["gzip", "gzip", gunzipSync],
    ] as const) {
      const plain = await get(HOST);
      const first = await get(HOST, { "accept-encoding": accept });
      const second = await get(HOST, { "accept-encoding": accept });
      expect(first.headers["content-encoding"]).toBe(encoding);
      expect(second.rendered).toBe(false);
      expect(second.body.equals(first.body)).toBe(true);
      expect(comparable(second.headers)).toEqual(comparable(first.headers));
      expect(decode(second.body).equals(plain.body)).toBe(true);
      expect(second.headers.vary).toContain("Accept-Encoding");
      expect(second.headers.etag).toBe(plain.headers.etag);
    }
  });

  it("adds HSTS and upgrade-insecure-requests when a trusted proxy says https", async () => {
    const secure = await get(HOST, { "x-forwarded-proto": "https" });
    expect(secure.headers["strict-transport-security"]).toBe("max-age=63072000");
    expect(secure.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
    expect((await get(HOST)).headers["strict-transport-security"]).toBeUndefined();
  });

  it("shows a template change on the next request", async () => {
    await get(HOST);
    await t.services.sites.applyTemplate(center, "t4", null);
    await settled();
    const changed = await get(HOST);
    expect(changed.rendered).toBe(true);
    expect(changed.body.toString()).toContain('data-template="t4"');
    expect((await get(HOST)).rendered).toBe(false);
  });

  it("shows another instance's change, announced through the database, on the next request", async () => {
    const before = await get(HOST);
    await t.database.db
      .update(centers)
      .set({ templateId: "t2", siteVersion: center.siteVersion + 10 })
      .where(eq(centers.id, center.id));
    await settled();
    const changed = await get(HOST);
    expect(changed.rendered).toBe(true);
    expect(changed.body.toString()).toContain('data-template="t2"');
    expect(changed.headers.etag).not.toBe(before.headers.etag);
  });

  it("shows a catalog change on the next request", async () => {
    const creator = await registerUser(t, "creator");
    await joinTeam(t, center.id, creator.user._id);
    await get(HOST);
    // Written as another instance would: only the database's announcement tells this one.
    await t.database.db.insert(contents).values({
      creatorId: creator.user._id,
      centerId: center.id,
      type: "pdf",
      title: "Stored Answer Notes",
      price: 9900,
      fileKey: "notes.pdf",
    });
    await announcementsSettled(t.database, CATALOG_CHANNEL);
    const changed = await get(HOST);
    expect(changed.rendered).toBe(true);
    expect(changed.body.toString()).toContain("Stored Answer Notes");
    const again = await get(HOST);
    expect(again.rendered).toBe(false);
    expect(again.body.equals(changed.body)).toBe(true);
  });

  it("shows the unavailable page once the plan has run out, with nothing announced", async () => {
    const owner = await registerUser(t, "business");
    const expiresAt = Date.now() + 3_600_000;
    await createCenter(t, owner.user._id, {
      instituteName: "Last Day Academy",
      slug: "lastday",
      expiresAt: new Date(expiresAt),
    });
    await settled();
    expect(await get("lastday.test")).toMatchObject({ status: 200, rendered: true });
    expect(await get("lastday.test")).toMatchObject({ status: 200, rendered: false });
    // The product's clock past the plan's end (timers stay real: the database keeps working).
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(expiresAt + 1_000);
    const lapsed = await get("lastday.test").finally(() => vi.useRealTimers());
    expect(lapsed.status).toBe(503);
    expect(lapsed.headers["cache-control"]).toBe("no-store");
    expect(lapsed.body.toString()).toContain("This site is temporarily unavailable");
  });

  it("refuses through the app's one refusal while the server shuts down", async () => {
    await get(HOST);
    t.draining = true;
    try {
      expect((await get(HOST)).status).toBe(503);
    } finally {
      t.draining = false;
    }
  });

  it("counts what it answers in the request metrics", async () => {
    const series = async () =>
      Number(
        /http_requests_total\{method="GET",route="tenant:\/",status="200"\} (\d+)/.exec(await metrics.render())?.[1] ??
          0,
      );
    await get(HOST);
    const before = await series();
    await get(HOST);
    expect(await series()).toBe(before + 1);
  });
});
