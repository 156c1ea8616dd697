import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/open.ts";
import { createOrPromoteAdmin } from "../../server/services/admins.ts";
import { KEPT_PATHS } from "../../server/pages/kept-pages.ts";
import { call, launch, prepareStore, type Running, type Store } from "./server.ts";

/**
 * The platform's public pages kept as bytes, on the built server with React Router: byte for byte
 * the page React Router renders for the same visitor (but for the nonce attributes, which a kept
 * page does without), its inline scripts allowed by their hashes only, never on an institute's
 * domain, never for a signed-in visitor, and /pricing showing a plan change on the next request
 * (through another instance within a second, on PostgreSQL).
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const ADMIN = { email: "pages-admin@example.com", password: "pages-admin-password-1" };
let store: Store;
let a: Running;
let b: Running | undefined;

beforeAll(async () => {
  store = await prepareStore();
  const database = await openDatabase({ databaseUrl: store.databaseUrl, dataDir: store.dataDir });
  await createOrPromoteAdmin(database.db, { ...ADMIN, name: "Pages Admin" });
  await database.close();
  a = await launch(store);
  if (onPostgres) b = await launch(store);
}, 120_000);
afterAll(async () => {
  a?.child.kill("SIGKILL");
  b?.child.kill("SIGKILL");
  await store?.drop();
});

type Answer = Awaited<ReturnType<typeof call>>;
const get = (server: Running, path: string, headers: Record<string, string> = {}) =>
  call(server.base, path, { headers: { host: `localhost:${server.port}`, ...headers } });
const header = (res: Answer, name: string) => String(res.headers[name] ?? "");
const nonceOf = (res: Answer) => /'nonce-([^']+)'/.exec(header(res, "content-security-policy"))?.[1];

/** What a browser hashes for each inline script of a page (CSP level 3), found independently of the server's code. */
function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes, text] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\ssrc=/.test(attributes)) continue;
    const hash = createHash("sha256").update(text).digest("base64");
    if (!hashes.includes(hash)) hashes.push(hash);
  }
  return hashes;
}

describe("the platform's public pages, kept as bytes", () => {
  it("are the page React Router renders, byte for byte but for the nonce", async () => {
    for (const choices of ["", "pathshala_theme=dark; pathshala_cookie_consent=accepted; sidebar_state=false"]) {
      for (const path of KEPT_PATHS) {
        const kept = await get(a, path, choices ? { cookie: choices } : {});
        // A cookie the kept pages do not know: rendered for this request, with its own nonce.
        const rendered = await get(a, path, { cookie: choices ? `${choices}; unknown=1` : "unknown=1" });
        expect(kept.status, path).toBe(200);
        expect(rendered.status, path).toBe(200);
        expect(header(kept, "etag"), path).toMatch(/^"[\w-]+"$/);
        expect(header(rendered, "etag"), path).toBe("");
        const nonce = nonceOf(rendered)!;
        expect(nonce, path).toMatch(/^[\w+/]{22}==$/);
        expect(rendered.text.split(` nonce="${nonce}"`).length, path).toBeGreaterThan(5);
        expect(kept.text, path).toBe(rendered.text.replaceAll(` nonce="${nonce}"`, ""));
        expect(kept.text, path).not.toContain("nonce");
      }
    }
  });

  it("allow exactly their own inline scripts, by hash, and no nonce", async () => {
    for (const path of KEPT_PATHS) {
      const kept = await get(a, path);
      const csp = header(kept, "content-security-policy");
      const scriptSrc = /script-src ([^;]*)/.exec(csp)![1];
      const hashes = inlineScriptHashes(kept.text);
      expect(hashes.length, path).toBeGreaterThanOrEqual(4);
      expect(scriptSrc, path).toBe(["'self'", ...hashes.map((hash) => `'sha256-${hash}'`)].join(" "));
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'self'");
    }
  });

  it("answer a browser's revalidation with 304", async () => {
    const first = await get(a, "/", { "accept-encoding": "gzip, deflate, br" });
    expect(header(first, "content-encoding")).toBe("br");
    const again = await get(a, "/", { "accept-encoding": "gzip, deflate, br", "if-none-match": header(first, "etag") });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });

  it("are never answered on an institute's domain", async () => {
    const host = `demo-t1.localhost:${a.port}`;
    const home = await get(a, "/", { host });
    expect(home.status).toBe(200);
    expect(home.text).toContain("Sunrise Academy");
    expect(home.text).not.toContain("the all-in-one platform for coaching institutes");
    for (const path of ["/about", "/pricing", "/contact", "/invest", "/legal"]) {
      const res = await get(a, path, { host });
      expect(res.status, path).toBe(404);
      expect(res.text, path).toContain("Oops! Page not found");
      expect(header(res, "cache-control"), path).not.toContain("private");
      expect(nonceOf(res), path).toBeDefined();
    }
  });

  it("are never sent to a signed-in visitor, who still sees their own header", async () => {
    const origin = `http://localhost:${a.port}`;
    const signIn = await call(a.base, "/auth?role=student", {
      headers: { host: `localhost:${a.port}`, origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        role: "student",
        email: "student@example.com",
        password: "demo-student-2025",
      }).toString(),
    });
    expect(signIn.status).toBe(302);
    const session = String(
      ([] as string[]).concat(signIn.headers["set-cookie"] ?? []).find((c) => c.startsWith("pathshala_session=")),
    ).split(";")[0];
    for (const path of KEPT_PATHS) {
      const res = await get(a, path, { cookie: session });
      expect(res.status, path).toBe(200);
      expect(header(res, "etag"), path).toBe("");
      expect(nonceOf(res), path).toBeDefined();
      // The root data names the viewer.
      expect(res.text, path).toContain("Priya Das");
    }
    const dashboard = await get(a, "/student", { cookie: session });
    expect(dashboard.text.replaceAll("<!-- -->", "")).toContain("Welcome back, Priya Das!");
  });
});

describe("/pricing, kept under the plans' version", () => {
  const namesOn = async (server: Running) =>
    [...(await get(server, "/pricing")).text.matchAll(/aria-label="([^"]+) features"/g)].map((m) => m[1]);

  it("shows a plan change on the next request", async () => {
    expect(await namesOn(a)).toEqual(["1 Year Plan", "3 Year Plan", "5 Year Plan"]);
    const login = await call(a.base, "/api/auth/login", {
      body: { ...ADMIN, role: "admin" },
      headers: { host: `localhost:${a.port}` },
    });
    expect(login.status).toBe(200);
    const token = login.json.access_token as string;
    const { plans } = (await call(a.base, "/api/pricing/admin", { token, headers: { host: `localhost:${a.port}` } }))
      .json;
    const plan = plans.find((p: { name: string }) => p.name === "5 Year Plan");
    // A second instance keeps the page as it is now.
    if (b) expect(await namesOn(b)).toEqual(["1 Year Plan", "3 Year Plan", "5 Year Plan"]);

    const renamed = await call(a.base, `/api/pricing/${plan._id}`, {
      method: "PUT",
      token,
      body: { name: "Five Year Plan" },
      headers: { host: `localhost:${a.port}` },
    });
    expect(renamed.status).toBe(200);
    expect(await namesOn(a)).toEqual(["1 Year Plan", "3 Year Plan", "Five Year Plan"]);

    if (!b) return;
    const until = Date.now() + 1000;
    let names: string[] = [];
    while (Date.now() < until) {
      names = await namesOn(b);
      if (names.includes("Five Year Plan")) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(names).toEqual(["1 Year Plan", "3 Year Plan", "Five Year Plan"]);
  });
});
