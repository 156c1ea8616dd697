import { data } from "react-router";
import type { Route } from "./+types/account-phone";
import { getRequestContext } from "~/lib/context.server";
import { requireViewer } from "~/lib/session.server";
import { tryService } from "~/lib/actions.server";
import { PHONE_TEXTS } from "#common/validation/phone-code.ts";

/** The account pages' Mobile number section reads and posts here (a resource route: no page of its own). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  return { phone: await getRequestContext(context).services.phones.of(viewer.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const { services, meta } = getRequestContext(context);
  const form = await request.formData();
  if (form.get("intent") === "verify") {
    const done = await tryService(() => services.phones.verify(viewer, { code: form.get("code") }));
    if (!done.ok) return done.response;
    return { ok: true as const, step: "verified" as const, phone: done.value.phone, message: PHONE_TEXTS.verified };
  }
  const sent = await tryService(() => services.phones.requestVerification(viewer, { phone: form.get("phone") }, meta));
  if (!sent.ok) return sent.response;
  return data({ ok: true as const, step: "sent" as const, phone: sent.value.phone, message: sent.value.message });
}
