import * as v from "valibot";
import { emailSchema, text } from "./account.ts";
import { INVALID_PHONE, optionalPhoneSchema } from "./phone.ts";
import { BILLINGS } from "./plans.ts";
import { NAME_READS_AS_PLATFORM, readsAsPlatformName } from "../platform-name.ts";

/**
 * The setup wizard (spec §2 "Pricing and setup", §5 "Wizard") and the order it places
 * (§7 POST /payment/create-order). Beyond the spec: the domain must be a host name and the
 * email an email address.
 */

export const DOMAIN_EXAMPLE = "yourinstitute.com";
export const INVALID_DOMAIN = `Please enter a valid domain (e.g., ${DOMAIN_EXAMPLE})`;

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * What people type for a domain, in the one form we store: lower case, no scheme, path, port or
 * trailing dot; international names in their ASCII (punycode) form.
 */
export function normaliseDomainInput(raw: string): string {
  let s = raw.trim().toLowerCase();
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  s = s.split(/[/?#]/)[0] ?? "";
  s = s.replace(/:\d*$/, "").replace(/\.$/, "");
  if (!s || /\s/.test(s)) return s;
  try {
    return new URL(`http://${s}`).hostname.replace(/\.$/, "");
  } catch {
    return s;
  }
}

export function isValidDomain(domain: string): boolean {
  return DOMAIN.test(domain);
}

export const instituteNameSchema = v.pipe(
  text("Institute/Brand name is required"),
  v.trim(),
  v.nonEmpty("Institute/Brand name is required"),
  v.maxLength(120, "Institute/Brand name is too long"),
  // Its messages carry this name: it must not pass for the platform's (issue 37 §1).
  v.check((name) => !readsAsPlatformName(name), NAME_READS_AS_PLATFORM),
);

export const domainSchema = v.pipe(
  text("Domain name is required"),
  v.transform(normaliseDomainInput),
  v.nonEmpty("Domain name is required"),
  v.check(isValidDomain, INVALID_DOMAIN),
);

export const ownerNameSchema = v.pipe(
  text("Owner/Director full name is required"),
  v.trim(),
  v.nonEmpty("Owner/Director full name is required"),
  v.maxLength(100, "Owner/Director full name is too long"),
);

/** Optional; when given, a valid number the institute can be called on, as its site will show it (./phone.ts). */
export const phoneSchema = optionalPhoneSchema(INVALID_PHONE);

/** Steps 1 and 2 of the wizard. */
export const SetupDetailsSchema = v.object({
  brandName: instituteNameSchema,
  domainName: domainSchema,
  ownerName: ownerNameSchema,
  email: emailSchema,
  phone: phoneSchema,
});
export type SetupDetails = v.InferOutput<typeof SetupDetailsSchema>;

export const Step1Schema = v.object({ brandName: instituteNameSchema, domainName: domainSchema });
export const Step2Schema = v.object({ ownerName: ownerNameSchema, email: emailSchema, phone: phoneSchema });

/** The wizard's fields as the order and the free trial both take them. */
export const WIZARD_FIELDS = {
  institute: instituteNameSchema,
  domain: domainSchema,
  owner: ownerNameSchema,
  email: emailSchema,
  phone: phoneSchema,
  plan: v.pipe(
    text("Plan is required"),
    v.trim(),
    v.nonEmpty("Plan is required"),
    v.maxLength(120, "Plan is not known"),
  ),
  billing: v.optional(v.picklist(BILLINGS, "Billing must be monthly, quarterly or yearly"), "monthly"),
};

/**
 * POST /api/payment/create-order. `amount`, `currency` and `durationDays` are accepted for
 * compatibility with the spec's payload and ignored: the server prices the order from its plan.
 */
export const CreateOrderSchema = v.object({
  ...WIZARD_FIELDS,
  amount: v.optional(v.unknown()),
  currency: v.optional(v.unknown()),
  durationDays: v.optional(v.unknown()),
});
export type CreateOrderInput = v.InferOutput<typeof CreateOrderSchema>;

/** POST /api/payment/verify (the Checkout handler's answer). */
export const VerifyPaymentSchema = v.object({
  razorpay_order_id: v.pipe(
    text("razorpay_order_id is required"),
    v.trim(),
    v.nonEmpty("razorpay_order_id is required"),
    v.maxLength(100, "razorpay_order_id is too long"),
  ),
  razorpay_payment_id: v.pipe(
    text("razorpay_payment_id is required"),
    v.trim(),
    v.nonEmpty("razorpay_payment_id is required"),
    v.maxLength(100, "razorpay_payment_id is too long"),
  ),
  razorpay_signature: v.pipe(
    text("razorpay_signature is required"),
    v.trim(),
    v.nonEmpty("razorpay_signature is required"),
    v.maxLength(200, "razorpay_signature is too long"),
  ),
});
export type VerifyPaymentInput = v.InferOutput<typeof VerifyPaymentSchema>;
