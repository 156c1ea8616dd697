import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv, Auth } from "../middleware/types.ts";
import type { Role } from "#common/validation/account.ts";
import { errorBody, HttpError, notFound } from "../http/errors.ts";
import { isUuid } from "#common/validation/ids.ts";

export const SESSION_EXPIRED = "Your session has expired. Please sign in again.";
export const SIGN_IN_REQUIRED = "Please sign in to continue.";
export const ACCESS_DENIED = "Access denied";

/** The signed-in caller, or 401. */
export function requireAuth(c: Context<AppEnv>): Auth {
  const auth = c.get("auth");
  if (auth) return auth;
  throw new HttpError(401, c.get("authError") ? SESSION_EXPIRED : SIGN_IN_REQUIRED);
}

/** The signed-in caller in one of `roles`, or 401/403 (decided on the server, always). */
export function requireRole(c: Context<AppEnv>, ...roles: Role[]): Auth {
  const auth = requireAuth(c);
  if (!roles.includes(auth.user.role)) {
    throw new HttpError(
      403,
      roles.length === 1 && roles[0] === "admin" ? "Access denied. Admins only." : ACCESS_DENIED,
    );
  }
  return auth;
}

/**
 * `requireAuth` (no roles) or `requireRole` as a route's middleware, for a route whose `input`
 * must not be read before the caller is known: strangers are told to sign in, not what their input lacked.
 */
export const allow = (...roles: Role[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (roles.length) requireRole(c, ...roles);
    else requireAuth(c);
    await next();
  });

/**
 * The platform's own operations (admin endpoints, plan management, seminar bookings) do not exist
 * on an institute's domain: they answer 404 there, before any sign-in or input is looked at.
 */
export const platformOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("site").kind !== "platform") return c.json(errorBody("Not found"), 404);
  await next();
});

/** The id in the path (`:id`, or `name`), or 404 with `message`: a malformed id names nothing. */
export function idParam(c: Context<AppEnv>, message: string, name = "id"): string {
  const id = c.req.param(name) ?? "";
  if (!isUuid(id)) throw notFound(message);
  return id;
}
