import type { Route } from "./+types/account-language";
import { getRequestContext } from "~/lib/context.server";
import { requireViewer } from "~/lib/session.server";
import { tryService } from "~/lib/actions.server";
import { MESSAGE_LANGUAGE_TEXTS } from "#common/validation/message-language.ts";

/** The account pages' Language of messages section reads and posts here (a resource route). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  return { language: await getRequestContext(context).services.messageLanguages.ofAccount(viewer.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const form = await request.formData();
  const saved = await tryService(() =>
    getRequestContext(context).services.messageLanguages.setForAccount(viewer.id, {
      language: form.get("language") ?? "",
    }),
  );
  if (!saved.ok) return saved.response;
  return { ok: true as const, language: saved.value, message: MESSAGE_LANGUAGE_TEXTS.accountSaved(saved.value) };
}
