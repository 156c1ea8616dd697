import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { sql } from "drizzle-orm";
import type { Operation } from "../../server/api/openapi.ts";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/payments.ts";
import {
  createApiWorld,
  SAMPLE_ENV,
  eachObjectListed,
  eachStringReplaced,
  INSTITUTE,
  opKey,
  PLATFORM,
  ROLES,
  sampleRequest,
  servedRoles,
  type ApiWorld,
  type Sample,
  type Variation,
  type Who,
} from "../helpers/api-samples.ts";

/**
 * Hostile input against every described API operation: wrong types, huge strings, unicode,
 * nulls, prototype-pollution keys, malformed JSON, odd headers — as a stranger and as every role.
 * The answer is always a 4xx (or a success) with a message, never a 5xx, and a refused write
 * changes nothing in the database.
 */
let t: ListeningTestApp;
let world: ApiWorld;
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);

// Tables whose rows may legitimately change on a refused request (counting attempts, sliding sessions).
const VOLATILE = new Set(["rate_limit_hits", "sessions", "__drizzle_migrations"]);
/** Tables whose rows a background worker updates: only what a request writes is compared (the message, not its delivery). */
const WRITTEN_BY_REQUESTS: Record<string, string[]> = {
  messages: ["id", "template", "channel", "recipient", "text"],
};

beforeAll(async () => {
  t = await createListeningTestApp({ TRUST_PROXY: "1", ...SAMPLE_ENV });
  world = await createApiWorld(t);
  await t.database.asOwner(countChanges);
}, 180_000);
afterAll(() => t.close());

/**
 * Counts every row a statement really changes, in every table a request may write, in the
 * changing transaction itself (a write rolled back uncounts itself): a refused write must leave
 * the count as it was. A trigger's count costs nothing per check, where hashing every table
 * after each request was most of this file's time.
 */
async function countChanges(): Promise<void> {
  const run = (statement: string) => t.database.db.execute(sql.raw(statement));
  const tables = (await run(
    `select tablename from pg_tables where schemaname = 'public' order by tablename`,
  )) as unknown as { rows: { tablename: string }[] } | { tablename: string }[];
  const names = ("rows" in tables ? tables.rows : tables).map((r) => r.tablename).filter((n) => !VOLATILE.has(n));
  await run(`create table fuzz_changes (n bigint not null)`);
  await run(`insert into fuzz_changes values (0)`);
  // As its owner: the app's own role may not write this table, and row-level security does not apply to it.
  await run(`create function fuzz_count_change() returns trigger language plpgsql security definer as $$
    begin update fuzz_changes set n = n + 1; return null; end $$`);
  for (const name of names) {
    const columns = WRITTEN_BY_REQUESTS[name];
    const changed = columns
      ? `row(${columns.map((c) => `old.${c}`).join(", ")}) is distinct from row(${columns.map((c) => `new.${c}`).join(", ")})`
      : "old.* is distinct from new.*";
    await run(
      `create trigger fuzz_written after insert or delete on "${name}" for each row execute function fuzz_count_change()`,
    );
    await run(
      `create trigger fuzz_changed after update on "${name}" for each row when (${changed}) execute function fuzz_count_change()`,
    );
  }
}

/** How many row changes requests have made so far: what a refused write must leave as it was. */
async function fingerprint(): Promise<string> {
  const result = (await t.database.asOwner(() => t.database.db.execute(sql`select n from fuzz_changes`))) as unknown as
    { rows: { n: string | number }[] } | { n: string | number }[];
  return String(("rows" in result ? result.rows : result)[0].n);
}

const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "null",
    "undefined",
    "NaN",
    "-1",
    "1e309",
    "0x10",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "%00",
    "\u0000",
    "🧪📚",
    "ß".repeat(300),
  ),
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
  {
    weight: 4,
    arbitrary: fc
      .dictionary(
        fc.string({ maxLength: 12 }),
        fc.oneof(
          hostile,
          fc.array(hostile, { maxLength: 3 }),
          fc.dictionary(fc.string({ maxLength: 6 }), hostile, { maxKeys: 3 }),
        ),
      )
      .map((o) => JSON.stringify(o)),
  },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: pollution },
);

const pathParam = fc.oneof(
  fc.uuid(),
  fc.string({ minLength: 1, maxLength: 60 }),
  fc.constantFrom("..", "%2e%2e", "null", "0", "00000000-0000-0000-0000-000000000000", "a".repeat(2000)),
);
const query = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      "limit",
      "page",
      "email",
      "domain",
      "status",
      "sort",
      "dir",
      "q",
      "ttl",
      "format",
      "centerId",
      "template",
    ),
    fc.string({ maxLength: 8 }),
  ),
  fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("-1", "999999999999", "abc", "", "[]")),
  { maxKeys: 4 },
);
const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "",
);

function pathFor(op: Operation, params: string[]): string {
  let i = 0;
  return `/api${op.path.replace(/\{\w+\}/g, () => encodeURIComponent(params[i++] ?? "x"))}`;
}

const operations = () => world.operations.filter((op) => op.path !== "/openapi.json");

describe("hostile input on every API operation", () => {
  it("covers the whole described API", () => {
    expect(operations().length).toBeGreaterThan(20);
  });

  it("counts a real change, not a rolled-back one, nor an update that changes nothing", async () => {
    const { db } = t.database;
    const before = await fingerprint();
    await db.execute(sql`update users set name = name where id = (select min(id::text)::uuid from users)`);
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`update users set name = name || '!' where id = (select min(id::text)::uuid from users)`);
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await fingerprint()).toBe(before);
    await db.execute(sql`update users set name = name || '!' where id = (select min(id::text)::uuid from users)`);
    expect(Number(await fingerprint())).toBe(Number(before) + 1);
  });

  it("never answers 5xx, always explains a refusal, and a refused write changes nothing", async () => {
    // What the database holds now: taken again only after a write that succeeded.
    let current = await fingerprint();
    for (const op of operations()) {
      const method = op.method.toUpperCase();
      for (const who of ROLES) {
        await fc.assert(
          fc.asyncProperty(
            body,
            fc.array(pathParam, { minLength: 2, maxLength: 2 }),
            query,
            contentType,
            fc.constantFrom(PLATFORM, INSTITUTE),
            async (raw, params, q, type, host) => {
              const headers = world.identities[host][who];
              const writes = method !== "GET";
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
              if (!writes) return;
              const after = await fingerprint();
              if (res.status >= 400) expect(after, `${label} changed the database`).toBe(current);
              current = after;
            },
          ),
          { numRuns: RUNS },
        );
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  }, 600_000);

  it("refuses bodies past the global limit with 413 on every JSON endpoint", async () => {
    const huge = JSON.stringify({ name: "x".repeat(1_100_000) });
    for (const op of operations().filter((o) => o.method !== "get" && !o.multipart)) {
      const res = await t.request(pathFor(op, ["00000000-0000-0000-0000-000000000000"]), {
        method: op.method.toUpperCase(),
        // As every HTTP/1.1 client sends it (the in-process request adds none by itself).
        headers: {
          ...world.identities[PLATFORM].admin,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(huge)),
        },
        body: huge,
      });
      expect([413, 404, 405], `${op.method} ${op.path} → ${res.status}`).toContain(res.status);
      if (res.status === 413) expect((await res.json()).error).toBe("The request body is too large.");
    }
  }, 120_000);
});

let addresses = 0;
/** Each request from an address of its own, so that rate limits do not answer before the input is read. */
const fromNewAddress = () => {
  addresses += 1;
  return { "x-forwarded-for": `10.66.${(addresses >> 8) & 255}.${addresses & 255}` };
};

async function ask(op: Operation, sample: Sample, who: Who, variation: Variation) {
  const host = variation.host ?? sample.host ?? PLATFORM;
  const { path, init } = sampleRequest(op, sample, {
    ...variation,
    headers: { ...world.identities[host][who], ...fromNewAddress(), ...variation.headers },
  });
  const res = await t.request(path, init);
  const type = res.headers.get("content-type") ?? "";
  const json = type.includes("json") ? await res.json() : null;
  return { status: res.status, json, label: `${who} ${opKey(op)} ${path.slice(0, 120)}` };
}

/** A refusal in the API's error shape: `{success: false, error, message}`. */
function refusalProblem(answer: {
  status: number;
  json: { success?: unknown; error?: unknown } | null;
  label: string;
}): string | null {
  if (answer.status < 400 || answer.status >= 500) return `${answer.label} → ${answer.status}, expected a 4xx`;
  if (!answer.json || answer.json.success !== false || typeof answer.json.error !== "string" || !answer.json.error)
    return `${answer.label} → ${answer.status} without the error shape`;
  return null;
}

const UNSTORABLE = [
  ["NUL", "\u0000"],
  ["a lone high surrogate", "\uD800"],
  ["a lone low surrogate", "\uDC00"],
] as const;
const spoil = (bad: string) => (s: string) => `${s.slice(0, 1)}${bad}${s.slice(1)}`;

/** The sample's body with one text field spoiled at a time (JSON carries all three; a form's text is UTF-8, so only NUL). */
function* spoiledBodies(sample: Sample): Generator<{ field: string; how: string; variation: Variation }> {
  for (const [how, bad] of UNSTORABLE) {
    if (sample.json !== undefined)
      for (const { field, value } of eachStringReplaced(sample.json, spoil(bad)))
        yield { field, how, variation: { json: value } };
    if (sample.multipart && bad === "\u0000") {
      for (const [field, value] of Object.entries(sample.multipart)) {
        if (typeof value === "string")
          yield { field, how, variation: { multipart: { ...sample.multipart, [field]: spoil(bad)(value) } } };
      }
    }
  }
}

describe("text that cannot be stored (U+0000, lone surrogates) is bad input", () => {
  // The hostile requests above may have signed the roles out (POST /auth/logout).
  beforeAll(() => world.renewIdentities(), 60_000);

  it("in any field of any body: 400 naming the field for whoever may call, a 4xx for the rest, and nothing written", async () => {
    const problems: string[] = [];
    let asked = 0;
    for (const op of world.operations) {
      const sample = world.samples[opKey(op)];
      const served = servedRoles(op, sample);
      for (const who of ROLES) {
        const before = await fingerprint();
        for (const { field, how, variation } of spoiledBodies(sample)) {
          const answer = await ask(op, sample, who, variation);
          asked += 1;
          const label = `${answer.label} with ${how} in ${field}`;
          const problem = refusalProblem({ ...answer, label });
          if (problem) problems.push(problem);
          else if (served.includes(who)) {
            const issues = (answer.json as { issues?: { field?: string }[] }).issues ?? [];
            if (answer.status !== 400 || !issues.some((issue) => issue.field === field))
              problems.push(`${label} → ${answer.status} ${JSON.stringify(answer.json).slice(0, 160)}`);
          }
        }
        if ((await fingerprint()) !== before) problems.push(`${who} ${opKey(op)}: a refused body changed the database`);
      }
    }
    expect(asked).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  }, 600_000);

  it("in any query parameter or path segment: 400 for everyone, naming the parameter, before anything reads it", async () => {
    const problems: string[] = [];
    for (const op of world.operations) {
      const sample = world.samples[opKey(op)];
      const before = await fingerprint();
      for (const who of ROLES) {
        for (const name of [...Object.keys(sample.query ?? {}), "extra"]) {
          const others = new URLSearchParams(
            Object.entries(sample.query ?? {}).filter(([key]) => key !== name),
          ).toString();
          const rawQuery = `${others ? `${others}&` : ""}${name}=a%00b`;
          const answer = await ask(op, sample, who, { rawQuery });
          const message = `${name} contains characters that cannot be stored.`;
          if (answer.status !== 400 || answer.json?.error !== message || answer.json.issues?.[0]?.field !== name)
            problems.push(`${answer.label} → ${answer.status} ${JSON.stringify(answer.json)}`);
        }
        for (const name of Object.keys(sample.params ?? {})) {
          const answer = await ask(op, sample, who, { params: { [name]: "a%00b" } });
          if (answer.status !== 400 || answer.json?.error !== "The address contains characters that cannot be stored.")
            problems.push(`${answer.label} → ${answer.status} ${JSON.stringify(answer.json)}`);
        }
      }
      if ((await fingerprint()) !== before) problems.push(`${opKey(op)}: a refused address changed the database`);
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it("the enquiry form of an institute's site (no JavaScript) answers a NUL with its form error page", async () => {
    const before = await fingerprint();
    const res = await t.request("/enquiry", {
      method: "POST",
      host: INSTITUTE,
      headers: { "content-type": "application/x-www-form-urlencoded", ...fromNewAddress() },
      body: new URLSearchParams({ name: "Ra\u0000vi", phone: "9830012345", email: "ravi@example.com" }).toString(),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Your name contains characters that cannot be stored.");
    expect(await fingerprint()).toBe(before);
  });
});

describe("a JSON list where an object belongs is bad input", () => {
  beforeAll(() => world.renewIdentities(), 60_000);
  /** Operations that refuse a list at the top in their own words (checked before their schema reads it). */
  const OWN_WORDS: Record<string, string> = {
    "POST /pricing": "The plan must be a JSON object",
    "PUT /pricing/{id}": "The plan must be a JSON object",
  };
  /** MSG91's webhook v3 posts one report or a list of them: a list is what it may send. */
  const TAKES_A_LIST = new Set(["POST /messages/webhooks/msg91"]);

  it("as the whole body or any object in it: 400 naming the field for whoever may call, a 4xx for the rest, and nothing written", async () => {
    const problems: string[] = [];
    let asked = 0;
    for (const op of world.operations) {
      const sample = world.samples[opKey(op)];
      if (sample.json === undefined || Array.isArray(sample.json) || TAKES_A_LIST.has(opKey(op))) continue;
      const served = servedRoles(op, sample);
      const before = await fingerprint();
      for (const who of ROLES) {
        for (const { field, value } of eachObjectListed(sample.json)) {
          const answer = await ask(op, sample, who, { json: value });
          asked += 1;
          const label = `${answer.label} with a list at ${field || "the top"}`;
          const problem = refusalProblem({ ...answer, label });
          if (problem) problems.push(problem);
          else if (served.includes(who)) {
            const own = field ? undefined : OWN_WORDS[opKey(op)];
            const expected = field
              ? `${field} must be an object, not a list.`
              : "The request body must be a JSON object, not a list.";
            const issues = (answer.json as { issues?: { field?: string; message: string }[] }).issues ?? [];
            const named = own
              ? answer.json?.error === own
              : issues.some((issue) => (issue.field ?? "") === field && issue.message === expected);
            if (answer.status !== 400 || !named)
              problems.push(`${label} → ${answer.status} ${JSON.stringify(answer.json).slice(0, 160)}`);
          }
        }
      }
      if ((await fingerprint()) !== before) problems.push(`${opKey(op)}: a list for an object changed the database`);
    }
    expect(asked).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  }, 600_000);

  it("PUT /api/settings with [] is refused and keeps every setting", async () => {
    const admin = world.identities[PLATFORM].admin;
    const saved = await t.request("/api/settings", {
      method: "PUT",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ supportEmail: "help@example.com" }),
    });
    expect(saved.status).toBe(200);
    const res = await t.request("/api/settings", {
      method: "PUT",
      headers: { ...admin, "content-type": "application/json" },
      body: "[]",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("The request body must be a JSON object, not a list.");
    const now = await (await t.request("/api/settings", { headers: admin })).json();
    expect(now.stored.supportEmail).toBe("help@example.com");
  });
});

/**
 * ".." is resolved by the URL before it is sent: /api/batches/../contents is /api/contents and
 * /api/sessions/../attendance is /api/attendance, routes of their own (answering as they do, a
 * 405 or a 200), not the operation asked about with a bad id.
 */
const climbsToAnotherRoute = (op: Operation, id: string) => {
  if (id !== "..") return false;
  const resolved = new URL(`http://x/api${op.path.replace("{id}", "..")}`).pathname.replace(/^\/api/, "");
  const template = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
  return world.operations.some((other) => other.path !== op.path && template(other.path).test(resolved));
};

describe("malformed identifiers and cookies are 4xx", () => {
  beforeAll(() => world.renewIdentities(), 60_000);
  const MALFORMED_IDS = ["0", "1 OR 1=1", "%E0%A4%A", "..", "ffffffff-ffff-ffff-ffff-fffffffffffff"];

  it("an id that is not a UUID is 404 for whoever may call (401/403 for the rest), and nothing is written", async () => {
    const problems: string[] = [];
    for (const op of world.operations.filter((o) => o.path.includes("{id}"))) {
      const sample = world.samples[opKey(op)];
      const served = servedRoles(op, sample);
      const before = await fingerprint();
      for (const who of ROLES) {
        for (const id of MALFORMED_IDS) {
          if (climbsToAnotherRoute(op, id)) continue;
          const answer = await ask(op, sample, who, { params: { id } });
          const problem = refusalProblem(answer);
          if (problem) problems.push(problem);
          else if (served.includes(who) && answer.status !== 404)
            problems.push(`${answer.label} → ${answer.status}, expected 404`);
        }
      }
      if ((await fingerprint()) !== before) problems.push(`${opKey(op)}: a malformed id changed the database`);
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it("POST /api/centers/0/extend, a 500 once, is 404 Center not found", async () => {
    const res = await t.request("/api/centers/0/extend", {
      method: "POST",
      headers: { ...world.identities[PLATFORM].admin, "content-type": "application/json" },
      body: JSON.stringify({ days: 30 }),
    });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe("Center not found");
  });

  it("a malformed %-encoded cookie is ignored as absent, on every GET operation and on pages", async () => {
    const broken = "pathshala_session=%E0%A4%A; pathshala_theme=%ZZ; pathshala_center=%";
    const problems: string[] = [];
    for (const op of world.operations.filter((o) => o.method === "get")) {
      const sample = world.samples[opKey(op)];
      const without = await ask(op, sample, "anonymous", {});
      const withCookie = await ask(op, sample, "anonymous", { headers: { cookie: broken } });
      if (withCookie.status !== without.status)
        problems.push(`${withCookie.label} → ${withCookie.status} with the cookie, ${without.status} without`);
    }
    expect(problems).toEqual([]);
    const profile = await t.request("/api/auth/profile", { headers: { cookie: broken } });
    expect(profile.status).toBe(401);
    expect((await profile.json()).error).toBe("Please sign in to continue.");
    const signedIn = await t.request("/api/auth/profile", {
      headers: { cookie: broken, ...world.identities[PLATFORM].student },
    });
    expect(signedIn.status).toBe(200);
    // A write with only a broken cookie carries no session, so it needs no same-site proof.
    const booking = await ask(
      world.operations.find((o) => opKey(o) === "POST /book")!,
      world.samples["POST /book"],
      "anonymous",
      { headers: { cookie: broken } },
    );
    expect(booking.status).toBe(201);
    const page = await t.request("/", { headers: { cookie: broken } });
    expect(page.status).toBe(200);
    expect(page.headers.get("set-cookie")).toBeNull();
  });
});

describe("methods a route does not have", () => {
  beforeAll(() => world.renewIdentities(), 60_000);
  it("are 405 with Allow listing the path's methods", async () => {
    const doc = (await (await t.request("/api/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const templates = Object.entries(doc.paths).map(([template, ops]) => ({
      pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`),
      methods: Object.keys(ops).flatMap((m) => (m === "get" ? ["GET", "HEAD"] : [m.toUpperCase()])),
    }));
    const problems: string[] = [];
    for (const op of world.operations) {
      const sample = world.samples[opKey(op)];
      const { path } = sampleRequest(op, sample);
      const at = path.split("?")[0].slice("/api".length);
      const allowed = new Set(templates.filter((tpl) => tpl.pattern.test(at)).flatMap((tpl) => tpl.methods));
      for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !allowed.has(m))) {
        const res = await t.request(path, {
          method,
          host: sample.host ?? PLATFORM,
          headers: world.identities[sample.host ?? PLATFORM].admin,
        });
        const allow = new Set((res.headers.get("allow") ?? "").split(",").map((m) => m.trim()));
        if (res.status !== 405 || allow.size !== allowed.size || [...allowed].some((m) => !allow.has(m)))
          problems.push(`${method} ${at} → ${res.status} Allow: ${res.headers.get("allow")}`);
        else if (
          method !== "HEAD" &&
          (await res.json()).error !== `${method} is not allowed here. Allowed: ${res.headers.get("allow")}.`
        )
          problems.push(`${method} ${at}: message`);
      }
    }
    expect(problems).toEqual([]);
    const unknown = await t.request("/api/no-such-thing", { method: "POST" });
    expect(unknown.status).toBe(404);
  });

  it("pages take GET, HEAD and POST with a readable form: other methods are 405, unreadable bodies 400", async () => {
    for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const res = await t.request("/auth", { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
    }
    const form = (type: string, body: string) =>
      t.request("/auth", { method: "POST", headers: { "content-type": type }, body });
    expect((await t.request("/auth", { method: "POST" })).status).toBe(400);
    expect((await form("text/plain", "intent=login")).status).toBe(400);
    expect((await form("multipart/form-data; boundary=zz", "not multipart")).status).toBe(400);
    expect((await form("application/json", "{not json")).status).toBe(400);
    // Readable forms reach React Router (here the stand-in that answers "react-router").
    for (const [type, body] of [
      ["application/x-www-form-urlencoded", "intent=login"],
      ["multipart/form-data; boundary=zz", '--zz\r\ncontent-disposition: form-data; name="a"\r\n\r\nb\r\n--zz--\r\n'],
      ["application/json", "{}"],
    ]) {
      const res = await form(type, body);
      expect(res.status, type).toBe(200);
      expect(await res.text()).toBe("react-router");
    }
  });
});
