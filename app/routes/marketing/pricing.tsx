import { useRef, useState } from "react";
import { data, Link } from "react-router";
import { CheckCircle2 } from "lucide-react";
import type { Route } from "./+types/pricing";
import { loadPricingPlans } from "~/lib/marketing.server";
import { seo } from "~/lib/seo";
import { BILLING_LABELS, BILLINGS, isBilling, type BillingPeriod } from "~/lib/pricing";
import { cn } from "~/lib/cn";
import { buttonClasses } from "~/components/ui/button";
import { PlanCard } from "~/components/marketing/plan-card";
import { Faq, type FaqItem } from "~/components/marketing/faq";
import { Section, SectionHeading } from "~/components/marketing/section";
import type { MarketingHandle } from "./layout";
import { TRIAL_START_PATH } from "#common/trial.ts";

export const handle: MarketingHandle = { header: "pricing" };

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: "Pricing",
    description:
      "Simple plans for coaching institutes, billed monthly, every 3 months or yearly. 14-day free trial, free setup, no credit card needed.",
    path: "/pricing",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const requested = new URL(request.url).searchParams.get("billing");
  const { plans, source } = await loadPricingPlans(context);
  // The stand-in plans are for this answer only: nothing may keep it (server/pages/kept-pages.ts, browsers, proxies).
  return data(
    { plans, source, billing: isBilling(requested) ? requested : ("monthly" as BillingPeriod) },
    source === "fallback" ? { headers: { "Cache-Control": "no-store" } } : undefined,
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const PRICING_FAQ: FaqItem[] = [
  {
    question: "Is there a free trial?",
    answer:
      "Yes. Every plan includes a 14-day free trial, so you can set up your website and invite students before you decide.",
  },
  {
    question: "Do I need a credit card to start?",
    answer: "No credit card is needed to start your free trial.",
  },
  {
    question: "Is there a setup fee?",
    answer: "No. Setup is free on every plan; you only pay the plan's price for the billing period you choose.",
  },
  {
    question: "Can I change my plan or billing period later?",
    answer: "Yes. You can move to another plan or billing period from your business dashboard whenever you need to.",
  },
  {
    question: "What if it is not right for my institute?",
    answer: "We offer a 30-day money-back guarantee. Write to us within 30 days of paying and we refund you in full.",
  },
  {
    question: "How can I pay?",
    answer: "Pay securely online by card, UPI or net banking. All prices are in Indian rupees (₹).",
  },
];

/** Monthly / 3 months / Yearly, as an ARIA tab list (arrow keys move between tabs). */
function BillingTabs({ value, onChange }: { value: BillingPeriod; onChange: (b: BillingPeriod) => void }) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  return (
    <div
      role="tablist"
      aria-label="Billing period"
      className="mx-auto inline-grid grid-cols-3 rounded-full border bg-muted p-1"
      onKeyDown={(event) => {
        const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
        if (!step) return;
        event.preventDefault();
        const next = BILLINGS[(BILLINGS.indexOf(value) + step + BILLINGS.length) % BILLINGS.length];
        onChange(next);
        refs.current[next]?.focus();
      }}
    >
      {BILLINGS.map((billing) => (
        <button
          key={billing}
          ref={(el) => {
            refs.current[billing] = el;
          }}
          type="button"
          role="tab"
          id={`tab-${billing}`}
          aria-selected={value === billing}
          aria-controls="plans-panel"
          tabIndex={value === billing ? 0 : -1}
          onClick={() => onChange(billing)}
          className={cn(
            "rounded-full px-4 py-2 text-sm font-medium transition-colors sm:px-6",
            value === billing
              ? "bg-background text-foreground shadow-sm"
              : "text-muted-foreground hover:text-foreground",
          )}
        >
          {BILLING_LABELS[billing]}
        </button>
      ))}
    </div>
  );
}

/**
 * Each card's width, so that no row leaves a card alone at one side: four plans sit in one row
 * on wide screens and two by two below; three or more otherwise in rows of three, the last row
 * centred.
 */
function planWidth(count: number): string {
  if (count === 1) return "max-w-md";
  if (count === 2) return "md:w-[calc(50%-0.75rem)]";
  if (count === 4) return "md:w-[calc(50%-0.75rem)] xl:w-[calc(25%-1.125rem)]";
  return "md:w-[calc(50%-0.75rem)] lg:w-[calc((100%-3rem)/3)]";
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { plans } = loaderData;
  const [billing, setBilling] = useState<BillingPeriod>(loaderData.billing);
  // One 'Most Popular' badge: the first popular plan in display order, if several are marked.
  const popularId = plans.find((p) => p.isPopular)?.id;
  return (
    <>
      <Section className="bg-gradient-to-b from-primary/5 to-background">
        <SectionHeading eyebrow="Pricing" title="Simple, transparent pricing" as="h1">
          Choose the plan that fits your institute. Every plan starts with a 14-day free trial and free setup.
        </SectionHeading>
        <div className="mt-10 text-center">
          <BillingTabs value={billing} onChange={setBilling} />
        </div>
        <div id="plans-panel" role="tabpanel" aria-labelledby={`tab-${billing}`} className="mt-12">
          {plans.length === 0 ? (
            <p className="rounded-2xl border border-dashed p-10 text-center text-muted-foreground">
              No pricing plans available at the moment.
            </p>
          ) : (
            <div className={cn("mx-auto flex flex-wrap justify-center gap-6", plans.length <= 2 && "max-w-3xl")}>
              {plans.map((plan) => (
                <div key={plan.id} className={cn("flex w-full", planWidth(plans.length))}>
                  <PlanCard plan={plan} billing={billing} featured={plan.id === popularId} />
                </div>
              ))}
            </div>
          )}
        </div>
        <ul className="mt-10 flex flex-wrap justify-center gap-x-8 gap-y-2 text-sm text-muted-foreground">
          {["14-day free trial", "Free setup", "No credit card needed", "30-day money-back guarantee"].map((item) => (
            <li key={item} className="inline-flex items-center gap-2">
              <CheckCircle2 className="size-4 text-success" aria-hidden /> {item}
            </li>
          ))}
        </ul>
      </Section>

      <Section className="bg-muted/40">
        <SectionHeading eyebrow="FAQ" title="Questions about pricing" />
        <Faq items={PRICING_FAQ} className="mx-auto mt-10 max-w-3xl" />
      </Section>

      <section aria-labelledby="pricing-cta" className="bg-slate-950 text-white">
        <div className="mx-auto max-w-6xl px-4 py-16 text-center sm:px-6">
          <h2 id="pricing-cta" className="text-3xl font-bold tracking-tight">
            Start your 14-day free trial
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-slate-200">
            Set up your institute today, or talk to our team about a plan for several branches.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Link to={TRIAL_START_PATH} className={buttonClasses("accent", "lg")}>
              Start Free Trial
            </Link>
            <Link to="/contact" className={buttonClasses("onDark", "lg")}>
              Contact Sales
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
