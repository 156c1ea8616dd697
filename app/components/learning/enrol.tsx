import { NETWORK_ERROR, postJson } from "~/lib/post-json";
import { createContext, useCallback, useContext, useMemo, useState } from "react";
import { useLocation, useNavigate, useRevalidator } from "react-router";
import { toast } from "~/lib/toast";
import { Loader2 } from "lucide-react";
import { useRootData } from "~/root";
import type { LearningItemJson } from "#common/content-types.ts";
import { STUDENTS_ONLY } from "#common/validation/enrollment.ts";
import { formatRupees } from "#common/format.ts";
import { NOT_ON_SALE } from "#common/validation/merchant-account.ts";
import { openCheckout, type CheckoutSuccess } from "~/components/setup/checkout";
import { Button, type ButtonProps } from "~/components/ui/button";

/** What Checkout is opened with (from the page's loader). */
export interface CheckoutConfig {
  key: string;
  script: string;
}

type Item = Pick<LearningItemJson, "_id" | "title" | "price"> & Partial<Pick<LearningItemJson, "onSale">>;

/** Where a visitor comes back to after signing up on the way: by default the item's card on this page. */
export interface EnrolOptions {
  /** A path that opens Checkout again on arrival (the catalog's `?buy=`); the visitor is offered Register first. */
  returnTo?: string;
}

interface EnrolState {
  /** Enrols the viewer (signing in first if needed); paid content goes through Checkout. */
  enrol(item: Item, options?: EnrolOptions): Promise<void>;
  /** The content being enrolled in right now, if any. */
  pending: string | null;
}

const EnrolContext = createContext<EnrolState | null>(null);

/**
 * Enrolment for every page that offers content (catalog, live classes, courses, materials):
 * free content at once, paid content through the same Razorpay Checkout (or its sandbox) as plan
 * purchases, with the amount the server priced. The page's data is reloaded afterwards, so its
 * cards turn into "enrolled" ones with their links.
 */
export function EnrolProvider({
  checkout,
  openAfter,
  children,
}: {
  checkout: CheckoutConfig;
  /** Where to go once enrolled or paid (a test bought opens), or null to stay and show the change. */
  openAfter?: (item: Item) => string | null;
  children: React.ReactNode;
}) {
  const root = useRootData();
  const viewer = root?.viewer ?? null;
  const site = root?.site;
  const navigate = useNavigate();
  const location = useLocation();
  const revalidator = useRevalidator();
  const [pending, setPending] = useState<string | null>(null);

  const enrolled = useCallback(
    (item: Item, title: string, description: string) => {
      toast.success(title, {
        description,
        duration: 5000,
        action: { label: "My Courses", onClick: () => navigate("/student/my-courses") },
      });
      setPending(null);
      const next = openAfter?.(item);
      if (next) navigate(next);
      else void revalidator.revalidate();
    },
    [navigate, revalidator, openAfter],
  );

  const verify = useCallback(
    async (item: Item, response: CheckoutSuccess) => {
      try {
        const { ok, body } = await postJson("/api/student/enroll/verify", response);
        if (!ok || !body.success) {
          toast.error("Payment Verification Failed", {
            description: (body.error as string) || "Please contact support.",
            duration: 4000,
          });
          setPending(null);
          return;
        }
        enrolled(item, "Payment successful", `You're enrolled in ${item.title}.`);
      } catch {
        window.alert("Payment verification failed. Please contact support.");
        setPending(null);
      }
    },
    [enrolled],
  );

  const enrol = useCallback(
    async (item: Item, options: EnrolOptions = {}) => {
      if (!viewer) {
        // Back to this very card after signing in (or signing up), or to Checkout when the page reopens it.
        const back = options.returnTo ?? `${location.pathname}#content-${item._id}`;
        navigate(
          `/auth?role=student&redirectTo=${encodeURIComponent(back)}${options.returnTo ? "&mode=register" : ""}`,
        );
        return;
      }
      if (viewer.role !== "student") {
        toast.error("Student account needed", { description: STUDENTS_ONLY, duration: 4000 });
        return;
      }
      setPending(item._id);
      let answer: { ok: boolean; body: Record<string, unknown> };
      try {
        answer = await postJson("/api/student/enroll", { contentId: item._id });
      } catch {
        toast.error("Enrolment failed", { description: NETWORK_ERROR, duration: 4000 });
        setPending(null);
        return;
      }
      const { ok, body } = answer;
      if (ok && typeof body.enrollmentId === "string") {
        enrolled(item, body.alreadyEnrolled ? "Already enrolled" : "Enrolled", `You're enrolled in ${item.title}.`);
        return;
      }
      const order = body.order as { id: string; amount: number; currency: string } | undefined;
      if (!ok || !order) {
        toast.error(item.price > 0 ? (body.error as string) || "Failed to create order" : "Enrolment failed", {
          description: item.price > 0 ? undefined : (body.error as string) || "Please try again.",
          duration: 4000,
        });
        setPending(null);
        return;
      }
      try {
        await openCheckout(
          checkout.script,
          {
            key: (body.key_id as string) || checkout.key,
            amount: order.amount,
            currency: order.currency,
            name: site?.kind === "tenant" ? site.instituteName : "Pathshala",
            description: item.title,
            order_id: order.id,
            prefill: { name: viewer.name, email: viewer.email },
            notes: { contentId: item._id },
            theme: { color: (site?.kind === "tenant" && site.brandColor) || "#4338ca" },
            handler: (response) => void verify(item, response),
            modal: { ondismiss: () => setPending(null) },
          },
          (failure) => {
            toast.error("Payment failed", {
              description: failure.error?.description || "The payment did not go through. You can try again.",
              duration: 4000,
            });
            setPending(null);
          },
        );
      } catch {
        window.alert("Failed to initiate payment. Please try again.");
        setPending(null);
      }
    },
    [viewer, site, navigate, location.pathname, checkout, verify, enrolled],
  );

  const value = useMemo(() => ({ enrol, pending }), [enrol, pending]);
  return <EnrolContext.Provider value={value}>{children}</EnrolContext.Provider>;
}

export function useEnrol(): EnrolState {
  const state = useContext(EnrolContext);
  if (!state) throw new Error("useEnrol needs an EnrolProvider");
  return state;
}

/**
 * A button that enrols in `item` (or buys it): a plain form post without JavaScript (free
 * content), the API and Checkout with it.
 */
export function EnrolButton({
  item,
  returnTo,
  children,
  ...props
}: { item: Item; returnTo?: string; children?: React.ReactNode } & Omit<ButtonProps, "onClick" | "type">) {
  const { enrol, pending } = useEnrol();
  const location = useLocation();
  const busy = pending === item._id;
  // Its institute has not connected its payment account yet (decision 0040): nothing to buy.
  if (item.price > 0 && item.onSale === false)
    return (
      <Button type="button" disabled variant="outline" {...props}>
        {NOT_ON_SALE}
      </Button>
    );
  return (
    <form
      method="post"
      action="/catalog"
      className="contents"
      onSubmit={(event) => {
        event.preventDefault();
        void enrol(item, { returnTo });
      }}
    >
      <input type="hidden" name="contentId" value={item._id} />
      <input type="hidden" name="back" value={`${location.pathname}${location.search}`} />
      <Button type="submit" disabled={pending !== null} aria-busy={busy} {...props}>
        {busy ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
        {children ?? enrolLabel(item)}
      </Button>
    </form>
  );
}

/** "Enroll" for free content, "Buy ₹299" for paid. */
export function enrolLabel(item: Pick<Item, "price">): string {
  return item.price > 0 ? `Buy ${formatRupees(item.price)}` : "Enroll";
}
