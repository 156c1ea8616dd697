import * as v from "valibot";
import { formatDate, formatRupees } from "../format.ts";
import type { RecurringRail } from "../fee-rails.ts";

/**
 * Standing instructions for monthly fees (issue 42 §7, decision 0051): UPI Autopay for dues up to
 * ₹15,000, a bank e-mandate (NACH) above, set up by the student or a linked parent in Checkout on
 * the institute's own account, and each due then debited a couple of days before its last date.
 * The bodies and the messages people read.
 */

export const FEE_MANDATE_NOT_FOUND = "Standing instruction not found";
export const FEE_MANDATE_NOT_MONTHLY =
  "This plan's dues are not monthly: pay each due as it comes (Pay), or by a payment link from the institute.";
export const FEE_MANDATE_NOTHING_AHEAD = "No dues are left to collect on this account.";
export const FEE_MANDATE_OWN_ONLY = "Only the student or their parent sets up a standing instruction for their fees.";
export const FEE_MANDATE_FAILED = "The payment gateway could not start the standing instruction. Please try again.";
export const FEE_MANDATE_NOT_VERIFIED = "The authorisation could not be verified. Please try again.";
export const FEE_MANDATE_CANCEL_FAILED =
  "The payment gateway could not cancel the standing instruction. Nothing changed; please try again.";
export const FEE_MANDATE_ENDED = "This standing instruction has ended.";
export const FEE_MANDATE_REVOKED_BY_PAYER = "Cancelled from the payer's bank or UPI app.";
export const feeMandateExists = (rail: string) => `${rail} is already set up for this account.`;

export const RAIL_NAMES: Record<Exclude<RecurringRail, null>, string> = {
  "upi-autopay": "UPI Autopay",
  "e-mandate": "Bank e-mandate (NACH)",
};

export type FeeMandateStatus = "created" | "pending" | "active" | "rejected" | "cancelled";

export const MANDATE_STATUS_LABELS: Record<FeeMandateStatus, string> = {
  created: "Not authorised yet",
  pending: "Waiting for the bank's approval",
  active: "Active",
  rejected: "Refused by the bank",
  cancelled: "Cancelled",
};

/** What the Fees page says of a live mandate, in words. */
export const mandateWords = (
  m: Pick<FeeMandateJson, "rail" | "status" | "maxAmount" | "expiresAt">,
  /** The family's page speaks to the payer; the institute's desk reads about them. */
  audience: "family" | "institute",
) => {
  const limit = `up to ${formatRupees(m.maxAmount)} a month`;
  if (m.status === "pending")
    return audience === "family"
      ? `${RAIL_NAMES[m.rail]} is waiting for your bank's approval (${limit}). Until then, pay each due as it comes.`
      : `${RAIL_NAMES[m.rail]} is waiting for the payer's bank to approve it (${limit}).`;
  const collects = `${RAIL_NAMES[m.rail]} collects each due a couple of days before its last date (${limit}, until ${formatDate(m.expiresAt)}).`;
  return audience === "family" ? `${collects} You are told before each debit.` : collects;
};

/** A debit presented on a mandate, and how it went: its order's outcome. */
export interface FeeMandateDebitJson {
  _id: string;
  dueId: string;
  label: string;
  /** Rupees. */
  amount: number;
  presentedOn: string;
  status: "presented" | "paid" | "failed";
  /** Why it failed or could not be presented. */
  error: string | null;
}

export interface FeeMandateJson {
  _id: string;
  accountId: string;
  payerId: string;
  payerName: string;
  rail: Exclude<RecurringRail, null>;
  status: FeeMandateStatus;
  statusReason: string | null;
  /** Rupees: the most one debit may be. */
  maxAmount: number;
  expiresAt: string;
  createdAt: string;
  activatedAt: string | null;
  cancelledAt: string | null;
  debits: FeeMandateDebitJson[];
}

/** What opening Checkout to authorise a mandate needs (its `recurring: 1` flow). */
export interface FeeMandateCheckoutJson {
  mandate: FeeMandateJson;
  order: { id: string; amount: number; currency: string };
  key_id: string;
  customer_id: string;
  institute: string;
  description: string;
}

/** `POST /api/fee-accounts/{id}/mandate`: nothing to say (the rail and its limit follow the plan's dues); `{}` or no body. */
export const FeeMandateStartInput = v.optional(v.object({}, "The body must be a JSON object"), {});

/** `POST /api/fee-mandates/{id}/confirm`: Checkout's signed answer for the authorisation. */
export const FeeMandateConfirmInput = v.object({
  razorpay_order_id: v.pipe(v.string("razorpay_order_id is required"), v.nonEmpty("razorpay_order_id is required")),
  razorpay_payment_id: v.pipe(
    v.string("razorpay_payment_id is required"),
    v.nonEmpty("razorpay_payment_id is required"),
  ),
  razorpay_signature: v.pipe(v.string("razorpay_signature is required"), v.nonEmpty("razorpay_signature is required")),
});
export type FeeMandateConfirmInput = v.InferOutput<typeof FeeMandateConfirmInput>;

/** `POST /api/fee-mandates/{id}/cancel`: an optional reason (the payer's or the desk's words). */
export const FeeMandateCancelInput = v.optional(
  v.object({
    reason: v.optional(
      v.pipe(v.string("The reason must be text"), v.trim(), v.maxLength(300, "Keep the reason under 300 characters")),
    ),
  }),
  {},
);
export type FeeMandateCancelInput = v.InferOutput<typeof FeeMandateCancelInput>;
