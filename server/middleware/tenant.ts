import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./types.ts";
import type { TenantDirectory } from "../services/tenants.ts";
import { isHostName, normaliseHost } from "../runtime/env.ts";
import { runInTenantScope } from "../db/tenant-scope.ts";
import { simplePage } from "../http/html.ts";
import { isSecureRequest } from "../auth/cookies.ts";

interface HostHeaders {
  req: { header(name: string): string | undefined; url: string };
}

/**
 * The host this request was made to, normalised (lower case, no port, no trailing dot), or
 * undefined when it names none: no or empty Host, a value that is not a host name or IP address,
 * or an absolute-form target naming another host than its Host header. X-Forwarded-Host counts
 * only behind a trusted proxy. Never the URL's host alone: the server fills in a default host
 * when the header is missing, and that default is the platform's.
 */
export function requestHost(c: HostHeaders, trustProxy: boolean): string | undefined {
  const own = c.req.header("host");
  if (!own || !sameHost(c.req.url, own)) return undefined;
  const forwarded = trustProxy ? c.req.header("x-forwarded-host")?.split(",")[0] : undefined;
  const host = normaliseHost(forwarded?.trim() || own);
  return isHostName(host) ? host : undefined;
}

/**
 * The origin (scheme, host and port) the request was made to, as a browser writes it in Origin;
 * undefined when the request names no usable host.
 */
export function requestOrigin(c: HostHeaders, trustProxy: boolean, secure: boolean): string | undefined {
  if (requestHost(c, trustProxy) === undefined) return undefined;
  const forwarded = trustProxy ? c.req.header("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  try {
    return new URL(`${secure ? "https" : "http"}://${forwarded || c.req.header("host")}`).origin.toLowerCase();
  } catch {
    return undefined;
  }
}

function sameHost(url: string, hostHeader: string): boolean {
  try {
    return normaliseHost(new URL(url).host) === normaliseHost(hostHeader);
  } catch {
    return false;
  }
}

/** The answer to a request for a host Pathshala does not serve: never the platform, never a redirect. */
export function siteNotConfigured(c: Context<AppEnv>, host: string | undefined) {
  const named = host ? `No institute on Pathshala uses ${host}.` : "This request does not name a site on Pathshala.";
  return c.html(
    simplePage(
      "This site is not configured",
      "This site is not configured",
      `${named} If this is your domain, finish its setup in your business area.`,
    ),
    404,
  );
}

/** Requests naming no usable host end here, before anything that answers on any host. */
export function hostRequired(trustProxy: boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (requestHost(c, trustProxy) === undefined) return siteNotConfigured(c, undefined);
    await next();
  });
}

/** The request's address on `domain` (same scheme, port, path and query), for a twin host. */
function twinTarget(c: Context<AppEnv>, domain: string | null, trustProxy: boolean): string | undefined {
  const host = requestHost(c, trustProxy);
  if (!domain || !host || (host !== `www.${domain}` && `www.${host}` !== domain)) return undefined;
  const secure = isSecureRequest(c.req.url, c.req.header("x-forwarded-proto"), trustProxy);
  const origin = requestOrigin(c, trustProxy, secure);
  if (!origin) return undefined;
  const to = new URL(origin);
  to.hostname = domain;
  const from = new URL(c.req.url);
  return `${to.origin}${from.pathname}${from.search}`;
}

/** Resolves the Host to the platform, an institute, or an unknown site (DESIGN §3 step 1). */
export function tenant(directory: TenantDirectory, trustProxy: boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const host = requestHost(c, trustProxy);
    const site = host === undefined ? { kind: "unknown" as const, host: "" } : await directory.resolve(host);
    c.set("site", site);
    if (site.kind === "unknown") return siteNotConfigured(c, site.host);
    // The `www.` twin of an institute's domain (or the apex of a `www.` one) is that institute's:
    // sent on to the domain itself, so it has one address for its pages, sessions and links.
    const twin = site.kind === "tenant" ? twinTarget(c, site.center.customDomain, trustProxy) : undefined;
    if (twin) return c.redirect(twin, c.req.method === "GET" || c.req.method === "HEAD" ? 301 : 308);
    // Everything this request does in the database is confined to its institute (row-level security).
    await runInTenantScope(site.kind === "tenant" ? site.center.id : null, next);
  });
}
