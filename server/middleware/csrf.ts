import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./types.ts";
import { errorBody } from "../http/errors.ts";
import { readSessionToken } from "../auth/cookies.ts";
import { requestOrigin } from "./tenant.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const CSRF_MESSAGE = "This request came from another site and was refused.";

/**
 * Cookie-authenticated writes must come from this very origin: Sec-Fetch-Site same-origin (or a
 * direct navigation), or else an Origin equal to the request's scheme, host and port. Institutes'
 * domains are separate origins from the platform and from each other, and http://host is not
 * https://host. Bearer-token calls carry no ambient credentials and are exempt.
 */
export function csrf(trustProxy: boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || c.req.header("authorization")) return next();
    const fetchSite = c.req.header("sec-fetch-site");
    const origin = c.req.header("origin");
    const own = requestOrigin(c, trustProxy, c.get("secure"));
    const named = origin && origin !== "null" ? originOf(origin) : undefined;
    let allowed: boolean;
    if (fetchSite) allowed = fetchSite === "same-origin" || fetchSite === "none";
    else if (origin && origin !== "null") allowed = named !== undefined && named === own;
    else allowed = !readSessionToken(c.req.header("cookie"), c.get("secure"));
    if (allowed && origin && origin !== "null" && named !== own) allowed = false;
    if (!allowed) return c.json(errorBody(CSRF_MESSAGE), 403);
    await next();
  });
}

function originOf(origin: string): string | undefined {
  try {
    return new URL(origin).origin.toLowerCase();
  } catch {
    return undefined;
  }
}
