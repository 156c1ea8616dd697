import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../middleware/types.ts";
import type { Db } from "../db/types.ts";
import type { Services } from "../services/index.ts";
import { HttpError } from "../http/errors.ts";
import { requireAuth, requireRole } from "./guards.ts";
import { authorize, chosenCenterId } from "./member-guard.ts";
import type { Action } from "#common/memberships.ts";

export const NO_SUBSCRIPTION = "No active subscription found.";

/**
 * The business area's caller, the institute they act on and their right to `action` there, which
 * the policy decides (server/auth/permissions.ts, decision 0039): the institute is their pick
 * (`centerId`), else the one whose domain the request came to, else the one chosen in the header,
 * else the newest where they hold an owner's or a staff role. Someone who works at no institute is
 * refused (403) unless theirs is a business account, which has no institute before its first
 * plan (404 NO_SUBSCRIPTION); a role there without the action is a 403 in the policy's words.
 */
export async function requireBusinessCenter(
  c: Context<AppEnv>,
  services: Services,
  db: Db,
  action: Action,
  centerId?: string | null,
) {
  const { user } = requireAuth(c);
  const center = await services.business.deskCenter(user.id, c.get("site"), centerId ?? chosenCenterId(c));
  if (!center) {
    requireRole(c, "business");
    throw new HttpError(404, NO_SUBSCRIPTION);
  }
  await authorize(c, db, action, center.id);
  return { user, center };
}

/**
 * A business-area route's first guard, before its input is read: the caller is signed in and
 * works at an institute (an owner's or a staff role), or is a business account (which has none
 * before its first plan); everyone else is refused here, not told what their input lacked.
 */
export function allowBusinessArea(services: Services) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const { user } = requireAuth(c);
    if ((await services.business.desks(user.id)).length === 0) requireRole(c, "business");
    await next();
  });
}
