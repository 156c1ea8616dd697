import { mkdtempSync, rmSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Context } from "hono";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLoadContext, requestContext } from "../../server/middleware/context.ts";
import { contents } from "../../server/db/schema/index.ts";
import { CATALOG_CHANNEL } from "../../server/services/sites.ts";
import type { AppEnv } from "../../server/middleware/types.ts";
import type { AppDeps } from "../../server/middleware/types.ts";
import { nginxInstalled, startDeployNginx, type RunningNginx } from "../../scripts/lib/nginx.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createCenter } from "../helpers/centers.ts";
import { bearer, PNG_BYTES, registerUser } from "../helpers/http.ts";
import { joinTeam } from "../helpers/team.ts";
import { announcementsSettled, waitFor } from "../helpers/wait.ts";
import { freePort } from "../../scripts/lib/free-port.ts";

/**
 * The shipped nginx micro-cache (deploy/nginx/pathshala.conf.template, rendered as the nginx
 * image renders it) in front of the app: what a browser loads comes from the cache, byte for byte
 * what the app itself answers; a change shows once the page's second is over; nothing one
 * visitor was shown is ever kept.
 */
const BROWSER = { "accept-encoding": "gzip, deflate, br, zstd" };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(
  port: number,
  host: string,
  path: string,
  headers: Record<string, string> = {},
  init: { method?: string; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path, method: init.method ?? "GET", headers: { host, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

/** What a signed-in page or a misbehaving handler would answer, in place of React Router. */
const renders: string[] = [];
function standIn(c: Context<AppEnv>, deps: AppDeps): Response {
  const { auth } = createLoadContext(c, deps).get(requestContext);
  renders.push(c.req.path);
  const page = `<!DOCTYPE html><html><body><h1>${c.req.path}</h1><p>viewer: ${auth?.user.name ?? "nobody"}</p></body></html>`;
  // Handlers that wrongly say public: nginx must still not keep them.
  if (c.req.path === "/sets-cookie")
    return c.html(page, 200, { "Set-Cookie": "seen=1", "Cache-Control": "public, max-age=60" });
  if (c.req.path === "/private") return c.html(page, 200, { "Cache-Control": "private, max-age=60" });
  return c.html(page);
}

const nginxAvailable = nginxInstalled();

describe.skipIf(!nginxAvailable)("the deploy's nginx micro-cache in front of the app", () => {
  let t: TestApp;
  let app: ServerType;
  let appPort: number;
  let nginx: RunningNginx;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let center: Awaited<ReturnType<typeof createCenter>>;
  /** What reached the app: method, path, If-None-Match, status. */
  const reached: { path: string; ifNoneMatch: string | null; status: number }[] = [];
  const dir = mkdtempSync(join(tmpdir(), "pathshala-nginx-"));

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: "1" }, { pages: standIn });
    owner = await registerUser(t, "business", { name: "Cached Owner" });
    center = await createCenter(t, owner.user._id, {
      instituteName: "Cached Academy",
      slug: "cached",
      customDomain: "cached.test",
    });
    const logoKey = await t.services.media.storeImage("logos/", new Blob([PNG_BYTES]), 1_000_000, "too large");
    await t.services.sites.updateProfile(center.id, { logoKey });
    app = await new Promise<ServerType>((resolve) => {
      const server = serve(
        {
          fetch: async (request: Request) => {
            const response = await t.app.fetch(request);
            reached.push({
              path: new URL(request.url).pathname,
              ifNoneMatch: request.headers.get("if-none-match"),
              status: response.status,
            });
            return response;
          },
          port: 0,
          hostname: "127.0.0.1",
        },
        () => resolve(server),
      );
    });
    appPort = (app.address() as { port: number }).port;
    nginx = await startDeployNginx({ dir, port: await freePort(), upstream: `127.0.0.1:${appPort}` });
  });

  afterAll(async () => {
    await nginx?.stop();
    app?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const viaNginx = (path: string, headers: Record<string, string> = BROWSER, host = "cached.test") =>
    send(nginx.port, host, path, headers);
  const direct = (path: string, headers: Record<string, string> = BROWSER, host = "cached.test") =>
    send(appPort, host, path, headers);

  it("serves an institute's site as a browser loads it from the cache, byte for byte the app's own answers", async () => {
    const page = await viaNginx("/");
    expect(page.status).toBe(200);
    const html = page.body.toString("latin1");
    expect(page.headers["content-encoding"]).toBe("br");
    const own = await direct("/");
    expect(own.body.equals(page.body)).toBe(true);
    // The links are in the compressed page: read them from the plain one.
    const plain = (await direct("/", {})).body.toString();
    expect(html.length).toBeGreaterThan(0);
    const stylesheet = /href="(\/_site\/t\d\.css\?v=[\w-]+)"/.exec(plain)![1];
    const script = /src="(\/_site\/enquiry\.js\?v=[\w-]+)"/.exec(plain)![1];
    const logo = /<link rel="icon" href="(\/media\/logos\/[\w.-]+)"/.exec(plain)![1];
    for (const path of [stylesheet, script, logo]) {
      const first = await viaNginx(path);
      const second = await viaNginx(path);
      expect(first.status, path).toBe(200);
      expect(second.headers["x-cache-status"], path).toBe("HIT");
      const mine = await direct(path);
      expect(second.body.equals(mine.body), path).toBe(true);
      for (const name of ["content-type", "content-encoding", "etag", "cache-control"])
        expect(second.headers[name], `${path} ${name}`).toEqual(mine.headers[name]);
    }
    // The page itself, asked for again within its second, is not asked of the app again.
    const before = reached.length;
    const again = await viaNginx("/");
    if (again.headers["x-cache-status"] === "HIT") expect(reached.length).toBe(before);
    expect(again.body.equals(own.body)).toBe(true);
  });

  it("keeps one copy per encoding the visitor takes, whatever their Accept-Encoding says", async () => {
    const gzip = await viaNginx("/", { "accept-encoding": "gzip, deflate" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.body.equals((await direct("/", { "accept-encoding": "gzip" })).body)).toBe(true);
    const refused = await viaNginx("/", { "accept-encoding": "br;q=0, gzip" });
    expect(refused.headers["content-encoding"]).toBe("gzip");
    const plain = await viaNginx("/", {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toContain("Cached Academy");
  });

  it("sends what it does not keep compressed as the app compresses it for the visitor: a signed-in page, an API answer", async () => {
    const student = await registerUser(t, "student", { name: "Compressed Student" });
    const { token } = await t.services.sessions.createWebSession(student.user._id, "localhost", false);
    const signedIn = { ...BROWSER, cookie: `pathshala_session=${token}` };
    for (const [path, headers] of [
      ["/student", signedIn],
      ["/api/openapi.json", BROWSER],
    ] as const) {
      const answer = await viaNginx(path, headers, "localhost");
      const own = await direct(path, headers, "localhost");
      expect(answer.status, path).toBe(200);
      expect(own.headers["content-encoding"], path).toBe("gzip");
      expect(answer.headers["content-encoding"], path).toBe("gzip");
      const page = gunzipSync(answer.body);
      expect(page.equals(gunzipSync(own.body)), path).toBe(true);
      if (path === "/student") expect(page.toString()).toContain("Compressed Student");
    }
  });

  it("revalidates a page whose second is over with its ETag: the app answers 304", async () => {
    const asked = () => reached.filter((r) => r.path === "/" && r.ifNoneMatch !== null);
    const before = asked().length;
    await viaNginx("/");
    // In the second after, nginx sends its copy and asks the app in the background.
    await waitFor(
      async () => {
        await viaNginx("/");
        return asked().length > before;
      },
      5000,
      100,
    );
    expect(asked().at(-1)?.status).toBe(304);
    // A copy past its two seconds (the state under test is its age; nginx counts whole seconds,
    // so that is up to three): nginx asks first.
    await new Promise((resolve) => setTimeout(resolve, 3100));
    expect((await viaNginx("/")).headers["x-cache-status"]).toBe("REVALIDATED");
  });

  it("shows a template change, a profile change and a catalog change once the page's second is over", async () => {
    const shows = async (text: string) => (await viaNginx("/", {})).body.toString().includes(text);
    const within = async (text: string) => {
      const changed = Date.now();
      await waitFor(() => shows(text), 5000, 50);
      // s-maxage=1, stale-while-revalidate=1: two seconds, up to three as nginx counts whole seconds.
      expect(Date.now() - changed).toBeLessThan(3500);
    };
    await viaNginx("/", {});
    // Through nginx too: a write passes through untouched.
    const applied = await send(
      nginx.port,
      "localhost",
      "/api/templates/apply",
      { ...bearer(owner.access_token), "content-type": "application/json" },
      { method: "POST", body: JSON.stringify({ templateId: "t3" }) },
    );
    expect(applied.status).toBe(200);
    await within('data-template="t3"');

    await t.services.sites.updateProfile(center.id, { tagline: "Cached yet current" });
    await within("Cached yet current");

    const creator = await registerUser(t, "creator");
    await joinTeam(t, center.id, creator.user._id);
    await announcementsSettled(t.database, CATALOG_CHANNEL);
    // Written as another instance would: only the database's announcement tells this one.
    await t.database.db.insert(contents).values({
      creatorId: creator.user._id,
      centerId: center.id,
      type: "live",
      title: "Cache Chemistry Live",
      price: 49900,
      liveLink: "https://meet.example.com/cache",
    });
    await within("Cache Chemistry Live");
  });

  it("keeps the platform's public pages for visitors without cookies, the same bytes as the app's", async () => {
    const first = await viaNginx("/about", BROWSER, "localhost");
    const second = await viaNginx("/about", BROWSER, "localhost");
    expect(first.status).toBe(200);
    expect(["HIT", "REVALIDATED"]).toContain(second.headers["x-cache-status"]);
    expect(second.body.equals((await direct("/about", BROWSER, "localhost")).body)).toBe(true);
  });

  it("never keeps nor serves from the cache a signed-in visitor's page, or an answer that sets a cookie or says private", async () => {
    const student = await registerUser(t, "student", { name: "Signed Student" });
    const { token } = await t.services.sessions.createWebSession(student.user._id, "localhost", false);
    const cookie = { ...BROWSER, cookie: `pathshala_session=${token}` };
    for (const path of ["/about", "/student"]) {
      const mine = await viaNginx(path, cookie, "localhost");
      expect(mine.headers["x-cache-status"], path).toBe("BYPASS");
      expect(mine.headers["cache-control"], path).toBe("private, no-cache");
      // The next visitor without a cookie never gets it.
      const next = await viaNginx(path, {}, "localhost");
      expect(next.body.toString(), path).not.toContain("Signed Student");
    }
    const bearerAnswer = await viaNginx(
      "/api/auth/profile",
      { authorization: `Bearer ${student.access_token}` },
      "localhost",
    );
    expect(bearerAnswer.headers["x-cache-status"]).toBe("BYPASS");
    for (const path of ["/sets-cookie", "/private"]) {
      const count = () => renders.filter((p) => p === path).length;
      await viaNginx(path, {}, "localhost");
      const again = await viaNginx(path, {}, "localhost");
      expect(again.headers["x-cache-status"], path).toBe("MISS");
      expect(count(), path).toBe(2);
    }
  });
});
