import type { Route } from "./+types/account-email";
import { getRequestContext } from "~/lib/context.server";
import { requireViewer } from "~/lib/session.server";
import { tryService } from "~/lib/actions.server";

/** The account pages' Change e-mail form posts here (a resource route: no page of its own). */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const { services } = getRequestContext(context);
  const form = await request.formData();
  const sent = await tryService(() =>
    services.emailChanges.request(viewer, { email: form.get("email"), currentPassword: form.get("currentPassword") }),
  );
  if (!sent.ok) return sent.response;
  return { ok: true as const, message: sent.value.message };
}
