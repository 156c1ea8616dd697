import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http-types.ts";
import { errorBody } from "../errors.ts";
import { readSessionToken } from "../auth/cookies.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const CSRF_MESSAGE = "This request came from another site and was refused.";

/**
 * Cookie-authenticated writes must come from this very host: Sec-Fetch-Site same-origin (or a
 * direct navigation), or else an Origin equal to the request's host. Institutes' domains are
 * separate origins from the platform and from each other. Bearer-token calls carry no ambient
 * credentials and are exempt.
 */
export function csrf() {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || c.req.header("authorization")) return next();
    const fetchSite = c.req.header("sec-fetch-site");
    const origin = c.req.header("origin");
    const host = c.get("site").host;
    let allowed: boolean;
    if (fetchSite) allowed = fetchSite === "same-origin" || fetchSite === "none";
    else if (origin && origin !== "null") allowed = originHost(origin) === host;
    else allowed = !readSessionToken(c.req.header("cookie"), c.get("secure"));
    if (allowed && origin && origin !== "null" && originHost(origin) !== host) allowed = false;
    if (!allowed) return c.json(errorBody(CSRF_MESSAGE), 403);
    await next();
  });
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
