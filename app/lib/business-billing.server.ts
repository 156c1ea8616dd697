import type { RouterContextProvider } from "react-router";
import { subscriptionOf } from "../../server/api/centers.ts";
import { loadBusinessCenter } from "./business.server";

/**
 * The current institute's subscription (spec §3 "Subscription lookup", the same answer as
 * GET /api/centers/lookup) and the details a renewal is ordered with: the owner name, e-mail
 * and phone of its last purchase, else the account's own.
 */
export async function loadSubscription(context: Readonly<RouterContextProvider>, request: Request) {
  const { viewer, center, services } = await loadBusinessCenter(context, request);
  if (!center) return { center: null, subscription: null, renewal: null };
  const last = (await services.purchases.listMine(viewer.id)).find(
    (p) => p.centerId === center.id && p.status === "paid",
  );
  // A renewal names the institute's domain: bound, or still waiting for proof (a trial's).
  const domain = await services.domains.domainOf(center);
  return {
    center: { id: center.id, instituteName: center.instituteName, domain },
    subscription: subscriptionOf(center),
    renewal: {
      institute: center.instituteName,
      domain,
      owner: last?.ownerName ?? viewer.name,
      email: last?.email ?? viewer.email,
      phone: last?.phone ?? "",
    },
  };
}
