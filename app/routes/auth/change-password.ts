import type { Route } from "./+types/change-password";
import { changePassword, mismatchedPasswords } from "~/lib/auth-actions.server";
import { requireViewer } from "~/lib/session.server";

/** The account pages' Change password form posts here (a resource route: no page of its own). */
export async function action({ request, context }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  const mismatch = mismatchedPasswords(form);
  if (mismatch) return mismatch;
  const result = await changePassword(context, {
    currentPassword: form.get("currentPassword"),
    password: form.get("password"),
  });
  if (!result.ok) return result.response;
  return { ok: true as const };
}
