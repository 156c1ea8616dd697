import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../types.ts";
import type { TenantDirectory } from "../../services/tenants.ts";
import { isHostName, normaliseHost } from "../../runtime/env.ts";
import { runInTenantScope } from "../../db/tenant-scope.ts";
import { simplePage } from "../../pages/html.ts";

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

/** Resolves the Host to the platform, an institute, or an unknown site (DESIGN §3 step 1). */
export function tenant(directory: TenantDirectory, trustProxy: boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const host = requestHost(c, trustProxy);
    const site = host === undefined ? { kind: "unknown" as const, host: "" } : await directory.resolve(host);
    c.set("site", site);
    if (site.kind === "unknown") return siteNotConfigured(c, site.host);
    // Everything this request does in the database is confined to its institute (row-level security).
    await runInTenantScope(site.kind === "tenant" ? site.center.id : null, next);
  });
}
