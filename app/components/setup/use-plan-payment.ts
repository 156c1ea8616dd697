import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "~/lib/toast";
import { postJson } from "~/lib/post-json";
import type { Billing } from "#common/validation/plans.ts";
import { normaliseDomainInput } from "#common/validation/setup.ts";
import { openCheckout, type CheckoutFailure, type CheckoutSuccess } from "./checkout";

/** What a plan order is placed for: the setup wizard's fields, or an institute being renewed. */
export interface PlanOrderDetails {
  institute: string;
  owner: string;
  email: string;
  phone: string;
  domain: string;
  plan: string;
  billing: Billing;
  /** Rupees, informational only: the server prices the order from its own plan. */
  price: number;
  /** The billing period as shown, e.g. "3 months". */
  label: string;
}

export interface VerifiedPayment {
  purchase?: { _id: string; plan: string; amount: number; status: string };
  center?: { _id: string; instituteName: string; domain: string | null; expiresAt: string | null } | null;
}

/**
 * Paying for a plan in the browser, shared by the setup wizard and the business area's
 * renewal: place the order (POST /api/payment/create-order), open Razorpay Checkout (or the
 * sandbox) with it, and verify the result (POST /api/payment/verify). The spec's failure texts
 * are shown here; what happens after a verified payment is the caller's (`onPaid`).
 */
export function usePlanPayment(
  checkout: { key: string; script: string },
  /** Return a promise to stay on the page (paying ends when it settles); return nothing when leaving it. */
  onPaid: (result: VerifiedPayment, details: PlanOrderDetails) => Promise<unknown> | void,
) {
  const [paying, setPaying] = useState(false);
  const onPaidRef = useRef(onPaid);
  useEffect(() => {
    onPaidRef.current = onPaid;
  }, [onPaid]);

  const verify = useCallback(async (response: CheckoutSuccess, details: PlanOrderDetails) => {
    let body: { success?: boolean; error?: string } & VerifiedPayment;
    try {
      const answer = await postJson("/api/payment/verify", response);
      body = answer.body as typeof body;
      if (!answer.ok || !body.success) {
        toast.error("Payment Verification Failed", {
          description: body.error || "Please contact support.",
          duration: 4000,
        });
        setPaying(false);
        return;
      }
    } catch {
      window.alert("Payment verification failed. Please contact support.");
      setPaying(false);
      return;
    }
    // Still "paying" while the caller moves on, so nothing is bought twice.
    const after = onPaidRef.current(body, details);
    if (after) void after.finally(() => setPaying(false));
  }, []);

  const pay = useCallback(
    async (details: PlanOrderDetails) => {
      setPaying(true);
      let order: { id: string; amount: number; currency: string };
      try {
        const answer = await postJson("/api/payment/create-order", {
          amount: Math.round(details.price * 100),
          currency: "INR",
          institute: details.institute,
          owner: details.owner,
          email: details.email,
          phone: details.phone,
          plan: details.plan,
          billing: details.billing,
          durationDays: details.billing === "monthly" ? 30 : details.billing === "quarterly" ? 90 : 365,
          domain: details.domain,
        });
        const body = answer.body as { success?: boolean; error?: string; order?: typeof order };
        if (!answer.ok || !body.success || !body.order) {
          toast.error(body.error || "Failed to create order", { duration: 4000 });
          setPaying(false);
          return;
        }
        order = body.order;
      } catch {
        toast.error("Failed to create order", { duration: 4000 });
        setPaying(false);
        return;
      }
      try {
        await openCheckout(
          checkout.script,
          {
            key: checkout.key,
            amount: order.amount,
            currency: order.currency,
            name: "Pathshala",
            description: `${details.plan} · ${details.label}`,
            order_id: order.id,
            prefill: {
              name: details.owner.trim(),
              email: details.email.trim(),
              contact: details.phone.trim() || undefined,
            },
            notes: { institute: details.institute.trim(), domain: normaliseDomainInput(details.domain) },
            theme: { color: "#4338ca" },
            handler: (response) => void verify(response, details),
            modal: { ondismiss: () => setPaying(false) },
          },
          (failure: CheckoutFailure) => {
            toast.error("Payment failed", {
              description: failure.error?.description || "The payment did not go through. You can try again.",
              duration: 4000,
            });
            setPaying(false);
          },
        );
      } catch {
        window.alert("Failed to initiate payment. Please try again.");
        setPaying(false);
      }
    },
    [checkout, verify],
  );

  return { paying, pay };
}
