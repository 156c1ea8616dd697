import { data } from "react-router";
import type { Route } from "./+types/change-password";
import { changePassword } from "~/lib/auth-actions.server";
import { requireViewer } from "~/lib/session.server";
import { PASSWORD_MISMATCH } from "~/components/auth-fields";

/** The account pages' Change password form posts here (a resource route: no page of its own). */
export async function action({ request, context }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  const password = form.get("password");
  if (password !== form.get("confirmPassword"))
    return data({ ok: false as const, error: PASSWORD_MISMATCH.description }, { status: 400 });
  const result = await changePassword(context, { currentPassword: form.get("currentPassword"), password });
  if (!result.ok) return result.response;
  return { ok: true as const };
}
