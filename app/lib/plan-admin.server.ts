import { data, type RouterContextProvider } from "react-router";
import { HttpError } from "../../server/http/errors.ts";
import { toPlanJson } from "../../server/services/plans.ts";
import type { PlanJson } from "#common/validation/plans.ts";
import { getRequestContext } from "./context.server";
import { readPriceInput } from "#common/validation/plans.ts";

type Ctx = Readonly<RouterContextProvider>;

export type PlanActionResult =
  | { ok: true; intent: "create" | "update" | "delete"; deleted?: boolean; deactivated?: boolean; planId: string }
  | { ok: false; intent: "save" | "delete"; error: string; planId?: string };

/**
 * Loads every plan for the admin pages. A failure is reported to the page (which shows 'Failed to
 * load plans') rather than replacing it with an error screen.
 */
export async function loadAdminPlans(context: Ctx): Promise<{ plans: PlanJson[]; loadFailed: boolean }> {
  const { services, log } = getRequestContext(context);
  try {
    return { plans: (await services.plans.listAll()).map(toPlanJson), loadFailed: false };
  } catch (error) {
    log.error("loading plans failed", { error });
    return { plans: [], loadFailed: true };
  }
}

/** The dashboard layout already keeps non-admins out; actions check again on their own. */
function assertAdmin(context: Ctx) {
  const { auth } = getRequestContext(context);
  if (auth?.user.role !== "admin")
    throw data({ ok: false, intent: "save", error: "Access denied. Admins only." } satisfies PlanActionResult, {
      status: 403,
    });
}

async function attempt(intent: "save" | "delete", planId: string | undefined, run: () => Promise<PlanActionResult>) {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError)
      return data({ ok: false, intent, error: error.message, planId } satisfies PlanActionResult, {
        status: error.status,
      });
    throw error;
  }
}

/** Creates (no id) or edits (with id) a plan from the editor's JSON. */
export function savePlan(context: Ctx, id: string | null, plan: unknown) {
  assertAdmin(context);
  const { services } = getRequestContext(context);
  return attempt("save", id ?? undefined, async () => {
    if (id) {
      const row = await services.plans.update(id, plan);
      return { ok: true, intent: "update", planId: row.id };
    }
    const row = await services.plans.create(plan);
    return { ok: true, intent: "create", planId: row.id };
  });
}

export function deletePlan(context: Ctx, id: string) {
  assertAdmin(context);
  const { services } = getRequestContext(context);
  return attempt("delete", id, async () => {
    const result = await services.plans.remove(id);
    return { ok: true, intent: "delete", deleted: result.deleted, deactivated: result.deactivated, planId: id };
  });
}

/**
 * The inline editor's form: name, the price (in rupees, of the plan's shown billing period),
 * description and one feature per line. Lines that name an existing feature keep its details.
 */
export function saveInlinePlan(context: Ctx, form: FormData) {
  assertAdmin(context);
  const { services } = getRequestContext(context);
  const id = String(form.get("id") ?? "");
  return attempt("save", id, async () => {
    const existing = await services.plans.get(id);
    if (!existing) throw new HttpError(404, "Plan not found");
    // A typo never reaches the pricing page: the price is refused, and nothing is saved.
    const price = readPriceInput(form.get("price"), existing.activeDuration);
    if (!price.ok) throw new HttpError(400, price.message);
    const lines = String(form.get("features") ?? "")
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    const features = lines.map((name) => {
      const before = existing.features.find((f) => f.name.toLowerCase() === name.toLowerCase());
      return { name, description: before?.description ?? "", included: before?.included ?? true };
    });
    await services.plans.update(id, {
      name: form.get("name") ?? "",
      description: form.get("description") ?? "",
      pricing: { [existing.activeDuration]: { price: price.price } },
      features,
    });
    return { ok: true, intent: "update", planId: id };
  });
}
