import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../middleware/types.ts";
import type { Db } from "../db/types.ts";
import type { Services } from "../services/index.ts";
import type { Reader } from "../services/content-access.ts";
import type { SessionUser } from "../auth/sessions.ts";
import type { Role } from "#common/validation/account.ts";
import type { Action } from "#common/memberships.ts";
import { requireAuth, requireRole } from "./guards.ts";
import { authorize, chosenCenterId } from "./member-guard.ts";
import { isUuid } from "#common/validation/ids.ts";

/**
 * The institute the request asks to work on: the page's own (`?desk=`, which the business area's
 * Tests pages put on their links, whose institute the page resolved), else the header's choice.
 * Either is only a wish: `creatorDesk` keeps it only where the person works.
 */
function wantedDesk(c: Context<AppEnv>): string | null {
  const desk = c.req.query("desk");
  return desk && isUuid(desk) ? desk : chosenCenterId(c);
}

/**
 * Who may work without an institute, by what the creator area is asked to do: content is a
 * creator account's own (sold on the platform); tests and the bank a creator's or an owner's own,
 * and admins see every one (the platform's).
 */
export const WITHOUT_A_DESK: Record<"content.write" | "tests.write", Role[]> = {
  "content.write": ["creator"],
  "tests.write": ["creator", "business", "admin"],
};

/**
 * The creator area's caller and the institute they work on, its "desk" (issue 40, decision 0039):
 * the one chosen in the header while they hold a role there that the creator area is for (owner,
 * creator, teacher), else none for a creator account (their own work, by authorship, as before),
 * else the first such institute. At a desk the policy decides `action` there (`authorize`: 403 in
 * its words, e.g. a teacher's content.write) and the answer's `reader` carries the desk, which
 * the services hold every read and write to (another institute's rows are not found, or refused).
 * Without one, the account's role decides as before (WITHOUT_A_DESK).
 */
export async function requireCreatorDesk(
  c: Context<AppEnv>,
  services: Services,
  db: Db,
  action: "content.write" | "tests.write",
  withoutADesk: readonly Role[] = WITHOUT_A_DESK[action],
): Promise<{ user: SessionUser; reader: Reader; centerId: string | null }> {
  const { user } = requireAuth(c);
  const centerId = await services.members.creatorDesk(user, c.get("site"), wantedDesk(c));
  if (centerId) {
    await authorize(c, db, action as Action, centerId);
    return { user, reader: { id: user.id, role: user.role, desk: centerId }, centerId };
  }
  requireRole(c, ...withoutADesk);
  return { user, reader: { id: user.id, role: user.role }, centerId: null };
}

/**
 * `requireCreatorDesk` as a route's first guard, before its input is read (strangers are told to
 * sign in, others what their role does not allow, not what their input lacked); the route reads
 * the desk's reader with `deskReader(c)`.
 */
export function creatorDesk(
  services: Services,
  db: Db,
  action: "content.write" | "tests.write",
  withoutADesk?: readonly Role[],
) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const { reader } = await requireCreatorDesk(c, services, db, action, withoutADesk);
    c.set("deskReader", reader);
    await next();
  });
}

/**
 * The signed-in caller as the creator area knows them, for reads open to anyone (lists answered
 * two ways): with the desk chosen in the header, where they hold a role the creator area is for.
 */
export async function deskOf(c: Context<AppEnv>, services: Services, user: SessionUser): Promise<Reader> {
  const centerId = await services.members.creatorDesk(user, c.get("site"), wantedDesk(c));
  return centerId ? { id: user.id, role: user.role, desk: centerId } : user;
}

/** The reader a `creatorDesk` guard left on the context. */
export function deskReader(c: Context<AppEnv>): Reader {
  const reader = c.get("deskReader");
  if (!reader) throw new Error("deskReader read without the creatorDesk guard");
  return reader;
}
