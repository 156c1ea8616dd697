import { data, type RouterContextProvider } from "react-router";
import { HttpError } from "../../server/http/errors.ts";
import { getRequestContext } from "./context.server";
import { CENTER_TEXTS, reachableWebsite, type CenterJson } from "#common/validation/centers.ts";

type Ctx = Readonly<RouterContextProvider>;

export type CenterFieldErrors = Partial<Record<"name" | "domain" | "website" | "superAdminPath", string>>;
export type CenterActionResult =
  | { ok: true; intent: string; center: CenterJson }
  | {
      ok: false;
      intent: string;
      error: string;
      fieldErrors: CenterFieldErrors;
      centerId?: string;
      values?: Record<string, string>;
    };

export const CENTERS_PER_PAGE = 50;

/** The dashboard layout already keeps non-admins out; the center pages check again on their own. */
function assertAdmin(context: Ctx) {
  if (getRequestContext(context).auth?.user.role !== "admin") {
    throw data(
      { ok: false, intent: "", error: "Access denied. Admins only.", fieldErrors: {} } satisfies CenterActionResult,
      { status: 403 },
    );
  }
}

/** One page of centers; a failure is reported to the page ('Failed to load centers. Please try again.'). */
export async function loadCenters(context: Ctx, request: Request) {
  assertAdmin(context);
  const { services, log } = getRequestContext(context);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const page = Math.max(1, Math.floor(Number(url.searchParams.get("page"))) || 1);
  try {
    const { centers, total } = await services.centers.list({
      q,
      limit: CENTERS_PER_PAGE,
      offset: (page - 1) * CENTERS_PER_PAGE,
    });
    const reachable = centers.map((c) => ({ ...c, website: reachableWebsite(c.website, request.url) }));
    return { centers: reachable, total, page, q, loadFailed: false, now: Date.now() };
  } catch (error) {
    log.error("loading centers failed", { error });
    return { centers: [] as CenterJson[], total: 0, page, q, loadFailed: true, now: Date.now() };
  }
}

function fieldErrorsOf(error: HttpError): CenterFieldErrors {
  const issues = (error.extra.issues ?? []) as { field?: string; message: string }[];
  const out: CenterFieldErrors = {};
  for (const issue of issues) {
    const key = issue.field as keyof CenterFieldErrors | undefined;
    if (key && ["name", "domain", "website", "superAdminPath"].includes(key)) out[key] ??= issue.message;
  }
  return out;
}

/**
 * Runs one center change for a page action: refusals in the product's words come back with their
 * status and field messages; anything unexpected is logged and answered with the spec's
 * 'Failed to create sub center. Please try again.' (or its edit counterpart).
 */
export async function centerAction(
  context: Ctx,
  intent: string,
  centerId: string | undefined,
  run: () => Promise<CenterJson>,
  values?: Record<string, string>,
) {
  assertAdmin(context);
  try {
    return { ok: true as const, intent, center: await run() } satisfies CenterActionResult;
  } catch (error) {
    if (error instanceof HttpError) {
      return data(
        {
          ok: false,
          intent,
          error: error.message,
          fieldErrors: fieldErrorsOf(error),
          centerId,
          values,
        } satisfies CenterActionResult,
        { status: error.status },
      );
    }
    getRequestContext(context).log.error("center change failed", { intent, error });
    const message = intent === "create" ? CENTER_TEXTS.createFailed : "Failed to save the center. Please try again.";
    return data({ ok: false, intent, error: message, fieldErrors: {}, centerId, values } satisfies CenterActionResult, {
      status: 500,
    });
  }
}

/** The four fields of a sub center from a posted form. */
export function centerFields(form: FormData) {
  const get = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v : "";
  };
  return { name: get("name"), domain: get("domain"), website: get("website"), superAdminPath: get("superAdminPath") };
}

/** The center list's row actions: edit, extend, activate/deactivate, refund (the 30-day money-back guarantee). */
export async function centerListAction(context: Ctx, form: FormData) {
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const centers = centerServices(context);
  switch (intent) {
    case "edit":
      return centerAction(context, intent, id, () => centers.update(id, centerFields(form)), centerFields(form));
    case "extend":
      return centerAction(context, intent, id, () => centers.extend(id, { days: String(form.get("days") ?? "") }));
    case "status":
      return centerAction(context, intent, id, () => centers.setStatus(id, { status: form.get("status") }));
    case "refund":
      return centerAction(context, intent, id, async () => {
        const admin = getRequestContext(context).auth!.user;
        await getRequestContext(context).services.refunds.refund(String(form.get("purchaseId") ?? ""), admin.id);
        return centers.get(id);
      });
    default:
      return centerAction(context, intent, id, () => Promise.reject(new HttpError(400, "Unknown request")));
  }
}

export function centerServices(context: Ctx) {
  return getRequestContext(context).services.centers;
}
