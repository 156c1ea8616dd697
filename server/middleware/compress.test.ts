import { gunzipSync, inflateSync } from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { acceptedCompression, compressAnswers } from "./compress.ts";

const LARGE = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Course ${i}` })) };

/** An app whose outermost middleware records whether the handler's answer reached it unchanged. */
function app() {
  const seen: { same?: boolean } = {};
  const a = new Hono();
  let answered: Response | undefined;
  a.use(async (c, next) => {
    await next();
    seen.same = c.res === answered;
  });
  a.use(compressAnswers());
  a.get("/small", (c) => (answered = c.json({ ok: true })));
  a.get("/large", (c) => (answered = c.json(LARGE)));
  a.get("/no-transform", (c) => (answered = c.json(LARGE, 200, { "Cache-Control": "no-transform" })));
  a.get(
    "/tiny",
    (c) => (answered = c.body("x".repeat(100), 200, { "Content-Type": "text/plain", "Content-Length": "100" })),
  );
  a.get("/image", (c) => (answered = c.body(new Uint8Array(4096), 200, { "Content-Type": "image/png" })));
  return { a, seen };
}

describe("acceptedCompression", () => {
  it("follows the client's q-values, gzip first when equal", () => {
    expect(acceptedCompression(undefined)).toBeUndefined();
    expect(acceptedCompression("br")).toBeUndefined();
    expect(acceptedCompression("gzip, deflate, br")).toBe("gzip");
    expect(acceptedCompression("deflate, gzip;q=0.5")).toBe("deflate");
    expect(acceptedCompression("gzip;q=0, deflate;q=0.1")).toBe("deflate");
    expect(acceptedCompression("*")).toBe("gzip");
    expect(acceptedCompression("*;q=0.2, gzip;q=0")).toBe("deflate");
    expect(acceptedCompression("identity")).toBeUndefined();
  });
});

describe("compressAnswers", () => {
  it("leaves an answer the client takes uncompressed as the handler made it, marked Vary: Accept-Encoding", async () => {
    const { a, seen } = app();
    for (const path of ["/small", "/large"]) {
      const res = await a.request(path);
      expect(seen.same, path).toBe(true);
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(await res.json()).toEqual(path === "/small" ? { ok: true } : LARGE);
    }
  });

  it("compresses for a client that accepts gzip or deflate, and the bytes decompress to the answer", async () => {
    const { a } = app();
    const gz = await a.request("/large", { headers: { "Accept-Encoding": "gzip, br" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toBe("Accept-Encoding");
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())).toEqual(LARGE);
    const deflated = await a.request("/large", { headers: { "Accept-Encoding": "deflate" } });
    expect(deflated.headers.get("content-encoding")).toBe("deflate");
    expect(JSON.parse(inflateSync(Buffer.from(await deflated.arrayBuffer())).toString())).toEqual(LARGE);
  });

  it("never compresses a no-transform answer, a type that does not shrink, one known to be under 1 KB, or a HEAD", async () => {
    const { a, seen } = app();
    const headers = { "Accept-Encoding": "gzip" };
    for (const path of ["/no-transform", "/image", "/tiny"]) {
      const res = await a.request(path, { headers });
      expect(res.headers.get("content-encoding"), path).toBeNull();
      expect(res.headers.get("vary"), path).toBeNull();
      expect(seen.same, path).toBe(true);
    }
    const head = await a.request("/large", { method: "HEAD", headers });
    expect(head.headers.get("content-encoding")).toBeNull();
  });
});
