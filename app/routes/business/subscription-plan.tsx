import { TRIAL_TEXTS } from "#common/trial.ts";
import { useCallback, useState } from "react";
import { useRevalidator } from "react-router";
import { toast } from "~/lib/toast";
import { CalendarClock, CreditCard, Loader2, ShieldCheck } from "lucide-react";
import type { Route } from "./+types/subscription-plan";
import { loadSubscription } from "~/lib/business-billing.server";
import { loadCheckoutPlans } from "~/lib/plan-checkout.server";
import { billingLabel, formatRupees, isBilling, type Billing } from "#common/validation/plans.ts";
import { expiryLabel } from "#common/validation/centers.ts";
import { formatDate, thePlan } from "#common/format.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { OrderSummary } from "~/components/setup/order-summary";
import { usePlanPayment, type PlanOrderDetails, type VerifiedPayment } from "~/components/setup/use-plan-payment";

export const meta: Route.MetaFunction = () => [{ title: "Subscription Plan | Business" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [subscription, sale] = await Promise.all([loadSubscription(context, request), loadCheckoutPlans(context)]);
  return { ...subscription, ...sale };
}

/** subscriptionOf's states: a running trial is "trial", one ended unpaid "expired". */
const STATUS = {
  trial: { label: TRIAL_TEXTS.running, tone: "warning" },
  active: { label: "Active", tone: "success" },
  expired: { label: "Expired", tone: "destructive" },
  inactive: { label: "Inactive", tone: "muted" },
} as const;

/**
 * The institute's plan, and renewing or changing it through the same payment flow as the setup
 * wizard. Paying for the institute's own domain extends that institute (from its expiry, or from
 * today once it has run out) rather than making a new one.
 */
export default function SubscriptionPlan({ loaderData }: Route.ComponentProps) {
  // A trial (running or ended unpaid) is converted by buying a plan for its own domain.
  const trial = loaderData.subscription?.trialEndsAt != null;
  const { center, subscription, renewal, plans, checkout } = loaderData;
  const revalidator = useRevalidator();
  const currentPlan = plans.find((p) => p.name === subscription?.plan) ?? null;
  const [planName, setPlanName] = useState<string | null>(currentPlan?.name ?? plans[0]?.name ?? null);
  const [billing, setBilling] = useState<Billing>(
    subscription?.billing && isBilling(subscription.billing) ? subscription.billing : "monthly",
  );

  const onPaid = useCallback(
    (result: VerifiedPayment, paid: PlanOrderDetails) => {
      const until = result.center?.expiresAt ? ` until ${formatDate(result.center.expiresAt)}` : "";
      toast.success("Payment successful", {
        description: `${paid.institute} is on ${thePlan(paid.plan)}${until}.`,
        duration: 5000,
      });
      return revalidator.revalidate();
    },
    [revalidator],
  );
  const { paying, pay } = usePlanPayment(checkout, onPaid);

  if (!center || !subscription || !renewal) {
    return (
      <div className="mx-auto max-w-3xl">
        <PageHeader title="Subscription Plan" />
        <EmptyState icon={<CreditCard />} title="No active subscription found.">
          <p className="max-w-sm text-sm text-muted-foreground">
            Choose a plan to get your institute's website on your own domain.
          </p>
          <ButtonLink to="/pricing">View Plans</ButtonLink>
        </EmptyState>
      </div>
    );
  }

  const plan = plans.find((p) => p.name === planName) ?? null;
  const price = plan ? plan.pricing[billing].price : null;
  const label = billingLabel(billing, plan ?? undefined);
  const isRenewal = plan?.name === subscription.plan;
  const status = STATUS[subscription.status as keyof typeof STATUS] ?? STATUS.inactive;
  const canPay = Boolean(plan && price && price > 0 && renewal.domain && !paying);
  const expiry = expiryLabel(subscription.expiresAt);

  const submit = () => {
    if (!plan || !canPay || !renewal.domain) return;
    void pay({
      institute: renewal.institute,
      owner: renewal.owner,
      email: renewal.email,
      phone: renewal.phone,
      domain: renewal.domain,
      plan: plan.name,
      billing,
      price: price ?? 0,
      label,
    });
  };

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Subscription Plan"
        description={`${center.instituteName}'s plan, and renewing or changing it.`}
      />
      {/* On a phone the summary (where the plan is picked) sits between the plan and the pay button. */}
      <div className="grid items-start gap-6 lg:grid-cols-[1fr_22rem]">
        <Card className="lg:col-start-1 lg:row-start-1">
          <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
            <div>
              <CardDescription>Current plan</CardDescription>
              <CardTitle as="h2" className="mt-1 text-2xl" data-testid="current-plan">
                {subscription.plan ?? "No plan"}
              </CardTitle>
            </div>
            <Badge tone={status.tone}>{status.label}</Badge>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-3">
              <div>
                <dt className="text-muted-foreground">Billing</dt>
                <dd className="mt-0.5 font-medium">
                  {subscription.billing && isBilling(subscription.billing)
                    ? billingLabel(subscription.billing, currentPlan ?? undefined)
                    : "—"}
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Started</dt>
                <dd className="mt-0.5 font-medium">{formatDate(subscription.subscriptionStartAt)}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Runs until</dt>
                <dd className="mt-0.5 font-medium">
                  {subscription.expiresAt ? formatDate(subscription.expiresAt) : "No expiry"}
                  {expiry && (
                    <span
                      className={
                        expiry === "Expired"
                          ? "block text-destructive"
                          : "block text-xs font-normal text-muted-foreground"
                      }
                    >
                      {expiry}
                    </span>
                  )}
                </dd>
              </div>
            </dl>
          </CardContent>
        </Card>

        <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <OrderSummary
            plans={plans}
            plan={plan}
            billing={billing}
            onPlan={(name) => setPlanName(name || null)}
            onBilling={setBilling}
            locked={paying}
            offerTrial={false}
          />
        </div>

        <Card className="lg:col-start-1 lg:row-start-2">
          <CardHeader>
            <CardTitle as="h2">{trial ? TRIAL_TEXTS.buy : "Renew or change plan"}</CardTitle>
            <CardDescription>
              {trial
                ? "Pick a plan and billing period in the summary. Buying keeps your website, template and everything you set up; the paid time starts when your free trial ends."
                : `Pick a plan and billing period in the summary. The plan you pay for applies at once, and its time is added${subscription.status === "active" ? " after your current period ends" : " from today"}.`}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {!renewal.domain ? (
              <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
                This institute has no domain of its own yet, so it cannot be renewed here. Please contact us from Help &
                Contact.
              </p>
            ) : (
              <p className="flex items-start gap-2 text-sm text-muted-foreground">
                <CalendarClock className="mt-0.5 size-4 shrink-0" aria-hidden />
                Billed to {renewal.owner} ({renewal.email}).
              </p>
            )}
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <ShieldCheck className="size-4 text-success" aria-hidden /> Payments are processed securely by Razorpay.
            </p>
            <Button size="lg" className="w-full sm:w-auto sm:justify-self-start" onClick={submit} disabled={!canPay}>
              {paying ? (
                <>
                  <Loader2 className="size-4 animate-spin" aria-hidden /> Processing...
                </>
              ) : trial ? (
                `${TRIAL_TEXTS.buy}: ${plan?.name ?? "a plan"} · ${price === null ? "" : formatRupees(price)}`
              ) : isRenewal ? (
                `Renew ${plan?.name} · ${price === null ? "" : formatRupees(price)}`
              ) : (
                `Change to ${plan?.name ?? "a plan"} · ${price === null ? "" : formatRupees(price)}`
              )}
            </Button>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
