import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { AppDeps } from "./app.ts";
import type { HomePage, Encoding } from "./services/sites.ts";
import { isCenterLive } from "./services/tenants.ts";
import { baseSecurityHeaders, staticContentSecurityPolicy } from "./middleware/security-headers.ts";
import { recordRequest, requestIdFrom } from "./middleware/request-log.ts";

/** Picks the best encoding the client accepts among the ones we pre-compressed. */
export function encodingFor(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  if (/\bbr\b/.test(acceptEncoding)) return "br";
  if (/\bgzip\b/.test(acceptEncoding)) return "gzip";
  return null;
}

export interface HomeAnswer {
  status: 200 | 304;
  /** Every header of the answer, security headers and request id included. */
  headers: [string, string][];
  body: Buffer | null;
}

/**
 * The complete answer to a GET or HEAD of an institute's home page: 304 for a matching ETag,
 * else the page in the negotiated encoding, with every header the middleware would have added
 * (this answer bypasses it: see sendDirect and cachedHomePages).
 */
export function homeAnswer(
  page: HomePage,
  encoding: Encoding | null,
  request: { method: string; ifNoneMatch: string | undefined; secure: boolean; requestId: string },
): HomeAnswer {
  const headers: [string, string][] = [
    ["ETag", page.etag],
    ["Cache-Control", "public, max-age=0, must-revalidate"],
    ["Vary", "Accept-Encoding"],
    ["Content-Type", "text/html; charset=utf-8"],
  ];
  const tail: [string, string][] = [
    ...baseSecurityHeaders(request.secure),
    ["Content-Security-Policy", staticContentSecurityPolicy(request.secure)],
    ["X-Request-Id", request.requestId],
  ];
  const { ifNoneMatch } = request;
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === page.etag)) {
    return { status: 304, headers: [...headers, ...tail], body: null };
  }
  if (encoding) headers.push(["Content-Encoding", encoding]);
  headers.push(["Content-Length", String(page.body.length)]);
  return { status: 200, headers: [...headers, ...tail], body: request.method === "HEAD" ? null : page.body };
}

/** The forwarded value a trusted proxy set, else the connection's own. */
const forwarded = (req: IncomingMessage, name: string, trustProxy: boolean) => {
  const value = trustProxy ? req.headers[name] : undefined;
  return typeof value === "string" && value ? value.split(",")[0].trim() : undefined;
};

/**
 * Wraps the server's request listener: an institute's home page that the caches already hold
 * (host → institute, institute → rendered page in this encoding) is written at once, before the
 * framework builds a request for it. Everything else — a first visit, an expired institute,
 * another path, a draining server — goes on to `next` (the Hono app), which answers the same
 * page through the same homeAnswer when it has to render it first. This is the product's hottest
 * path: every visitor of every institute's site lands here.
 */
export function cachedHomePages(next: RequestListener, deps: Pick<AppDeps, "env" | "logger" | "services" | "draining">): RequestListener {
  const { tenants, sites } = deps.services;
  const trustProxy = deps.env.TRUST_PROXY;
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.url !== "/" || (req.method !== "GET" && req.method !== "HEAD") || deps.draining) return next(req, res);
    const started = performance.now();
    const rawHost = forwarded(req, "x-forwarded-host", trustProxy) ?? req.headers.host;
    const site = rawHost ? tenants.peek(rawHost) : undefined;
    if (site?.kind !== "tenant" || !isCenterLive(site.center)) return next(req, res);
    const encoding = encodingFor(req.headers["accept-encoding"]);
    const page = sites.cachedHomePage(site.center, site.host, encoding);
    if (!page) return next(req, res);
    const proto = forwarded(req, "x-forwarded-proto", trustProxy);
    const secure = proto ? proto === "https" : Boolean((req.socket as TLSSocket).encrypted);
    const requestId = requestIdFrom(req.headers["x-request-id"] as string | undefined);
    const answer = homeAnswer(page, encoding, { method: req.method, ifNoneMatch: req.headers["if-none-match"], secure, requestId });
    res.writeHead(answer.status, answer.headers.flat());
    res.end(answer.body ?? undefined);
    recordRequest(deps.logger, { requestId, method: req.method, path: "/", route: "tenant:/", status: answer.status, started, host: site.host, tenant: site.center.slug });
  };
}
