import { useState } from "react";
import { Link } from "react-router";
import { Check, X } from "lucide-react";
import { buttonClasses } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { thePlan } from "#common/format.ts";
import { CARD_FEATURES, formatPrice, perPeriod, setupHref, type BillingPeriod, type PricingPlan } from "~/lib/pricing";

/**
 * One plan on /pricing: price for the chosen billing, the first three features then '+N more',
 * which opens the rest. `featured` carries the 'Most Popular' badge (the page gives it to one plan).
 */
export function PlanCard({
  plan,
  billing,
  featured = plan.isPopular,
}: {
  plan: PricingPlan;
  billing: BillingPeriod;
  featured?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const shown = open ? plan.features : plan.features.slice(0, CARD_FEATURES);
  const more = plan.features.length - CARD_FEATURES;
  const listId = `plan-${plan.id}-features`;
  const headingId = `plan-${plan.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        "relative flex w-full flex-col rounded-2xl border bg-card p-6 shadow-sm",
        featured && "border-primary shadow-lg ring-1 ring-primary md:-translate-y-2",
      )}
    >
      {featured && (
        <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-primary px-3 py-1 text-xs font-semibold text-primary-foreground">
          Most Popular
        </span>
      )}
      <h2 id={headingId} className="text-xl font-semibold">
        {plan.name}
      </h2>
      {plan.description && <p className="mt-2 text-sm text-muted-foreground">{plan.description}</p>}
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight" data-testid="plan-price">
          {formatPrice(plan.prices[billing], plan.currency)}
        </span>
        <span className="text-sm text-muted-foreground">{perPeriod(plan, billing)}</span>
      </p>
      <ul id={listId} className="mt-6 grid flex-1 content-start gap-3 text-sm" aria-label={`${plan.name} features`}>
        {shown.map((feature) => (
          <li key={feature.name} className={cn("flex items-start gap-2", !feature.included && "text-muted-foreground")}>
            {feature.included ? (
              <Check className="mt-0.5 size-4 shrink-0 text-success" aria-label="Included" />
            ) : (
              <X className="mt-0.5 size-4 shrink-0" aria-label="Not included" />
            )}
            {feature.name}
          </li>
        ))}
        {more > 0 && (
          <li className="pl-6">
            <button
              type="button"
              aria-expanded={open}
              aria-controls={listId}
              onClick={() => setOpen((o) => !o)}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              {open ? "Show less" : `+${more} more`}
            </button>
          </li>
        )}
      </ul>
      <Link
        to={setupHref(plan, billing)}
        className={buttonClasses(featured ? "default" : "outline", "lg", "mt-8 w-full")}
        aria-label={`Get Started with ${thePlan(plan.name)}`}
      >
        Get Started
      </Link>
      <p className="mt-3 text-center text-sm text-muted-foreground">
        or{" "}
        <Link
          to={`${setupHref(plan, billing)}&trial=1`}
          className="font-medium text-primary hover:underline"
          aria-label={`Start a 14-day free trial of ${thePlan(plan.name)}`}
        >
          start a 14-day free trial
        </Link>
      </p>
    </article>
  );
}
