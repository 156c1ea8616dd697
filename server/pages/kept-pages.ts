import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import type { Context, Next } from "hono";
import { createMiddleware } from "hono/factory";
import { LRUCache } from "lru-cache";
import type { AppEnv } from "../middleware/types.ts";
import type { Env } from "../runtime/env.ts";
import type { PlanService } from "../services/plans.ts";
import { isSecureRequest } from "../auth/cookies.ts";
import { contentSecurityPolicy } from "../middleware/security-headers.ts";
import { encodingChooser } from "../http/accept-encoding.ts";
import { etagMatches } from "../middleware/caching.ts";
import { SHARED_FOR_A_SECOND } from "../middleware/caching.ts";
import { inlineScriptHashes } from "./script-hashes.ts";
import type { SettingsService } from "../services/settings.ts";
import { onlyChoiceCookies, visitorChoices } from "./visitor-choices.ts";

/**
 * The platform's public pages (app/lib/seo.ts PUBLIC_PAGES): each the same for every visitor who
 * is not signed in, but for the choices they made (theme, sidebar, cookie consent), where it is
 * served (canonical URLs name the origin) and the year in its footer. /pricing also shows the
 * plans on sale.
 */
export const KEPT_PATHS: ReadonlySet<string> = new Set([
  "/",
  "/about",
  "/contact",
  "/invest",
  "/legal",
  "/get-started",
  "/pricing",
]);

/** What the kept pages may hold in memory, their compressed copies included. */
const KEPT_BYTES = 32 * 1024 * 1024;

const ENCODINGS = ["br", "gzip"] as const;
type Encoding = (typeof ENCODINGS)[number];
const chooseEncoding = encodingChooser(ENCODINGS);
const COMPRESS: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/** A page as it is sent: its bytes, compressed once, and the hashes of its inline scripts. */
export interface KeptPage {
  contentType: string;
  bodies: Record<Encoding | "identity", Buffer>;
  /** The identity body's; each compressed copy's is this with its encoding added. */
  etag: string;
  /** Its Content-Security-Policy: its inline scripts' hashes, no nonce (a variant is for one scheme). */
  policy: string;
  size: number;
}

type Deps = {
  env: Pick<Env, "TRUST_PROXY">;
  services: { plans: Pick<PlanService, "plansVersion">; settings: Pick<SettingsService, "settingsVersion"> };
};

/**
 * The platform's public pages kept as bytes (decision 0018). A page is rendered by React Router
 * as for anyone, but without a nonce: its inline scripts are allowed by their hashes, which its
 * Content-Security-Policy names, so the same bytes can go to every visitor they fit. They fit a
 * GET or HEAD of one of KEPT_PATHS, without a query, on a platform host, by a visitor with no
 * cookie but their choices (so never signed in, never with a message waiting) and no
 * Authorization header. Each variant is rendered once, by the first such request (others asking
 * for it meanwhile wait for that render), compressed once, and answered with an ETag (304 to a
 * match). /pricing is kept under the plans' version, so a plan change shows on the next request,
 * on every instance once it has heard of it; while changes cannot be heard it is not kept.
 * Everything else (an institute's host, a signed-in visitor) goes on to be rendered as before.
 */
export function keptPages(deps: Deps) {
  const kept = new LRUCache<string, KeptPage>({ maxSize: KEPT_BYTES, sizeCalculation: (page) => page.size });
  const rendering = new Map<string, Promise<KeptPage | undefined>>();

  return createMiddleware<AppEnv>(async (c, next) => {
    const secure = isSecureRequest(c.req.url, c.req.header("x-forwarded-proto"), deps.env.TRUST_PROXY);
    const key = keyOf(c, deps, secure);
    if (key === undefined) return next();
    let page = kept.get(key);
    // Looked up and claimed without a pause in between, so one request renders each variant.
    const pending = page ? undefined : rendering.get(key);
    if (pending) page = await pending;
    if (page) return answer(c, page);
    if (c.req.method !== "GET") return next();
    // This request renders the variant for everyone who asks for it meanwhile.
    const render = renderToKeep(c, next, secure);
    const forOthers = render.then(
      (page) => page,
      () => undefined,
    );
    rendering.set(key, forOthers);
    try {
      const made = await render;
      if (!made) return;
      kept.set(key, made);
      // The rendered answer was read whole: this one takes its place.
      c.res = answer(c, made);
    } finally {
      rendering.delete(key);
    }
  });
}

/** Which kept variant this request is answered with, or undefined when it is rendered for itself. */
function keyOf(c: Context<AppEnv>, deps: Deps, secure: boolean): string | undefined {
  const method = c.req.method;
  if (method !== "GET" && method !== "HEAD") return undefined;
  const site = c.get("site");
  if (site.kind !== "platform" || !KEPT_PATHS.has(c.req.path)) return undefined;
  const raw = c.req.raw;
  const url = new URL(raw.url);
  if (url.search !== "") return undefined;
  const cookies = raw.headers.get("cookie");
  if (!onlyChoiceCookies(cookies) || raw.headers.has("authorization")) return undefined;
  // Every page's footer (and /contact, /, /legal) shows the platform's contacts from its settings.
  const settings = deps.services.settings.settingsVersion();
  if (settings === undefined) return undefined;
  let data = "";
  if (c.req.path === "/pricing") {
    const version = deps.services.plans.plansVersion();
    if (version === undefined) return undefined;
    data = String(version);
  }
  const choices = visitorChoices(cookies);
  // Everything the page is rendered from: the origin it names (app/lib/marketing.server.ts
  // requestOrigin: scheme, the resolved host and the address's host), the visitor's choices,
  // the year in the footer, the platform's contacts and the plans.
  return [
    secure ? "https" : "http",
    site.host,
    url.host,
    c.req.path,
    choices.theme,
    choices.sidebarCollapsed,
    choices.cookiesAccepted,
    new Date().getFullYear(),
    settings,
    data,
  ].join("|");
}

/**
 * Renders this request's page without a nonce and reads it whole. Answers this request itself
 * (with its scripts' hashes as policy) when the answer may not be kept: not a 200 HTML page, or
 * one that sets a cookie or says not to store it.
 */
async function renderToKeep(c: Context<AppEnv>, next: Next, secure: boolean): Promise<KeptPage | undefined> {
  c.set("keptPage", true);
  await next();
  const response = c.res;
  const contentType = response.headers.get("content-type") ?? "";
  if (!contentType.startsWith("text/html")) return undefined;
  const body = Buffer.from(await response.arrayBuffer());
  const scriptHashes = inlineScriptHashes(body.toString("utf8"));
  // Without this, setting c.res would copy the read answer's headers into the next one.
  c.res = undefined;
  const cacheControl = response.headers.get("cache-control") ?? "";
  if (response.status !== 200 || response.headers.has("set-cookie") || /no-store|private/i.test(cacheControl)) {
    const headers = new Headers(response.headers);
    headers.set("Content-Security-Policy", policyOf(secure, scriptHashes));
    c.res = new Response(body, { status: response.status, statusText: response.statusText, headers });
    return undefined;
  }
  const [br, gz] = await Promise.all([COMPRESS.br(body), COMPRESS.gzip(body)]);
  const etag = createHash("sha256").update(body).digest("base64url").slice(0, 22);
  const policy = policyOf(secure, scriptHashes);
  return {
    contentType,
    bodies: { identity: body, br, gzip: gz },
    etag,
    policy,
    size: body.length + br.length + gz.length + policy.length + 1024,
  };
}

/** Kept pages never open Razorpay Checkout. */
function policyOf(secure: boolean, scriptHashes: readonly string[]): string {
  return contentSecurityPolicy(undefined, { secure, razorpay: false, scriptHashes });
}

function answer(c: Context<AppEnv>, page: KeptPage): Response {
  const encoding = chooseEncoding(c.req.header("accept-encoding"));
  const etag = encoding ? `"${page.etag}-${encoding}"` : `"${page.etag}"`;
  const headers: Record<string, string> = {
    ETag: etag,
    // Each visitor's browser checks with the server before showing it again (a 304 when
    // unchanged); a shared cache keeps it a second (decision 0017), one copy per Cookie header,
    // since the visitor's choices are cookies (the deploy's nginx keeps only cookie-less ones).
    "Cache-Control": SHARED_FOR_A_SECOND,
    Vary: "Accept-Encoding, Cookie",
    "Content-Security-Policy": page.policy,
  };
  const ifNoneMatch = c.req.header("if-none-match");
  if (
    ifNoneMatch &&
    [page.etag, `${page.etag}-br`, `${page.etag}-gzip`].some((tag) => etagMatches(ifNoneMatch, `"${tag}"`))
  ) {
    return c.body(null, 304, headers);
  }
  headers["Content-Type"] = page.contentType;
  if (encoding) headers["Content-Encoding"] = encoding;
  return c.body(page.bodies[encoding ?? "identity"] as Uint8Array<ArrayBuffer>, 200, headers);
}
