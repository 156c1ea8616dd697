/** Pricing as the public pages show it (client-safe). */

export const BILLINGS = ["monthly", "quarterly", "yearly"] as const;
export type BillingPeriod = (typeof BILLINGS)[number];

/** The spec's tab labels (§9). */
export const BILLING_LABELS: Record<BillingPeriod, string> = {
  monthly: "Monthly",
  quarterly: "3 months",
  yearly: "Yearly",
};

/** How many features a card lists before '+N more'. */
export const CARD_FEATURES = 3;

export interface PricingPlan {
  id: string;
  name: string;
  description: string;
  currency: string;
  /** Rupees. */
  prices: Record<BillingPeriod, number>;
  quarterlyMonths: number;
  yearlyYears: number;
  isPopular: boolean;
  features: { name: string; included: boolean }[];
}

/** From the API's plan shape (spec §3) to what a card needs. */
export function toPricingPlan(plan: {
  _id: string;
  name: string;
  description: string;
  pricing: Record<BillingPeriod, { price: number; currency: string }>;
  quarterlyMonths: number;
  yearlyYears: number;
  isPopular: boolean;
  features: { name: string; included: boolean }[];
}): PricingPlan {
  return {
    id: plan._id,
    name: plan.name,
    description: plan.description,
    currency: plan.pricing.monthly.currency,
    prices: {
      monthly: plan.pricing.monthly.price,
      quarterly: plan.pricing.quarterly.price,
      yearly: plan.pricing.yearly.price,
    },
    quarterlyMonths: plan.quarterlyMonths,
    yearlyYears: plan.yearlyYears,
    isPopular: plan.isPopular,
    features: plan.features.map((f) => ({ name: f.name, included: f.included })),
  };
}

const inr = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 2 });

/** ₹5,000 (Indian digit grouping: ₹1,00,000). */
export function formatPrice(amount: number, currency = "INR"): string {
  return currency === "INR" ? `₹${inr.format(amount)}` : `${currency} ${inr.format(amount)}`;
}

/** "/month", "/3 months", "/year", "/2 years". */
export function perPeriod(plan: Pick<PricingPlan, "quarterlyMonths" | "yearlyYears">, billing: BillingPeriod): string {
  if (billing === "monthly") return "/month";
  if (billing === "quarterly") return `/${plan.quarterlyMonths} month${plan.quarterlyMonths === 1 ? "" : "s"}`;
  return plan.yearlyYears === 1 ? "/year" : `/${plan.yearlyYears} years`;
}

/** Where 'Get Started' leads: the setup wizard with the plan, its price and the billing period. */
export function setupHref(plan: Pick<PricingPlan, "name" | "prices">, billing: BillingPeriod): string {
  return `/pricing/setup?plan=${encodeURIComponent(plan.name)}&price=${plan.prices[billing]}&billing=${billing}`;
}

export function isBilling(value: unknown): value is BillingPeriod {
  return typeof value === "string" && (BILLINGS as readonly string[]).includes(value);
}
