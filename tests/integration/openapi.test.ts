import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "../../server/api/openapi.ts";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/payments.ts";
import {
  createApiWorld,
  SAMPLE_ENV,
  INSTITUTE,
  opKey,
  PLATFORM,
  ROLES,
  sampleRequest,
  type ApiWorld,
  type Sample,
  type Variation,
} from "../helpers/api-samples.ts";

let t: ListeningTestApp;
let world: ApiWorld;
beforeAll(async () => {
  t = await createListeningTestApp({ TRUST_PROXY: "1", ...SAMPLE_ENV });
  world = await createApiWorld(t);
}, 180_000);
afterAll(() => t.close());

describe("GET /api/openapi.json", () => {
  it("describes every mounted /api route", async () => {
    const res = await t.request("/api/openapi.json");
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => `${method.toUpperCase()} /api${path}`),
      ),
    );
    const mounted = t.app.routes
      .filter((r) => r.path.startsWith("/api/") && r.method !== "ALL" && r.path !== "/api/openapi.json")
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
    expect(mounted.length).toBeGreaterThan(0);
    const missing = [...new Set(mounted)].filter((route) => !documented.has(route));
    expect(missing).toEqual([]);
  });

  it("derives request bodies from the handlers' own schemas", async () => {
    const doc = await (await t.request("/api/openapi.json")).json();
    const register = doc.paths["/auth/register"].post.requestBody.content["application/json"].schema;
    expect(Object.keys(register.properties).sort()).toEqual(["email", "name", "password", "role"]);
    // Parsed at the route by `input`: the body, the query's parameters with their schema's words.
    const refresh = doc.paths["/auth/refresh"].post.requestBody.content["application/json"].schema;
    expect(Object.keys(refresh.properties)).toEqual(["refresh_token"]);
    const list = doc.paths["/centers"].get.parameters as { name: string; in: string; description?: string }[];
    expect(list.map((p) => `${p.in} ${p.name}`)).toEqual(["query q", "query limit", "query offset"]);
    expect(list.every((p) => p.description)).toBe(true);
  });

  it("joins an operation's own reason for a status to what every operation of its kind answers", async () => {
    const doc = await (await t.request("/api/openapi.json")).json();
    const forbidden = doc.paths["/content/{id}"].put.responses["403"].description as string;
    expect(forbidden).toContain("Another creator's content");
    expect(forbidden).toContain("A cookie-signed-in write sent from another site");
    expect(doc.paths["/centers"].get.responses["403"].description).toBe("Not an admin account");
  });

  it("names the role an operation requires as its security scopes", async () => {
    const doc = await (await t.request("/api/openapi.json")).json();
    expect(doc.paths["/centers"].get.security).toEqual([{ bearerAuth: ["admin"] }, { sessionCookie: ["admin"] }]);
    expect(doc.paths["/auth/profile"].get.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    expect(doc.paths["/pricing"].get.security).toEqual([]);
  });
});

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
};

const RANDOM_ID = "3b0f4e0a-6a59-4d8e-9d38-0c7f8d2b1a11";
let ips = 0;
/** Each request from an address of its own: the suite is about answers, not about rate limits. */
const fromNewAddress = () => {
  ips += 1;
  return { "x-forwarded-for": `10.77.${(ips >> 8) & 255}.${ips & 255}` };
};

/** The same operation asked wrongly in each way it can be: the answers must all be documented. */
function variations(op: Operation, sample: Sample): [string, Variation][] {
  const list: [string, Variation][] = [["as the sample", {}]];
  list.push(["on the other host", { host: (sample.host ?? PLATFORM) === PLATFORM ? INSTITUTE : PLATFORM }]);
  if (sample.json !== undefined) {
    list.push(["with an empty body", { json: {} }], ["with malformed JSON", { json: "{not json" }]);
  }
  if (sample.multipart) list.push(["with an empty form", { multipart: { title: "" } }]);
  for (const name of Object.keys(sample.query ?? {}))
    list.push([`with a bad ${name}`, { query: { ...sample.query, [name]: "-1x" } }]);
  for (const name of Object.keys(sample.params ?? {})) {
    list.push(
      [`with a malformed ${name}`, { params: { [name]: "0" } }],
      [`with an unknown ${name}`, { params: { [name]: RANDOM_ID } }],
    );
  }
  list.push(["with NUL in the query", { rawQuery: "x=a%00b" }]);
  if (op.method !== "get") {
    list.push([
      "from another site",
      { headers: { origin: "https://elsewhere.example", "sec-fetch-site": "cross-site" } },
    ]);
    const huge = JSON.stringify({ x: "x".repeat(1_100_000) });
    // With its length, as every HTTP/1.1 client sends it (the in-process request adds none by itself).
    if (!sample.multipart)
      list.push([
        "with a body over the limit",
        { raw: { body: huge, type: "application/json" }, headers: { "content-length": String(huge.length) } },
      ]);
  }
  return list;
}

function mediaType(res: Response): string {
  return (res.headers.get("content-type") ?? "").split(";")[0].trim();
}

describe("the document is true", () => {
  it("has a sample request for every operation", () => {
    expect(world.operations.map(opKey).filter((key) => !world.samples[key])).toEqual([]);
  });

  it("documents every status each operation answers, for every role, with its content type and the error shape", async () => {
    const doc = (await (await t.request("/api/openapi.json")).json()) as Doc;
    const problems: string[] = [];
    const seen = new Map<string, Set<number>>();
    for (const op of world.operations) {
      const sample = world.samples[opKey(op)];
      const documented = doc.paths[op.path][op.method].responses;
      for (const who of ROLES) {
        for (const [how, variation] of variations(op, sample)) {
          const host = variation.host ?? sample.host ?? PLATFORM;
          const session =
            op.path === "/auth/logout"
              ? await world.freshIdentity(who, host)
              : sample.session && sample.who?.includes(who)
                ? sample.session
                : world.identities[host][who];
          const { path, init } = sampleRequest(op, sample, {
            ...variation,
            headers: { ...session, ...fromNewAddress(), ...variation.headers },
          });
          const res = await t.request(path, init);
          const label = `${who} ${opKey(op)} ${how} → ${res.status}`;
          (seen.get(opKey(op)) ?? seen.set(opKey(op), new Set()).get(opKey(op))!).add(res.status);
          const answer = documented[String(res.status)];
          if (!answer) {
            problems.push(`${label}: status not documented (${(await res.text()).slice(0, 120)})`);
            continue;
          }
          const types = Object.keys(answer.content ?? {});
          const body = await res.text();
          if (types.length === 0) {
            if (body !== "") problems.push(`${label}: documented without a body, answered ${mediaType(res)}`);
            continue;
          }
          if (!types.some((type) => type === "*/*" || type === mediaType(res))) {
            problems.push(`${label}: answered ${mediaType(res)}, documented ${types.join(", ")}`);
            continue;
          }
          if (res.status >= 400 && mediaType(res) === "application/json") {
            const json = JSON.parse(body);
            if (json.success !== false || typeof json.error !== "string" || !json.error || json.message !== json.error)
              problems.push(`${label}: not the error shape: ${body.slice(0, 120)}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    // The samples are real requests: each operation has said yes to one of them.
    const neverAccepted = [...seen]
      .filter(([, statuses]) => ![...statuses].some((s) => s < 300))
      .map(([key, statuses]) => `${key}: ${[...statuses].join(", ")}`);
    expect(neverAccepted).toEqual(EXPECTED_REFUSALS);
  }, 600_000);
});

/** Samples that cannot succeed here: they need a gateway order that the test app cannot place (no listening sandbox). */
const EXPECTED_REFUSALS: string[] = [];
