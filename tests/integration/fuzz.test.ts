import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { describedOperations, type Operation } from "../../server/api/openapi.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, registerUser } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { adminToken } from "../helpers/payments.ts";

/**
 * Hostile input against every described API operation: wrong types, huge strings, unicode,
 * nulls, prototype-pollution keys, malformed JSON, odd headers — as a stranger and as every role.
 * The answer is always a 4xx (or a success) with a message, never a 5xx, and a refused write
 * changes nothing in the database.
 */
let t: TestApp;
const identities: Record<string, Record<string, string>> = { anonymous: {} };
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);

// Tables whose rows may legitimately change on a refused request (counting attempts, sliding sessions).
const VOLATILE = new Set(["rate_limit_hits", "sessions", "__drizzle_migrations"]);

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  await seedDemo(t.database.db);
  for (const role of ["student", "creator", "business"] as const) {
    const u = await registerUser(t, role);
    identities[role] = bearer(u.access_token);
    if (role === "business") await createCenter(t, u.user._id, { slug: "fuzz-inst", customDomain: "fuzz-inst.test" });
  }
  identities.admin = bearer(await adminToken(t));
}, 60_000);
afterAll(() => t.close());

async function fingerprint(): Promise<string> {
  const tables = (await t.database.db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`)) as unknown as
    | { rows: { tablename: string }[] }
    | { tablename: string }[];
  const names = ("rows" in tables ? tables.rows : tables).map((r) => r.tablename).filter((n) => !VOLATILE.has(n));
  const parts: string[] = [];
  for (const name of names) {
    const result = (await t.database.db.execute(sql.raw(`select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${name}" x`))) as unknown as
      | { rows: { h: string }[] }
      | { h: string }[];
    parts.push(`${name}:${("rows" in result ? result.rows : result)[0].h}`);
  }
  return parts.join(",");
}

const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("", " ", "null", "undefined", "NaN", "-1", "1e309", "0x10", "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd", "%00", "\u0000", "🧪📚", "ß".repeat(300)),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ minLength: 5000, maxLength: 20000 }),
);

const pollution = fc.constantFrom(
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"name":"x","__proto__":{"isAdmin":true},"role":"admin"}',
);

/** A body: JSON of random shape, malformed text, or a prototype-pollution attempt. */
const body = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), fc.oneof(hostile, fc.array(hostile, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 6 }), hostile, { maxKeys: 3 }))).map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: pollution },
);

const pathParam = fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 60 }), fc.constantFrom("..", "%2e%2e", "null", "0", "00000000-0000-0000-0000-000000000000", "a".repeat(2000)));
const query = fc.dictionary(fc.oneof(fc.constantFrom("limit", "page", "email", "domain", "status", "sort", "dir", "q", "ttl", "format", "centerId", "template"), fc.string({ maxLength: 8 })), fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("-1", "999999999999", "abc", "", "[]")), { maxKeys: 4 });
const contentType = fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "");

function pathFor(op: Operation, params: string[]): string {
  let i = 0;
  return `/api${op.path.replace(/\{\w+\}/g, () => encodeURIComponent(params[i++] ?? "x"))}`;
}

const operations = () => describedOperations().filter((op) => op.path !== "/openapi.json");

describe("hostile input on every API operation", () => {
  it("covers the whole described API", () => {
    expect(operations().length).toBeGreaterThan(20);
  });

  it("never answers 5xx, always explains a refusal, and a refused write changes nothing", async () => {
    for (const op of operations()) {
      const method = op.method.toUpperCase();
      for (const [who, headers] of Object.entries(identities)) {
        await fc.assert(
          fc.asyncProperty(body, fc.array(pathParam, { minLength: 2, maxLength: 2 }), query, contentType, fc.constantFrom("localhost", "fuzz-inst.test"), async (raw, params, q, type, host) => {
            const writes = method !== "GET";
            const before = writes ? await fingerprint() : "";
            const search = new URLSearchParams(q).toString();
            const res = await t.request(`${pathFor(op, params)}${search ? `?${search}` : ""}`, {
              method,
              host,
              headers: { ...headers, ...(type ? { "content-type": type } : {}), "x-forwarded-for": "198.51.100.200" },
              body: writes ? raw : undefined,
            });
            const label = `${who} ${method} ${op.path} → ${res.status}`;
            expect(res.status, label).toBeLessThan(500);
            if (res.status >= 400 && (res.headers.get("content-type") ?? "").includes("json")) {
              const json = await res.json();
              expect(typeof json.error, label).toBe("string");
              expect(json.error.length, label).toBeGreaterThan(0);
              expect(json.success, label).toBe(false);
            }
            if (writes && res.status >= 400) expect(await fingerprint(), `${label} changed the database`).toBe(before);
          }),
          { numRuns: RUNS },
        );
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  }, 600_000);

  it("refuses bodies past the global limit with 413 on every JSON endpoint", async () => {
    const huge = JSON.stringify({ name: "x".repeat(1_100_000) });
    for (const op of operations().filter((o) => o.method !== "get" && !(o.body && "multipart" in o.body))) {
      const res = await t.request(pathFor(op, ["00000000-0000-0000-0000-000000000000"]), {
        method: op.method.toUpperCase(),
        // As every HTTP/1.1 client sends it (the in-process request adds none by itself).
        headers: { ...identities.admin, "content-type": "application/json", "content-length": String(Buffer.byteLength(huge)) },
        body: huge,
      });
      expect([413, 404, 405], `${op.method} ${op.path} → ${res.status}`).toContain(res.status);
      if (res.status === 413) expect((await res.json()).error).toBe("The request body is too large.");
    }
  }, 120_000);
});
