import type { Route } from "./+types/fee-settings";
import { loadBusinessCenter, notAllowed } from "~/lib/business.server";
import { failure, tryService } from "~/lib/actions.server";
import { FEE_SETTINGS_SAVED } from "#common/validation/fee-settings.ts";

/**
 * The fee settings form's own route (no page of its own): the Fees page's settings card loads and
 * saves through it, so that page only places the card. The business area's checks apply: the
 * institute shown, and fees.manage (its path is under /business/fees).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  return { settings: center ? await services.feeSettings.get(center.id) : null };
}

const numberOrText = (value: string) => (value.trim() !== "" && !Number.isNaN(Number(value)) ? Number(value) : value);

export async function action({ request, context }: Route.ActionArgs) {
  const { center, services, may } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  if (!may("fees.manage")) return failure(notAllowed("fees.manage"), 403);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? "").trim();
  const done = await tryService(() =>
    services.feeSettings.save(center.id, {
      remindDaysBefore: numberOrText(field("remindDaysBefore")),
      remindOnDay: form.get("remindOnDay") === "on",
      remindDaysAfter: numberOrText(field("remindDaysAfter")),
      defaulterAfterDays: numberOrText(field("defaulterAfterDays")),
      defaulterPolicy: field("defaulterPolicy"),
      bounceFee: numberOrText(field("bounceFee") || "0"),
      allowPartialOnline: form.get("allowPartialOnline") === "on",
      defaulterHoldsNewContent: form.get("defaulterHoldsNewContent") === "on",
    }),
  );
  if (!done.ok) return done.response;
  return { ok: true as const, message: FEE_SETTINGS_SAVED, settings: done.value };
}
