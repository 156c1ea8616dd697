import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { centers, contents } from "../../server/db/schema/index.ts";
import { metrics } from "../../server/metrics.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { registerUser } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { serveHomePages, type HomePageServer } from "../helpers/home-server.ts";
import { announcementsSettled } from "../helpers/wait.ts";
import { joinTeam } from "../helpers/team.ts";
import { CENTERS_CHANNEL } from "../../server/services/tenants.ts";
import { CATALOG_CHANNEL } from "../../server/services/sites.ts";

/**
 * The production server answers institutes' cached home pages before Hono: on the connection,
 * before node:http parses the request (answerCachedHomePagesOnConnections), and for connections
 * handed to node:http, in its request listener (cachedHomePages). These tests run a real server
 * each way and prove the answers are the app's own, and that anything the caches cannot answer
 * reaches the app.
 */
const LAYERS = [
  { layer: "node:http's request listener", onConnections: false },
  { layer: "the connection, before node:http", onConnections: true },
];

describe.each(LAYERS)("institutes' home pages answered from the caches, in $layer", ({ onConnections }) => {
  let t: TestApp;
  let served: HomePageServer;
  let port: number;
  let center: Awaited<ReturnType<typeof createCenter>>;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: "1" });
    served = await serveHomePages(t, { onConnections });
    port = served.port;
    const owner = await registerUser(t, "business");
    center = await createCenter(t, owner.user._id, { instituteName: "Fast Lane Academy", slug: "fastlane" });
    await settled();
  });
  afterAll(async () => {
    await served.close();
    await t.close();
  });

  /**
   * On PostgreSQL an instance hears its own change announced some time after it has already
   * forgotten what it cached; tests that count cache answers wait for that echo first.
   */
  const settled = () => announcementsSettled(t.database, CENTERS_CHANNEL);

  interface Answer {
    status: number;
    headers: IncomingHttpHeaders;
    body: Buffer;
    /** Whether the Hono app answered (the caches could not). */
    viaApp: boolean;
    /** Whether node:http parsed the request (it was not answered on the connection). */
    viaNodeHttp: boolean;
    /** Whether the page was rendered for it (the caches did not hold it). */
    rendered: boolean;
  }

  /** Home pages rendered so far: the page cache's misses. */
  const renders = () => Number(/pathshala_cache_lookups_total\{cache="site",result="miss"\} (\d+)/.exec(metrics.render())?.[1] ?? 0);

  function get(host: string, headers: Record<string, string> = {}, method = "GET", path = "/", to = port): Promise<Answer> {
    const before = served.reachedApp;
    const beforeNodeHttp = served.reachedNodeHttp;
    const rendersBefore = renders();
    return new Promise((resolve, reject) => {
      // A new keep-alive connection each time: one that node:http was handed stays with it.
      const agent = new Agent({ keepAlive: true });
      const req = httpRequest({ host: "127.0.0.1", port: to, path, method, headers: { host, ...headers }, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          agent.destroy();
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks),
            viaApp: served.reachedApp > before,
            viaNodeHttp: served.reachedNodeHttp > beforeNodeHttp,
            rendered: renders() > rendersBefore,
          });
        });
      });
      req.on("error", reject);
      req.end();
    });
  }

  /** The Hono app's own answer, from a server with nothing in front of it. */
  const fromApp = (host: string, headers: Record<string, string> = {}) => get(host, headers, "GET", "/", served.appPort);

  /** The headers that may differ between two answers of the same page. */
  const comparable = (headers: IncomingHttpHeaders) => {
    const { date: _date, "x-request-id": _id, ...rest } = headers;
    return rest;
  };

  it("answers a cached page exactly as the app does, headers included", async () => {
    const first = await fromApp("fastlane.test");
    expect(first.rendered).toBe(true);
    expect(first.status).toBe(200);
    const second = await get("fastlane.test");
    expect(second.rendered).toBe(false);
    expect(second.viaApp).toBe(false);
    expect(second.viaNodeHttp).toBe(!onConnections);
    expect(second.status).toBe(200);
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.body.toString()).toContain("Fast Lane Academy");
    expect(comparable(second.headers)).toEqual(comparable(first.headers));
    expect(second.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(second.headers["x-content-type-options"]).toBe("nosniff");
    expect(second.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
  });

  it("keeps a sane caller's request id, answers 304 to its ETag, and HEAD without a body", async () => {
    const page = await get("fastlane.test");
    const kept = await get("fastlane.test", { "x-request-id": "trace-123" });
    expect(kept.headers["x-request-id"]).toBe("trace-123");
    expect((await get("fastlane.test", { "x-request-id": "bad id with spaces" })).headers["x-request-id"]).not.toBe("bad id with spaces");

    const notModified = await get("fastlane.test", { "if-none-match": String(page.headers.etag) });
    expect(notModified).toMatchObject({ status: 304, viaApp: false });
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers.etag).toBe(page.headers.etag);

    const head = await get("fastlane.test", {}, "HEAD");
    expect(head).toMatchObject({ status: 200, viaApp: false });
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(String(page.body.length));
  });

  it("sends a compressed copy once the app has made it", async () => {
    const first = await fromApp("fastlane.test", { "accept-encoding": "gzip, br" });
    const second = await get("fastlane.test", { "accept-encoding": "gzip, br" });
    expect(second.viaApp).toBe(false);
    expect(second.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(second.body).toString()).toBe(brotliDecompressSync(first.body).toString());
    expect(comparable(second.headers)).toEqual(comparable(first.headers));
  });

  it("adds HSTS and upgrade-insecure-requests when a trusted proxy says https", async () => {
    await get("fastlane.test", { "x-forwarded-proto": "https" });
    const secure = await get("fastlane.test", { "x-forwarded-proto": "https" });
    expect(secure.viaApp).toBe(false);
    expect(secure.headers["strict-transport-security"]).toBe("max-age=63072000");
    expect(secure.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
    expect((await get("fastlane.test")).headers["strict-transport-security"]).toBeUndefined();
  });

  it("shows a template change on the next request", async () => {
    await get("fastlane.test");
    await t.services.sites.applyTemplate(center, "t4", null);
    await settled();
    const changed = await get("fastlane.test");
    expect(changed).toMatchObject({ rendered: true, viaApp: !onConnections });
    expect(changed.body.toString()).toContain('data-template="t4"');
    expect(await get("fastlane.test")).toMatchObject({ rendered: false, viaApp: false });
  });

  it("leaves to the app what it cannot answer from memory", async () => {
    expect((await get("fastlane.test", {}, "GET", "/admin")).viaApp).toBe(true);
    expect((await get("fastlane.test", {}, "POST")).viaApp).toBe(true);
    expect((await get("localhost")).viaApp).toBe(true);
    const unknown = await get("nobody.test");
    expect(unknown).toMatchObject({ status: 404, viaApp: true });

    // An institute whose plan ran out is never answered from the cache.
    await get("fastlane.test");
    await t.database.db.update(centers).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(centers.id, center.id));
    await t.services.tenants.changed();
    const lapsed = await get("fastlane.test");
    expect(lapsed).toMatchObject({ status: 503, viaApp: true });
    expect(lapsed.body.toString()).toContain("This site is temporarily unavailable");
    await t.database.db.update(centers).set({ expiresAt: new Date(Date.now() + 86_400_000) }).where(eq(centers.id, center.id));
    await t.services.tenants.changed();
    await settled();

    // A server that is shutting down refuses through the app's one refusal.
    await get("fastlane.test");
    t.draining = true;
    try {
      expect(await get("fastlane.test")).toMatchObject({ status: 503, viaApp: true });
    } finally {
      t.draining = false;
    }
  });

  it("shows a catalog change on the next request", async () => {
    const creator = await registerUser(t, "creator");
    await joinTeam(t, center.id, creator.user._id);
    await get("fastlane.test");
    await get("fastlane.test");
    await t.database.db
      .insert(contents)
      .values({ creatorId: creator.user._id, centerId: center.id, type: "pdf", title: "Stored Answer Notes", price: 9900, fileKey: "notes.pdf" });
    await t.services.sites.catalogChanged(center.id);
    // The echo of this instance's own announcement would otherwise empty the cache again mid-test.
    await announcementsSettled(t.database, CATALOG_CHANNEL);
    const changed = await get("fastlane.test");
    expect(changed).toMatchObject({ rendered: true, viaApp: !onConnections });
    expect(changed.body.toString()).toContain("Stored Answer Notes");
    const again = await get("fastlane.test");
    expect(again).toMatchObject({ rendered: false, viaApp: false });
    expect(again.body.toString()).toContain("Stored Answer Notes");
  });

  it("stops answering when the plan runs out, with nothing announced", async () => {
    const owner = await registerUser(t, "business");
    const expiresAt = Date.now() + 3000;
    await createCenter(t, owner.user._id, { instituteName: "Last Day Academy", slug: "lastday", expiresAt: new Date(expiresAt) });
    await settled();
    expect(await get("lastday.test")).toMatchObject({ status: 200, rendered: true, viaApp: !onConnections });
    expect(await get("lastday.test")).toMatchObject({ status: 200, rendered: false, viaApp: false });
    await new Promise((resolve) => setTimeout(resolve, expiresAt + 50 - Date.now()));
    const lapsed = await get("lastday.test");
    expect(lapsed).toMatchObject({ status: 503, viaApp: true });
    expect(lapsed.body.toString()).toContain("This site is temporarily unavailable");
  });

  it.runIf(onConnections)("answers a page's later requests from its stored bytes, the same as when it was rendered", async () => {
    const stored = () => Number(/pathshala_cache_lookups_total\{cache="answer",result="hit"\} (\d+)/.exec(metrics.render())?.[1] ?? 0);
    // Its catalog changed: the page is rendered again on the connection, and its answer stored.
    await t.services.sites.catalogChanged(center.id);
    await announcementsSettled(t.database, CATALOG_CHANNEL);
    const rendered = await get("fastlane.test", { "accept-encoding": "gzip" });
    expect(rendered).toMatchObject({ rendered: true, viaNodeHttp: false });
    const before = stored();
    const fromStore = await get("fastlane.test", { "accept-encoding": "gzip" });
    expect(stored()).toBe(before + 1);
    expect(fromStore).toMatchObject({ rendered: false, viaNodeHttp: false });
    expect(fromStore.body.equals(rendered.body)).toBe(true);
    expect(comparable(fromStore.headers)).toEqual(comparable(rendered.headers));
    expect(comparable(fromStore.headers)).toEqual(comparable((await fromApp("fastlane.test", { "accept-encoding": "gzip" })).headers));
    const head = await get("fastlane.test", { "accept-encoding": "gzip" }, "HEAD");
    expect(stored()).toBe(before + 2);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(String(rendered.body.length));
    // Another instance's change reaches this one through the database: the stored answer goes too.
    await t.database.db.update(centers).set({ templateId: "t2" }).where(eq(centers.id, center.id));
    await t.database.notify(CENTERS_CHANNEL, "changed");
    await settled();
    const changed = await get("fastlane.test", { "accept-encoding": "gzip" });
    expect(changed).toMatchObject({ rendered: true, viaNodeHttp: false });
    expect(changed.body.toString()).not.toBe(fromStore.body.toString());
    expect(stored()).toBe(before + 2);
  });

  it("counts what it answers in the request metrics", async () => {
    const series = () => Number(/http_requests_total\{method="GET",route="tenant:\/",status="200"\} (\d+)/.exec(metrics.render())?.[1] ?? 0);
    await get("fastlane.test");
    const before = series();
    const answer = await get("fastlane.test");
    expect(answer.viaApp).toBe(false);
    expect(series()).toBe(before + 1);
  });
});
