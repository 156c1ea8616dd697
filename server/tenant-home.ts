import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { AppDeps } from "./app.ts";
import type { HomePage, Encoding } from "./services/sites.ts";
import { isCenterLive } from "./services/tenants.ts";
import { baseSecurityHeaders, isSecure, staticContentSecurityPolicy } from "./middleware/security-headers.ts";
import { requestHost } from "./middleware/tenant.ts";
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
  /** Every header of the answer, security headers and request id included, as Node's flat list (name, value, name, value…). */
  headers: string[];
  body: Buffer | null;
}

/**
 * The headers of a page's answers other than the request id, built once per page, encoding,
 * scheme and status: they are the same for every visitor until the page changes.
 */
const HEADER_PREFIXES = new WeakMap<HomePage, string[][]>();

function headersFor(page: HomePage, encoding: Encoding | null, secure: boolean, notModified: boolean): string[] {
  let prefixes = HEADER_PREFIXES.get(page);
  if (!prefixes) HEADER_PREFIXES.set(page, (prefixes = []));
  const slot = (secure ? 2 : 0) + (notModified ? 1 : 0);
  let headers = prefixes[slot];
  if (!headers) {
    headers = ["ETag", page.etag, "Cache-Control", "public, max-age=0, must-revalidate", "Vary", "Accept-Encoding", "Content-Type", "text/html; charset=utf-8"];
    if (!notModified) {
      if (encoding) headers.push("Content-Encoding", encoding);
      headers.push("Content-Length", String(page.body.length));
    }
    for (const [name, value] of baseSecurityHeaders(secure)) headers.push(name, value);
    headers.push("Content-Security-Policy", staticContentSecurityPolicy(secure));
    prefixes[slot] = headers;
  }
  return headers;
}

/**
 * The complete answer to a GET or HEAD of an institute's home page: 304 for a matching ETag,
 * else the page in the negotiated encoding, with every header the middleware would have added
 * (this answer bypasses it: see sendDirect and cachedHomePages). A HEAD's body is left out by
 * whoever writes the answer (Node for its own responses, sendDirect otherwise).
 */
export function homeAnswer(page: HomePage, encoding: Encoding | null, request: { ifNoneMatch: string | undefined; secure: boolean; requestId: string }): HomeAnswer {
  const { ifNoneMatch, secure } = request;
  const notModified = ifNoneMatch !== undefined && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === page.etag);
  const headers = headersFor(page, encoding, secure, notModified).slice();
  headers.push("X-Request-Id", request.requestId);
  return notModified ? { status: 304, headers, body: null } : { status: 200, headers, body: page.body };
}

/**
 * Node's request as the header readers shared with the Hono middleware (requestHost, isSecure)
 * see it; the URL they fall back on is only built if one of them asks for it.
 */
class NodeRequestView {
  private readonly incoming: IncomingMessage;

  constructor(incoming: IncomingMessage) {
    this.incoming = incoming;
  }

  get url(): string {
    const scheme = (this.incoming.socket as TLSSocket).encrypted ? "https" : "http";
    return `${scheme}://${this.incoming.headers.host ?? "localhost"}${this.incoming.url ?? "/"}`;
  }

  header(name: string): string | undefined {
    const value = this.incoming.headers[name];
    return typeof value === "string" ? value : undefined;
  }
}

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
    const c = { req: new NodeRequestView(req) };
    const site = tenants.peek(requestHost(c, trustProxy));
    if (site?.kind !== "tenant" || !isCenterLive(site.center)) return next(req, res);
    const encoding = encodingFor(req.headers["accept-encoding"]);
    const page = sites.cachedHomePage(site.center, site.host, encoding);
    if (!page) return next(req, res);
    const requestId = requestIdFrom(c.req.header("x-request-id"));
    const answer = homeAnswer(page, encoding, { ifNoneMatch: c.req.header("if-none-match"), secure: isSecure(c, trustProxy), requestId });
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body ?? undefined);
    recordRequest(deps.logger, { requestId, method: req.method, path: "/", route: "tenant:/", status: answer.status, started, host: site.host, tenant: site.center.slug });
  };
}
