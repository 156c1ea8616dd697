import { data, redirect, type RouterContextProvider } from "react-router";
import { PASSWORD_MISMATCH } from "~/components/auth-fields";
import type { SessionUser } from "../../server/auth/sessions.ts";
import { getRequestContext } from "./context.server";
import { startWebSession } from "./session.server";
import { flashToastCookie } from "./toast.server";
import { tryService } from "./actions.server";
import type { FlashToast } from "./toast";

type Ctx = Readonly<RouterContextProvider>;

export function authenticate(context: Ctx, input: { email: unknown; password: unknown; role?: unknown }) {
  const { services, meta } = getRequestContext(context);
  return tryService(() => services.accounts.authenticate(input, meta));
}

export function registerAccount(
  context: Ctx,
  input: { name: unknown; email: unknown; password: unknown; role: unknown },
) {
  const { services, meta } = getRequestContext(context);
  return tryService(() => services.accounts.register(input, meta));
}

/** Signs `user` in with a brand-new session and redirects, carrying a toast. */
export async function signInAndRedirect(
  context: Ctx,
  user: SessionUser,
  to: string,
  options: { persistent: boolean; toast: FlashToast },
) {
  const headers = new Headers();
  headers.append("Set-Cookie", await startWebSession(context, user, options.persistent));
  headers.append("Set-Cookie", flashToastCookie(options.toast));
  return redirect(to, { headers });
}

/** A new password typed twice that does not match: refused before anything is asked of the server. */
export function mismatchedPasswords(form: FormData) {
  return form.get("password") === form.get("confirmPassword")
    ? null
    : data({ ok: false as const, error: PASSWORD_MISMATCH.description }, { status: 400 });
}

/** Forgot password?: a reset link to the account's address, leading to where the account lives. */
export function requestPasswordReset(context: Ctx, input: { email: unknown }) {
  const { services, meta } = getRequestContext(context);
  return tryService(() => services.passwordResets.request(input, meta));
}

/** A new password from a reset link. */
export function resetPassword(context: Ctx, input: { token: unknown; password: unknown }) {
  const { services, meta } = getRequestContext(context);
  return tryService(() => services.passwordResets.reset(input, meta));
}

/** A signed-in person's new password (their current one required). */
export function changePassword(context: Ctx, input: { currentPassword: unknown; password: unknown }) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw new Response(null, { status: 401 });
  return tryService(() => services.passwordResets.change(auth.user, auth.session, input));
}
