import { existsSync, readdirSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./types.ts";

/** Fingerprinted by the build (a new name for new bytes): kept a year, never revalidated. */
const FINGERPRINTED = "public, max-age=31536000, immutable";
/** The marketing artwork (public/images): browsers a week; a proxy a minute, then a 304. */
const ARTWORK = "public, max-age=604800, s-maxage=60, stale-while-revalidate=86400";
/** Other files of the build under fixed names (favicon.svg): browsers an hour; a proxy a minute. */
const NAMED = "public, max-age=3600, s-maxage=60, stale-while-revalidate=86400";
/** Whether an If-None-Match header names this ETag (weak or strong: the page is the same either way). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch !== undefined && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * Pages the same for every visitor they are sent to, whose changes (template, profile, catalog,
 * plans) must show: a browser asks again every time (a 304 when unchanged); a shared cache keeps
 * them one second, may send its copy for one second more while it asks with If-None-Match, and
 * after that asks before sending anything (decision 0017).
 */
export const SHARED_FOR_A_SECOND = "public, max-age=0, s-maxage=1, stale-while-revalidate=1";
/** What a visitor's own answer says when its handler said nothing: no shared cache keeps it. */
const PERSONAL = "private, no-cache";

/** The compressed copies the static handler sends, as @hono/node-server's serveStatic names them. */
const COPIES = { br: ".br", gzip: ".gz" } as const;

interface BuildFile {
  /** The identity file's; a compressed copy's is this with its encoding added. */
  etag: string;
  encodings: (keyof typeof COPIES)[];
}

/**
 * Cache-Control and validators for the build's files (`root`, build/client), which React Router's
 * static handler sends after this, with no ETag and no 304 of its own. The files do not change
 * under a running server (a deploy starts new ones), so they are listed once, here: a request is
 * looked up in memory and never costs a look at the disk, whatever path it names. The ETag is made
 * from the file's size and time, as nginx makes its own. A request naming one of the file's tags
 * gets a 304 without the file being opened; otherwise the handler's answer gets the tag of the
 * copy it chose. Paths that are not files pass on untouched.
 */
export function buildFileCaching(root: string) {
  const files = listBuildFiles(root);
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const path = c.req.path;
    const file = files.get(path);
    if (!file) return next();
    const cacheControl = path.startsWith("/assets/") ? FINGERPRINTED : path.startsWith("/images/") ? ARTWORK : NAMED;
    const ifNoneMatch = c.req.header("if-none-match");
    if (ifNoneMatch) {
      const matched = [file.etag, ...file.encodings.map((e) => variantTag(file.etag, e))].find((tag) =>
        etagMatches(ifNoneMatch, tag),
      );
      if (matched) return c.body(null, 304, { ETag: matched, "Cache-Control": cacheControl, Vary: "Accept-Encoding" });
    }
    await next();
    if (c.res.status !== 200) return;
    const encoding = c.res.headers.get("content-encoding") as keyof typeof COPIES | null;
    c.res.headers.set("ETag", encoding ? variantTag(file.etag, encoding) : file.etag);
    c.res.headers.set("Cache-Control", cacheControl);
    if (file.encodings.length > 0 && !c.res.headers.has("vary")) c.res.headers.set("Vary", "Accept-Encoding");
  });
}

/** Every file under `root` by its URL path, with the compressed copies it has beside it. */
function listBuildFiles(root: string): Map<string, BuildFile> {
  const files = new Map<string, BuildFile>();
  if (!existsSync(root)) return files;
  const names = new Set(readdirSync(root, { recursive: true, encoding: "utf8" }));
  const copySuffixes = Object.values(COPIES) as string[];
  for (const name of names) {
    const copyOf = copySuffixes.find((suffix) => name.endsWith(suffix) && names.has(name.slice(0, -suffix.length)));
    if (copyOf) continue;
    const stats = statSync(join(root, name));
    if (!stats.isFile()) continue;
    files.set(`/${name.split(sep).join("/")}`, {
      etag: `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`,
      encodings: (Object.keys(COPIES) as (keyof typeof COPIES)[]).filter((e) => names.has(name + COPIES[e])),
    });
  }
  return files;
}

function variantTag(etag: string, encoding: string): string {
  return `${etag.slice(0, -1)}-${encoding}"`;
}

/**
 * An answer whose handler set no Cache-Control, to a request that carried a cookie or an
 * Authorization header, or that sets a cookie, is marked `private, no-cache`: a CDN or proxy in
 * front must never keep what one visitor was shown (the deploy's nginx also refuses to, on its
 * own: deploy/nginx/pathshala.conf.template).
 */
export function personalAnswers() {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const headers = c.res.headers;
    if (headers.has("cache-control")) return;
    const personal =
      c.req.header("cookie") !== undefined || c.req.header("authorization") !== undefined || headers.has("set-cookie");
    if (!personal) return;
    try {
      headers.set("Cache-Control", PERSONAL);
    } catch {
      // Response.redirect() and fetched answers have headers that cannot be changed: copied.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set("Cache-Control", PERSONAL);
    }
  });
}
