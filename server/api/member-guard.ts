import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../middleware/types.ts";
import type { Db } from "../db/types.ts";
import { HttpError, notFound } from "../http/errors.ts";
import { requireAuth } from "./guards.ts";
import { can, membershipOf, notAllowed } from "../auth/permissions.ts";
import { isUuid } from "#common/validation/ids.ts";
import type { Action } from "#common/memberships.ts";
import { CHOSEN_MEMBERSHIP_COOKIE } from "#common/memberships.ts";

export const NOT_A_MEMBER = "You do not have a role in this institute.";
export const INSTITUTE_NOT_FOUND = "Institute not found";
export { notAllowed };

/** The institute the caller chose in the header (the cookie's `<centerId>:<role>`), if any; checked against their roles wherever used. */
export function chosenCenterId(c: Context<AppEnv>): string | null {
  const [centerId] = (getCookie(c, CHOSEN_MEMBERSHIP_COOKIE) ?? "").split(":");
  return centerId && isUuid(centerId) ? centerId : null;
}

/**
 * The institute a request is about: the path's `{id}`, else the institute whose site it came
 * to, else the one the caller chose in the header (`chosen`), else none (404).
 */
export function requestCenterId(c: Context<AppEnv>): string | null {
  const id = c.req.param("id");
  if (id !== undefined) return isUuid(id) ? id : null;
  const site = c.get("site");
  if (site.kind === "tenant") return site.center.id;
  return chosenCenterId(c);
}

/**
 * `centerId` when a request here may reach it: one is named and, on an institute's domain, it is
 * that institute (another one's is not there to be found); otherwise a 404 saying `missing`.
 */
export function centerOnThisSite(c: Context<AppEnv>, centerId: string | null | undefined, missing: string): string {
  const site = c.get("site");
  if (!centerId || (site.kind === "tenant" && site.center.id !== centerId)) throw notFound(missing);
  return centerId;
}

/**
 * The caller's roles in institute `centerId`, which must allow `action` (401 signed out, 404 no
 * such institute, 403 no role there or not this action); left on the context as `membership`.
 */
export async function authorize(c: Context<AppEnv>, db: Db, action: Action, centerId: string | null) {
  const { user } = requireAuth(c);
  const here = centerOnThisSite(c, centerId, INSTITUTE_NOT_FOUND);
  const membership = await membershipOf(db, user.id, here);
  if (!membership) throw notFound(INSTITUTE_NOT_FOUND);
  if (membership.roles.length === 0) throw new HttpError(403, NOT_A_MEMBER);
  if (!can(membership, action)) throw new HttpError(403, notAllowed(action));
  c.set("membership", membership);
  return { user, membership };
}

/**
 * The route's guard: the signed-in caller must hold a role in the request's institute (path
 * `{id}`, the site's, or the one chosen in the header) that may do `action`. On an institute's
 * domain the path must name that institute: another one's is a 404 there.
 */
export function requireMember(db: Db, action: Action) {
  return createMiddleware<AppEnv>(async (c, next) => {
    await authorize(c, db, action, requestCenterId(c));
    await next();
  });
}
