import { data, type RouterContextProvider } from "react-router";
import { getRequestContext } from "./context.server";
import { authenticate, registerAccount } from "./auth-actions.server";
import { startWebSession } from "./session.server";

type Ctx = Readonly<RouterContextProvider>;

export const NOT_BUSINESS = "This account is not a business account. Sign in with a business account, or create one.";

/**
 * The setup wizard's inline sign-up / sign-in as a business. It answers with a session cookie
 * instead of a redirect, so the wizard stays where it is with everything typed so far.
 */
export async function setupAuthAction(context: Ctx, form: FormData) {
  const intent = form.get("intent");
  let result;
  if (intent === "register") {
    if (form.get("password") !== form.get("confirmPassword"))
      return data({ error: "Passwords do not match", mismatch: true }, { status: 400 });
    result = await registerAccount(context, {
      name: form.get("name"),
      email: form.get("email"),
      password: form.get("password"),
      role: "business",
    });
  } else if (intent === "login") {
    result = await authenticate(context, { email: form.get("email"), password: form.get("password") });
    if (result.ok && result.value.role !== "business") return data({ error: NOT_BUSINESS }, { status: 403 });
  } else {
    return data({ error: "Unknown request" }, { status: 400 });
  }
  if (!result.ok) return result.response;
  // Whoever was signed in before (a student, say) is signed out: one person per browser session.
  const { auth, services } = getRequestContext(context);
  if (auth) await services.sessions.revoke(auth.session);
  const cookie = await startWebSession(context, result.value, false);
  return data({ ok: true, mode: intent }, { headers: { "Set-Cookie": cookie } });
}
