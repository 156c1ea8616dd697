import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { Context } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seedDemo } from "../../server/seed/demo.ts";
import { createLoadContext, requestContext } from "../../server/middleware/context.ts";
import { visitorChoices } from "../../server/pages/visitor-choices.ts";
import { KEPT_PATHS } from "../../server/pages/kept-pages.ts";
import type { AppEnv } from "../../server/middleware/types.ts";
import type { AppDeps } from "../../server/middleware/types.ts";
import { PLANS_CHANNEL } from "../../server/services/plans.ts";
import { PUBLIC_PAGES } from "../../app/lib/seo.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createCenter } from "../helpers/centers.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { adminToken } from "../helpers/payments.ts";
import { announcementsSettled, waitFor } from "../helpers/wait.ts";

/**
 * The kept pages in front of a stand-in for React Router that renders as the real one does
 * (tests/faults/platform-pages.test.ts drives the real one): the response's nonce on every
 * inline script, or none in a page rendered to be kept; the viewer, the visitor's choices and,
 * on /pricing, the plans on sale, in the page.
 */
const renders: string[] = [];
let failNext = false;
let noStoreNext = false;

async function standIn(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const { nonce, auth } = createLoadContext(c, deps).get(requestContext);
  renders.push(`${c.req.path}${nonce ? " nonce" : ""}`);
  if (failNext) {
    failNext = false;
    return c.html(
      `<!DOCTYPE html><html><body><h1>Something went wrong</h1><script>window.failed=1</script></body></html>`,
      500,
    );
  }
  if (noStoreNext) c.header("Cache-Control", "no-store");
  noStoreNext = false;
  const attribute = nonce ? ` nonce="${nonce}"` : "";
  const plans =
    c.req.path === "/pricing"
      ? (await deps.services.plans.listActive()).map((plan) => `<li>${plan.name}</li>`).join("")
      : "";
  const data = JSON.stringify({ viewer: auth?.user.name ?? null, ...visitorChoices(c.req.header("cookie")) });
  return c.html(
    `<!DOCTYPE html><html><head><script${attribute}>document.documentElement.dataset.theme="x"</script>` +
      `<script${attribute} src="/assets/entry.js" type="module"></script></head>` +
      `<body><h1>${c.req.path}</h1><ul>${plans}</ul><script${attribute}>window.__data=${data}\r\n</script></body></html>`,
  );
}

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" }, { pages: standIn });
  await seedDemo(t.database.db);
  await createCenter(t, null, { slug: "kept", customDomain: "kept.test" });
  admin = bearer(await adminToken(t));
});
afterAll(() => t.close());
beforeEach(() => {
  renders.length = 0;
});

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64");
const policyHashes = (res: Response) =>
  [...(res.headers.get("content-security-policy") ?? "").matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]);

describe("the platform's public pages, kept as bytes", () => {
  it("are rendered once, without a nonce, and then sent from memory, the same bytes every time", async () => {
    const first = await t.request("/about");
    const body = await first.text();
    const second = await t.request("/about");
    expect(renders).toEqual(["/about"]);
    expect(first.status).toBe(200);
    expect(await second.text()).toBe(body);
    expect(body).not.toContain("nonce");
    expect(first.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(first.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=1, stale-while-revalidate=1");
    expect(first.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    expect(first.headers.get("etag")).toMatch(/^"[\w-]{22}"$/);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("allow exactly their own inline scripts, by hash: no nonce, nothing inline else", async () => {
    const res = await t.request("/contact");
    const body = await res.text();
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).not.toContain("'nonce-");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    // The two inline scripts, the second with its line break as the browser reads it; the one
    // loaded by src needs no hash.
    expect(policyHashes(res)).toEqual([
      sha256('document.documentElement.dataset.theme="x"'),
      sha256(
        `window.__data=${JSON.stringify({ viewer: null, theme: "system", sidebarCollapsed: false, cookiesAccepted: false })}\n`,
      ),
    ]);
    expect(body).toContain("window.__data=");
  });

  it("answer a matching If-None-Match with 304, whichever copy the browser holds", async () => {
    const plain = await t.request("/legal");
    const etag = plain.headers.get("etag")!;
    const br = await t.request("/legal", { headers: { "accept-encoding": "gzip, br" } });
    expect(br.headers.get("etag")).toBe(etag.replace(/"$/, '-br"'));
    for (const tag of [etag, br.headers.get("etag")!, `W/${etag}`, `"other", ${etag}`]) {
      const again = await t.request("/legal", { headers: { "if-none-match": tag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("content-security-policy")).toContain("'sha256-");
    }
    expect((await t.request("/legal", { headers: { "if-none-match": '"other"' } })).status).toBe(200);
    expect(renders).toEqual(["/legal"]);
  });

  it("are compressed once, and the compressed copies are the same page", async () => {
    const plain = await (await t.request("/invest")).text();
    const br = await t.request("/invest", { headers: { "accept-encoding": "br;q=1, gzip;q=0.5" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(plain);
    const gzip = await t.request("/invest", { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(plain);
    expect(renders).toEqual(["/invest"]);
  });

  it("answer HEAD from memory too, with the page's headers", async () => {
    await t.request("/get-started");
    const head = await t.request("/get-started", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toMatch(/^"/);
    expect(renders).toEqual(["/get-started"]);
  });

  it("keep one variant per choice the visitor made, and render anything else for the request", async () => {
    await t.request("/");
    await t.request("/", { headers: { cookie: "pathshala_theme=dark" } });
    await t.request("/", { headers: { cookie: "pathshala_theme=dark; pathshala_cookie_consent=accepted" } });
    // The same choices in another order, or a value the page does not know (read as no choice): the same variants.
    const dark = await t.request("/", {
      headers: { cookie: "pathshala_cookie_consent=accepted; pathshala_theme=dark" },
    });
    expect(await dark.text()).toContain('"theme":"dark"');
    await t.request("/", { headers: { cookie: "pathshala_theme=neon" } });
    expect(renders).toEqual(["/", "/", "/"]);
    // A cookie the list does not know, a query, an Authorization header: rendered for this request, with a nonce.
    renders.length = 0;
    const others: Record<string, string>[] = [
      { cookie: "pathshala_theme=dark; other=1" },
      { authorization: "Bearer nothing" },
    ];
    for (const headers of others) {
      const res = await t.request("/", { headers });
      expect(res.headers.get("content-security-policy")).toMatch(/'nonce-[^']+'/);
      expect(res.headers.get("etag")).toBeNull();
    }
    await t.request("/?utm_source=mail");
    await t.request("/about/");
    expect(renders).toEqual(["/ nonce", "/ nonce", "/ nonce", "/about/ nonce"]);
  });

  it("name the origin they are served on: each host, port and scheme has its own", async () => {
    await t.request("/pricing", { host: "localhost" });
    await t.request("/pricing", { host: "127.0.0.1" });
    await t.request("/pricing", { host: "localhost:8080" });
    await t.request("/pricing", { host: "localhost", headers: { "x-forwarded-proto": "https" } });
    await t.request("/pricing", { host: "localhost:8080" });
    expect(renders).toEqual(["/pricing", "/pricing", "/pricing", "/pricing"]);
    const secure = await t.request("/pricing", { host: "localhost", headers: { "x-forwarded-proto": "https" } });
    expect(secure.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    expect(secure.headers.get("strict-transport-security")).toBe("max-age=63072000");
  });

  it("are never sent to a signed-in visitor: their page is rendered for them, with a nonce", async () => {
    const user = await registerUser(t, "student", { name: "Kept Student" });
    const { token } = await t.services.sessions.createWebSession(user.user._id, "localhost", false);
    for (const path of KEPT_PATHS) {
      const res = await t.request(path, { headers: { cookie: `pathshala_theme=dark; pathshala_session=${token}` } });
      expect(await res.text()).toContain('"viewer":"Kept Student"');
      expect(res.headers.get("content-security-policy")).toMatch(/'nonce-[^']+'/);
      // Theirs alone: no shared cache may keep it.
      expect(res.headers.get("cache-control")).toBe("private, no-cache");
    }
    expect(renders).toEqual([...KEPT_PATHS].map((path) => `${path} nonce`));
  });

  it("are never answered on an institute's domain", async () => {
    // Its home page is its own site's (server/pages/tenant-site.ts)…
    const home = await t.request("/", { host: "kept.test" });
    expect(home.status).toBe(200);
    expect(home.headers.get("vary")).toBe("Accept-Encoding");
    expect(await home.text()).not.toContain("<h1>/</h1>");
    // …and the platform's page paths are rendered for each request, as the platform-only guards decide.
    for (const path of ["/about", "/pricing", "/legal"]) {
      const res = await t.request(path, { host: "kept.test" });
      expect(res.headers.get("cache-control")).toBeNull();
      expect(res.headers.get("content-security-policy")).toMatch(/'nonce-[^']+'/);
    }
    expect(renders).toEqual(["/about nonce", "/pricing nonce", "/legal nonce"]);
  });

  it("are not kept when the render fails: that answer still allows only its own scripts", async () => {
    failNext = true;
    const failed = await t.request("/invest", { headers: { cookie: "pathshala_theme=light" } });
    expect(failed.status).toBe(500);
    expect(policyHashes(failed)).toEqual([sha256("window.failed=1")]);
    expect(failed.headers.get("etag")).toBeNull();
    const next = await t.request("/invest", { headers: { cookie: "pathshala_theme=light" } });
    expect(next.status).toBe(200);
    expect(renders).toEqual(["/invest", "/invest"]);
  });

  it("are not kept when the page says not to store it (the stand-in plans when the plan service fails)", async () => {
    noStoreNext = true;
    const first = await t.request("/pricing", { headers: { cookie: "sidebar_state=false" } });
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("etag")).toBeNull();
    const second = await t.request("/pricing", { headers: { cookie: "sidebar_state=false" } });
    expect(second.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=1, stale-while-revalidate=1");
    expect(renders).toEqual(["/pricing", "/pricing"]);
  });

  it("are the public pages the sitemap lists", () => {
    expect([...KEPT_PATHS].sort()).toEqual(PUBLIC_PAGES.map((page) => page.path).sort());
  });

  it("render a variant once however many ask for it at the same time", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.request("/about", { headers: { cookie: "sidebar_state=false" } })),
    );
    const bodies = await Promise.all(answers.map((res) => res.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(renders).toEqual(["/about"]);
  });
});

describe("/pricing, kept under the plans' version", () => {
  const shown = async () =>
    [...(await (await t.request("/pricing")).text()).matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]);

  it("shows a plan change on the next request", async () => {
    expect(await shown()).toEqual(["1 Year Plan", "3 Year Plan", "5 Year Plan"]);
    renders.length = 0;
    expect(await shown()).toEqual(["1 Year Plan", "3 Year Plan", "5 Year Plan"]);
    expect(renders).toEqual([]);
    const { plans } = await (await t.request("/api/pricing/admin", { headers: admin })).json();
    const threeYear = plans.find((plan: { name: string }) => plan.name === "3 Year Plan");
    const renamed = await postJson(
      t,
      `/api/pricing/${threeYear._id}`,
      { name: "Three Year Plan" },
      { method: "PUT", headers: admin },
    );
    expect(renamed.status).toBe(200);
    // At once, before this instance hears its own announcement (PostgreSQL delivers it later).
    expect(await shown()).toEqual(["1 Year Plan", "Three Year Plan", "5 Year Plan"]);
    await announcementsSettled(t.database, PLANS_CHANNEL);

    const created = await postJson(
      t,
      "/api/pricing",
      {
        name: "Starter",
        description: "For new institutes",
        pricing: {
          monthly: { price: 999, currency: "INR" },
          quarterly: { price: 2799, currency: "INR" },
          yearly: { price: 9999, currency: "INR" },
        },
        activeDuration: "monthly",
        features: [{ name: "Home Page", description: "Your own site", included: true }],
        isActive: true,
        isPopular: false,
        order: 9,
      },
      { headers: admin },
    );
    expect(created.status).toBe(201);
    expect(await shown()).toEqual(["1 Year Plan", "Three Year Plan", "5 Year Plan", "Starter"]);
    await announcementsSettled(t.database, PLANS_CHANNEL);
    const removed = await t.request(`/api/pricing/${(await created.json()).plan._id}`, {
      method: "DELETE",
      headers: admin,
    });
    expect(removed.status).toBe(200);
    expect(await shown()).toEqual(["1 Year Plan", "Three Year Plan", "5 Year Plan"]);
    await announcementsSettled(t.database, PLANS_CHANNEL);
    // Kept again once everything is heard.
    renders.length = 0;
    await shown();
    await shown();
    expect(renders.length).toBeLessThanOrEqual(1);
  });

  it("follows a change announced by another instance", async () => {
    await shown();
    renders.length = 0;
    await t.database.notify(PLANS_CHANNEL, "changed");
    await waitFor(async () => {
      await shown();
      return renders.length > 0;
    });
    expect(renders).toEqual(["/pricing"]);
  });
});
