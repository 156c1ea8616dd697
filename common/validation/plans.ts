import * as v from "valibot";
import { text } from "./account.ts";
import { storable } from "./storable.ts";

/** Pricing plans (spec §3 "Pricing plan"): one schema for the API and the admin editors. */

export const BILLINGS = ["monthly", "quarterly", "yearly"] as const;
export type Billing = (typeof BILLINGS)[number];

/** The most a plan may cost for one period, in rupees (₹1 crore); keeps paise within a 32-bit integer. */
export const MAX_PLAN_PRICE = 10_000_000;
export const MAX_PLAN_FEATURES = 30;

const LABELS: Record<Billing, string> = { monthly: "Monthly", quarterly: "Quarterly", yearly: "Yearly" };

/** A required number whose absence and whose wrong type each get their own message. */
const requiredNumber = (required: string, notNumber: string) =>
  v.pipe(
    // A missing key reads as "" so that it fails with this field's own message.
    v.optional(v.unknown(), ""),
    v.check((x) => x !== null && x !== "", required),
    v.check((x) => x === null || x === "" || (typeof x === "number" && Number.isFinite(x)), notNumber),
    v.transform((x) => x as number),
  );

const priceEntry = (billing: Billing) => {
  const label = LABELS[billing];
  return v.optional(
    v.object(
      {
        price: v.pipe(
          requiredNumber(`${label} price is required`, `${label} price must be a number`),
          v.integer(`${label} price must be a whole number of rupees`),
          v.minValue(0, `${label} price cannot be negative`),
          v.maxValue(MAX_PLAN_PRICE, `${label} price cannot be more than ₹${MAX_PLAN_PRICE.toLocaleString("en-IN")}`),
        ),
        currency: v.optional(v.picklist(["INR"], "Currency must be INR"), "INR"),
      },
      `${label} pricing must be an object with a price`,
    ),
    {},
  );
};

const wholeAtLeastOne = (label: string, max: number) =>
  v.pipe(
    v.number(`${label} must be a number`),
    v.integer(`${label} must be a whole number`),
    v.minValue(1, `${label} must be at least 1`),
    v.maxValue(max, `${label} must be at most ${max}`),
  );

const flag = (label: string) => v.boolean(`${label} must be true or false`);

export const PlanFeatureSchema = v.object(
  {
    name: v.pipe(
      text("Feature name is required"),
      v.trim(),
      v.nonEmpty("Feature name is required"),
      v.maxLength(120, "Feature name is too long"),
    ),
    description: v.pipe(
      v.optional(v.string("Feature description must be text"), ""),
      storable("Feature description"),
      v.trim(),
      v.maxLength(300, "Feature description is too long"),
    ),
    included: v.optional(flag("Feature included"), true),
  },
  "Each feature must be an object with a name",
);

/** A whole plan (POST /api/pricing, and every save after merging an edit onto the stored plan). */
export const PlanSchema = v.object(
  {
    name: v.pipe(
      text("Plan name is required"),
      v.trim(),
      v.nonEmpty("Plan name is required"),
      v.maxLength(80, "Plan name is too long"),
    ),
    description: v.pipe(
      v.optional(v.string("Description must be text"), ""),
      storable("Description"),
      v.trim(),
      v.maxLength(500, "Description is too long"),
    ),
    pricing: v.optional(
      v.object(
        { monthly: priceEntry("monthly"), quarterly: priceEntry("quarterly"), yearly: priceEntry("yearly") },
        "Pricing must be an object",
      ),
      {},
    ),
    activeDuration: v.optional(v.picklist(BILLINGS, "Active duration must be monthly, quarterly or yearly"), "monthly"),
    quarterlyMonths: v.optional(wholeAtLeastOne("Quarterly months", 12), 3),
    yearlyYears: v.optional(wholeAtLeastOne("Yearly years", 10), 1),
    features: v.optional(
      v.pipe(
        v.array(PlanFeatureSchema, "Features must be a list"),
        v.maxLength(MAX_PLAN_FEATURES, `A plan can have at most ${MAX_PLAN_FEATURES} features`),
      ),
      [],
    ),
    isActive: v.optional(flag("Active"), true),
    isPopular: v.optional(flag("Popular"), false),
    order: v.optional(
      v.pipe(
        v.number("Display order must be a number"),
        v.integer("Display order must be a whole number"),
        v.minValue(0, "Display order cannot be negative"),
        v.maxValue(10_000, "Display order must be at most 10000"),
      ),
      0,
    ),
  },
  "The plan must be a JSON object",
);

/** A plan as the API and the pages show it (spec §3 "Pricing plan"): prices in rupees. */
export interface PlanJson {
  _id: string;
  name: string;
  description: string;
  pricing: Record<Billing, { price: number; currency: string }>;
  activeDuration: Billing;
  quarterlyMonths: number;
  yearlyYears: number;
  features: { name: string; description?: string; included: boolean }[];
  isActive: boolean;
  isPopular: boolean;
  order: number;
  createdAt: string;
  updatedAt: string;
}

export type PlanInput = v.InferInput<typeof PlanSchema>;
export type PlanData = v.InferOutput<typeof PlanSchema>;

/**
 * A price typed into a plan editor, in whole rupees. The spec (§5) parses it "as integer, invalid
 * becomes 0"; that published plans at ₹0 on a typo, so a price that is not a whole, non-negative
 * number of rupees is refused with the field's message instead (decision 0021). Grouping commas,
 * spaces and a leading ₹ are allowed ("₹5,000").
 */
export function readPriceInput(
  value: unknown,
  billing: Billing,
): { ok: true; price: number } | { ok: false; message: string } {
  const label = LABELS[billing];
  const typed = typeof value === "string" ? value.replace(/[,\s]/g, "").replace(/^₹/, "") : "";
  if (typed === "") return { ok: false, message: `${label} price is required` };
  if (/^-\d/.test(typed)) return { ok: false, message: `${label} price cannot be negative` };
  if (!/^\d+$/.test(typed)) return { ok: false, message: `${label} price must be a whole number of rupees` };
  const price = Number(typed);
  if (price > MAX_PLAN_PRICE)
    return {
      ok: false,
      message: `${label} price cannot be more than ₹${MAX_PLAN_PRICE.toLocaleString("en-IN")}`,
    };
  return { ok: true, price };
}

/** Spec §9 billing labels: Monthly, '3 months' (quarterlyMonths 3), Yearly (yearlyYears 1). */
export function billingLabel(billing: Billing, plan: { quarterlyMonths?: number; yearlyYears?: number } = {}): string {
  if (billing === "monthly") return "Monthly";
  if (billing === "quarterly") return `${plan.quarterlyMonths ?? 3} months`;
  const years = plan.yearlyYears ?? 1;
  return years === 1 ? "Yearly" : `${years} years`;
}

/** "per month", "per 3 months", "per year". */
export function billingPeriod(billing: Billing, plan: { quarterlyMonths?: number; yearlyYears?: number } = {}): string {
  if (billing === "monthly") return "per month";
  if (billing === "quarterly") return `per ${plan.quarterlyMonths ?? 3} months`;
  const years = plan.yearlyYears ?? 1;
  return years === 1 ? "per year" : `per ${years} years`;
}

export function isBilling(value: unknown): value is Billing {
  return typeof value === "string" && (BILLINGS as readonly string[]).includes(value);
}

/** ₹5,000 (whole rupees shown without paise). */
export function formatRupees(rupees: number): string {
  return `₹${rupees.toLocaleString("en-IN", { minimumFractionDigits: Number.isInteger(rupees) ? 0 : 2, maximumFractionDigits: 2 })}`;
}
