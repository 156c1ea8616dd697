import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { Hono } from "hono";
import { serveStatic } from "@hono/node-server/serve-static";
import { afterAll, describe, expect, it } from "vitest";
import { buildFileCaching, personalAnswers } from "./caching.ts";

const root = mkdtempSync(join(tmpdir(), "pathshala-caching-"));
mkdirSync(join(root, "assets"));
mkdirSync(join(root, "images"));
const script = "console.log('entry');".repeat(100);
writeFileSync(join(root, "assets", "entry-abc123.js"), script);
writeFileSync(join(root, "assets", "entry-abc123.js.gz"), gzipSync(script));
writeFileSync(join(root, "images", "og.png"), Buffer.alloc(2048, 7));
writeFileSync(join(root, "favicon.svg"), "<svg/>");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** As production mounts them: the caching first, React Router's static handler (serveStatic) after. */
function app() {
  const opened: string[] = [];
  const a = new Hono();
  a.use(personalAnswers());
  a.use(buildFileCaching(root));
  a.use(serveStatic({ root, precompressed: true, onFound: (path) => void opened.push(path) }));
  a.get("/page", (c) => c.text("for whoever asks"));
  a.get("/own", (c) => c.text("yours", 200, { "Set-Cookie": "a=b" }));
  a.get("/said", (c) => c.text("said", 200, { "Cache-Control": "no-store" }));
  return { a, opened };
}

describe("buildFileCaching", () => {
  it("lists the build's files once, at start: a path is looked up in memory, never on the disk", async () => {
    const { a } = app();
    writeFileSync(join(root, "late.txt"), "written after start");
    const late = await a.request("/late.txt");
    expect(await late.text()).toBe("written after start");
    expect(late.headers.get("etag")).toBeNull();
    expect((await a.request("/favicon.svg")).headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    rmSync(join(root, "late.txt"));
  });

  it("marks fingerprinted files immutable for a year, other files for a proxy to keep a minute", async () => {
    const { a } = app();
    const asset = await a.request("/assets/entry-abc123.js");
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await asset.text()).toBe(script);
    const image = await a.request("/images/og.png");
    expect(image.headers.get("cache-control")).toBe(
      "public, max-age=604800, s-maxage=60, stale-while-revalidate=86400",
    );
    const icon = await a.request("/favicon.svg");
    expect(icon.headers.get("cache-control")).toBe("public, max-age=3600, s-maxage=60, stale-while-revalidate=86400");
    for (const res of [asset, image, icon]) expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
  });

  it("tags the compressed copy apart from the plain file, and answers either tag with a 304 without opening the file", async () => {
    const { a, opened } = app();
    const plain = await a.request("/assets/entry-abc123.js");
    const gzip = await a.request("/assets/entry-abc123.js", { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gzip.headers.get("vary")).toBe("Accept-Encoding");
    const [plainTag, gzipTag] = [plain.headers.get("etag")!, gzip.headers.get("etag")!];
    expect(gzipTag).toBe(plainTag.replace(/"$/, '-gzip"'));
    expect(opened).toHaveLength(2);
    for (const tag of [plainTag, gzipTag, `W/${gzipTag}`, `"x", ${plainTag}`]) {
      const again = await a.request("/assets/entry-abc123.js", { headers: { "if-none-match": tag } });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(tag.replace(/^"x", /, "").replace(/^W\//, ""));
      expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    expect(opened).toHaveLength(2);
    const other = await a.request("/assets/entry-abc123.js", { headers: { "if-none-match": '"x"' } });
    expect(other.status).toBe(200);
  });

  it("leaves paths that are not files of the build alone", async () => {
    const { a } = app();
    for (const path of ["/page", "/assets/missing.js", "/assets", "/../etc/passwd"]) {
      const res = await a.request(path, { headers: { "if-none-match": "*" } });
      expect(res.headers.get("etag"), path).toBeNull();
      expect(res.status, path).not.toBe(304);
    }
  });
});

describe("personalAnswers", () => {
  it("marks an answer private when the request carried a cookie or authorization, or the answer sets a cookie", async () => {
    const { a } = app();
    expect((await a.request("/page")).headers.get("cache-control")).toBeNull();
    for (const headers of [{ cookie: "pathshala_session=x" }, { authorization: "Bearer x" }] as Record<
      string,
      string
    >[]) {
      expect((await a.request("/page", { headers })).headers.get("cache-control")).toBe("private, no-cache");
    }
    expect((await a.request("/own")).headers.get("cache-control")).toBe("private, no-cache");
  });

  it("keeps what the handler said", async () => {
    const { a } = app();
    expect((await a.request("/said", { headers: { cookie: "a=b" } })).headers.get("cache-control")).toBe("no-store");
    // The build's public files are the same for everyone, cookie or not.
    const asset = await a.request("/assets/entry-abc123.js", { headers: { cookie: "a=b" } });
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });
});
