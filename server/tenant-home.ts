import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { AppDeps } from "./app.ts";
import { HOME_PAGE_ENCODINGS, type HomePage, type Encoding } from "./services/sites.ts";
import { isCenterLive, type Site, type TenantCenter } from "./services/tenants.ts";
import { baseSecurityHeaders, isSecure, staticContentSecurityPolicy } from "./middleware/security-headers.ts";
import { requestHost } from "./middleware/tenant.ts";
import { recordRequest, requestIdFrom } from "./middleware/request-log.ts";
import { encodingChooser } from "./accept-encoding.ts";

const chooseHomePageEncoding = encodingChooser(HOME_PAGE_ENCODINGS);

/** The encoding the client prefers among the ones a home page is kept in, or null for none. */
export function encodingFor(acceptEncoding: string | undefined): Encoding | null {
  return chooseHomePageEncoding(acceptEncoding) ?? null;
}

/**
 * The headers of a page's answers other than the request id, as Node's flat list (name, value,
 * name, value…), built once per page, encoding, scheme and status: the same for every visitor
 * until the page changes. `wire` is the same header lines as HTTP/1.1 bytes with the blank line
 * after them, made by the first answer written straight to a connection
 * (server/tenant-home-connections.ts, which writes the status line and per-request headers first).
 */
export interface PageHeaders {
  readonly list: readonly string[];
  wire?: Buffer;
}

const PAGE_HEADERS = new WeakMap<HomePage, PageHeaders[]>();

function headersFor(page: HomePage, encoding: Encoding | null, secure: boolean, notModified: boolean): PageHeaders {
  let kinds = PAGE_HEADERS.get(page);
  if (!kinds) PAGE_HEADERS.set(page, (kinds = []));
  const kind = (secure ? 2 : 0) + (notModified ? 1 : 0);
  let headers = kinds[kind];
  if (!headers) {
    const list = ["ETag", page.etag, "Cache-Control", "public, max-age=0, must-revalidate", "Vary", "Accept-Encoding", "Content-Type", "text/html; charset=utf-8"];
    if (!notModified) {
      if (encoding) list.push("Content-Encoding", encoding);
      list.push("Content-Length", String(page.body.length));
    }
    for (const [name, value] of baseSecurityHeaders(secure)) list.push(name, value);
    list.push("Content-Security-Policy", staticContentSecurityPolicy(secure));
    kinds[kind] = headers = { list };
  }
  return headers;
}

/** The complete answer to a GET or HEAD of an institute's home page (see homeAnswer). */
export class HomeAnswer {
  readonly status: 200 | 304;
  /** The headers every answer of this page, encoding, scheme and status shares. Never changed. */
  readonly pageHeaders: PageHeaders;
  readonly requestId: string;
  readonly body: Buffer | null;
  /** The visit answered, when the answer is written outside Hono and records itself (recordHomeAnswer). */
  readonly visit: HomeVisit | undefined;

  constructor(status: 200 | 304, pageHeaders: PageHeaders, requestId: string, body: Buffer | null, visit?: HomeVisit) {
    this.status = status;
    this.pageHeaders = pageHeaders;
    this.requestId = requestId;
    this.body = body;
    this.visit = visit;
  }

  /** Every header of the answer, security headers and request id included, as Node's flat list. */
  get headers(): string[] {
    const headers = this.pageHeaders.list.slice();
    headers.push("X-Request-Id", this.requestId);
    return headers;
  }
}

/**
 * The complete answer to a GET or HEAD of an institute's home page: 304 for a matching ETag,
 * else the page in the negotiated encoding, with every header the middleware would have added
 * (this answer bypasses it: see sendDirect and cachedHomePages). A HEAD's body is left out by
 * whoever writes the answer (Node for its own responses, sendDirect otherwise).
 */
export function homeAnswer(page: HomePage, encoding: Encoding | null, request: { ifNoneMatch: string | undefined; secure: boolean; requestId: string }, visit?: HomeVisit): HomeAnswer {
  const { ifNoneMatch, secure, requestId } = request;
  const notModified = ifNoneMatch !== undefined && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === page.etag);
  const pageHeaders = headersFor(page, encoding, secure, notModified);
  return notModified ? new HomeAnswer(304, pageHeaders, requestId, null, visit) : new HomeAnswer(200, pageHeaders, requestId, page.body, visit);
}

/** What a cached home page needs to know of a request: its method and a header reader (lower-case names). */
export interface HomeRequest {
  method: string | undefined;
  header(name: string): string | undefined;
  /** The URL the shared header readers fall back on when Host is missing. */
  readonly url: string;
}

/** What a cached answer's access log line and metrics need of the visit it answered. */
export interface HomeVisit {
  method: string;
  /** performance.now() when the request arrived. */
  started: number;
  host: string;
  center: TenantCenter;
}

/** Which cached answer a home page request asks for: its institute's host, the encoding it takes, its scheme. */
export interface HomeRoute {
  host: string;
  encoding: Encoding | null;
  secure: boolean;
}

/** The host, encoding and scheme of a request, read the way the middleware reads them; undefined when it names no host. */
export function homeRoute(deps: Pick<AppDeps, "env">, request: HomeRequest): HomeRoute | undefined {
  const trustProxy = deps.env.TRUST_PROXY;
  const c = { req: request };
  const host = requestHost(c, trustProxy);
  return host === undefined ? undefined : { host, encoding: encodingFor(request.header("accept-encoding")), secure: isSecure(c, trustProxy) };
}

/** A cached home page's answer, with its visit for the access log and metrics. */
export type CachedHomeAnswer = HomeAnswer & { readonly visit: HomeVisit };

/** A GET or HEAD that a server not shutting down may answer from its caches. */
function mayAnswer(deps: Pick<AppDeps, "draining">, request: HomeRequest): request is HomeRequest & { readonly method: "GET" | "HEAD" } {
  return (request.method === "GET" || request.method === "HEAD") && !deps.draining;
}

type TenantSite = Extract<Site, { kind: "tenant" }>;

/** The site when it is a live institute's; undefined for the platform, an unknown host or a plan that has run out. */
function liveTenant(site: Site): TenantSite | undefined {
  return site.kind === "tenant" && isCenterLive(site.center) ? site : undefined;
}

/**
 * The answer to a GET or HEAD of `/` when the caches already hold it (host → live institute,
 * institute → rendered page in the negotiated encoding), else undefined: a first visit, an expired
 * institute, an unknown host or a draining server are the app's to answer. Used by the request
 * listener (cachedHomePages), which may be handed any request, so the route is read only for a
 * GET or HEAD.
 */
export function cachedHomeAnswer(
  deps: Pick<AppDeps, "env" | "services" | "draining">,
  request: HomeRequest,
): CachedHomeAnswer | undefined {
  const started = performance.now();
  if (!mayAnswer(deps, request)) return undefined;
  const route = homeRoute(deps, request);
  if (!route) return undefined;
  const known = deps.services.tenants.peek(route.host);
  const site = known && liveTenant(known);
  return site && answerFromCache(deps, site, request, route, started);
}

/**
 * The connection reader's answer to a GET or HEAD of `/`: the cached answer now when the caches
 * hold it; a promise of the answer when the page must be rendered first (a host the cache does not
 * know yet, or a live institute whose page it does not hold); undefined for whatever the app
 * answers (the platform, an unknown host, a plan that has run out, a draining server, a server
 * that cannot hear the database's announcements, so keeps nothing).
 */
export function homeAnswerOnConnection(
  deps: Pick<AppDeps, "env" | "services" | "draining">,
  request: HomeRequest,
  route: HomeRoute,
  started: number,
): CachedHomeAnswer | Promise<CachedHomeAnswer | undefined> | undefined {
  if (!mayAnswer(deps, request)) return undefined;
  const known = deps.services.tenants.peek(route.host);
  if (!known) return deps.services.tenants.caching() ? renderedHomeAnswer(deps, undefined, request, route, started) : undefined;
  const site = liveTenant(known);
  if (!site) return undefined;
  return answerFromCache(deps, site, request, route, started) ?? renderedHomeAnswer(deps, site, request, route, started);
}

/**
 * The answer made now: the host looked up (unless the cache knew it) and the page rendered into
 * the caches, so the next visit finds both. Undefined when the host is not a live institute's,
 * and when the lookup or the render fails: the app then answers, and reports, that too.
 */
async function renderedHomeAnswer(
  deps: Pick<AppDeps, "services">,
  known: TenantSite | undefined,
  request: HomeRequest & { readonly method: string },
  route: HomeRoute,
  started: number,
): Promise<CachedHomeAnswer | undefined> {
  try {
    const site = known ?? liveTenant(await deps.services.tenants.resolve(route.host));
    if (!site) return undefined;
    const page = await deps.services.sites.homePage(site.center, site.host, route.encoding);
    return visitAnswer(page, site, request, route, started);
  } catch {
    return undefined;
  }
}

function answerFromCache(deps: Pick<AppDeps, "services">, site: TenantSite, request: HomeRequest & { readonly method: string }, route: HomeRoute, started: number): CachedHomeAnswer | undefined {
  const page = deps.services.sites.cachedHomePage(site.center, site.host, route.encoding);
  return page && visitAnswer(page, site, request, route, started);
}

/** A page's answer to one visit, with the visit for the access log and metrics. */
function visitAnswer(page: HomePage, site: TenantSite, request: HomeRequest & { readonly method: string }, route: HomeRoute, started: number): CachedHomeAnswer {
  const requestId = requestIdFrom(request.header("x-request-id"));
  const visit = { method: request.method, started, host: site.host, center: site.center };
  return homeAnswer(page, route.encoding, { ifNoneMatch: request.header("if-none-match"), secure: route.secure, requestId }, visit) as CachedHomeAnswer;
}

/** Records a cached home page's answer once it is written: metrics and the access log line. */
export function recordHomeAnswer(logger: AppDeps["logger"], answer: CachedHomeAnswer): void {
  const { method, started, host, center } = answer.visit;
  recordHomeVisit(logger, { requestId: answer.requestId, status: answer.status, method, started, host, tenant: center.slug });
}

/** Metrics and the access log line of a home page answered outside Hono. */
export function recordHomeVisit(logger: AppDeps["logger"], visit: { requestId: string; status: number; method: string; started: number; host: string; tenant: string }): void {
  // Field by field: a spread here took up to a microsecond an answer, more than the rest of this record.
  recordRequest(logger, { requestId: visit.requestId, method: visit.method, path: "/", route: "tenant:/", status: visit.status, started: visit.started, host: visit.host, tenant: visit.tenant });
}

/**
 * Node's request as the header readers shared with the Hono middleware (requestHost, isSecure)
 * see it; the URL they fall back on is only built if one of them asks for it.
 */
class NodeRequestView implements HomeRequest {
  private readonly incoming: IncomingMessage;

  constructor(incoming: IncomingMessage) {
    this.incoming = incoming;
  }

  get method(): string | undefined {
    return this.incoming.method;
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
 * Wraps the server's request listener: an institute's home page that the caches already hold is
 * written at once, before the framework builds a request for it. Everything else goes on to
 * `next` (the Hono app), which answers the same page through the same homeAnswer when it has to
 * render it first. Requests on connections that server/tenant-home-connections.ts handed to
 * node:http come this way; the others never reach node:http at all.
 */
export function cachedHomePages(next: RequestListener, deps: Pick<AppDeps, "env" | "logger" | "services" | "draining">): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const answer = req.url === "/" ? cachedHomeAnswer(deps, new NodeRequestView(req)) : undefined;
    if (!answer) return next(req, res);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body ?? undefined);
    recordHomeAnswer(deps.logger, answer);
  };
}
