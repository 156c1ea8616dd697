import type { RouterContextProvider } from "react-router";
import { getRequestContext } from "./context.server";
import { toPricingPlan, type PricingPlan } from "./pricing";
import { toPlanJson } from "../../server/services/plans.ts";
import { FALLBACK_PLANS } from "../../server/seed/demo-data.ts";
import { visitorChoices } from "../../server/pages/visitor-choices.ts";

type Ctx = Readonly<RouterContextProvider>;

/**
 * The absolute origin of this request as the visitor sees it (canonical URLs, Open Graph,
 * sitemap): https when the request arrived over TLS, the port kept when one was used.
 */
export function requestOrigin(request: Request, context: Ctx): string {
  const { site, secure } = getRequestContext(context);
  const url = new URL(request.url);
  const host = url.hostname.toLowerCase() === site.host ? url.host : site.host;
  return `${secure ? "https" : "http"}://${host}`;
}

/**
 * What every marketing page's layout needs: where it is served, whether cookies were accepted, and
 * the platform's contacts from Platform Settings (the footer, /contact, the landing page, /legal).
 */
export async function marketingLayoutData(request: Request, context: Ctx) {
  const consented = visitorChoices(request.headers.get("cookie")).cookiesAccepted;
  const contacts = await getRequestContext(context).services.settings.publicContacts();
  return { origin: requestOrigin(request, context), consented, year: new Date().getFullYear(), contacts };
}

export interface PricingPageData {
  plans: PricingPlan[];
  /** "fallback": the plan service failed and the spec's static plans are shown instead. */
  source: "database" | "fallback";
}

/** The fallback plans of the spec (§3), shaped like stored ones. */
export function fallbackPlans(): PricingPlan[] {
  return FALLBACK_PLANS.map((plan, index) => ({
    id: `fallback-${index + 1}`,
    name: plan.name,
    description: plan.description,
    currency: "INR",
    prices: { monthly: plan.monthly, quarterly: plan.quarterly, yearly: plan.yearly },
    quarterlyMonths: 3,
    yearlyYears: 1,
    isPopular: plan.isPopular,
    features: plan.features.map((f) => ({ name: f.name, included: f.included })),
  }));
}

/** The active plans in display order; when the plan service fails, the static plans (spec §8). */
export async function loadPricingPlans(context: Ctx): Promise<PricingPageData> {
  const { services, requestId } = getRequestContext(context);
  try {
    const rows = await services.plans.listActive();
    return { plans: rows.map((row) => toPricingPlan(toPlanJson(row))), source: "database" };
  } catch (error) {
    console.warn(
      JSON.stringify({
        level: "warn",
        msg: "pricing plans unavailable, showing the fallback plans",
        requestId,
        error: (error as Error).message,
      }),
    );
    return { plans: fallbackPlans(), source: "fallback" };
  }
}
