import { redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { SessionUser } from "../../server/auth/sessions.ts";
import { clearedSessionCookie, sessionCookie } from "../../server/auth/cookies.ts";
import { getRequestContext } from "./context.server";
import type { Role } from "#common/validation/account.ts";
import { pagePath } from "./page-url";

type Ctx = Readonly<RouterContextProvider>;

/** The signed-in person, if any. */
export function getViewer(context: Ctx): SessionUser | null {
  return getRequestContext(context).auth?.user ?? null;
}

export interface GuardOptions {
  /**
   * Where a signed-in person of another role goes: the area's own sign-in ("area", the default)
   * or the sign-in of their own role ("own", as the student area does per the spec).
   */
  wrongRole?: "area" | "own";
}

/** The signed-in person, or a redirect to sign in (and back here afterwards). */
export function requireViewer(
  context: Ctx,
  request: Request,
  roles?: readonly Role[],
  options: GuardOptions = {},
): SessionUser {
  const viewer = getViewer(context);
  const back = pagePath(request);
  const toAuth = (role: string) => redirect(`/auth?role=${role}&redirectTo=${encodeURIComponent(back)}`);
  if (!viewer) throw toAuth(roles?.[0] ?? "student");
  if (roles && !roles.includes(viewer.role)) {
    if (options.wrongRole === "own") throw redirect(`/auth?role=${viewer.role}`);
    throw toAuth(roles[0]);
  }
  return viewer;
}

/** Route middleware: the area is closed to everyone outside `roles` (checked on the server). */
export function requireRoles(roles: readonly Role[], options?: GuardOptions): MiddlewareFunction<Response> {
  return ({ context, request }) => {
    requireViewer(context, request, roles, options);
  };
}

/** Starts a fresh browser session for `user` and returns the Set-Cookie header value. */
export async function startWebSession(
  context: Ctx,
  user: Pick<SessionUser, "id">,
  persistent: boolean,
): Promise<string> {
  const { services, site, secure, meta } = getRequestContext(context);
  const { token, expiresAt } = await services.sessions.createWebSession(user.id, site.host, persistent, meta);
  return sessionCookie(token, { secure, persistent, expiresAt });
}

/** Ends the current browser session; returns the Set-Cookie header value that clears it. */
export async function endWebSession(context: Ctx): Promise<string> {
  const { services, auth, secure } = getRequestContext(context);
  if (auth) await services.sessions.revoke(auth.session);
  return clearedSessionCookie(secure);
}
