import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
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
  });
});
