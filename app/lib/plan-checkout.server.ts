import type { RouterContextProvider } from "react-router";
import type { SetupPlan } from "~/components/setup/order-summary";
import { getRequestContext } from "./context.server";

/**
 * What a page that sells plans needs: the plans on sale (prices in rupees) and how to open
 * Checkout (public key and script). Used by the setup wizard and the business area's renewal.
 */
export async function loadCheckoutPlans(context: Readonly<RouterContextProvider>) {
  const { services } = getRequestContext(context);
  const plans: SetupPlan[] = (await services.plans.listActive()).map((p) => ({
    name: p.name,
    pricing: {
      monthly: { price: p.monthlyPrice / 100, currency: p.currency },
      quarterly: { price: p.quarterlyPrice / 100, currency: p.currency },
      yearly: { price: p.yearlyPrice / 100, currency: p.currency },
    },
    quarterlyMonths: p.quarterlyMonths,
    yearlyYears: p.yearlyYears,
  }));
  return {
    plans,
    checkout: { key: services.payments.gateway.keyId, script: services.payments.gateway.checkoutScript },
  };
}
