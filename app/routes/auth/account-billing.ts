import type { Route } from "./+types/account-billing";
import { getRequestContext } from "~/lib/context.server";
import { requireViewer } from "~/lib/session.server";
import { tryService } from "~/lib/actions.server";
import { INVOICE_TEXTS } from "#common/invoices.ts";

/** The account pages' Invoices section reads (state, documents) and posts (state) here: a resource route. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const { invoices } = getRequestContext(context).services;
  const [state, documents] = await Promise.all([invoices.buyerState(viewer.id), invoices.mine(viewer.id)]);
  return { state, invoices: documents };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const form = await request.formData();
  const saved = await tryService(() =>
    getRequestContext(context).services.invoices.setBuyerState(viewer.id, { state: form.get("state") ?? "" }),
  );
  if (!saved.ok) return saved.response;
  return { ok: true as const, state: saved.value, message: INVOICE_TEXTS.stateSaved };
}
