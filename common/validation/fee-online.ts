import * as v from "valibot";
import { rupees } from "./fees.ts";
import { formatRupees } from "../format.ts";

/**
 * Fees paid online (issue 42 §3, decision 0046): a student's Checkout on the institute's own
 * account and the Payment Links its desk sends. The bodies and the messages people read.
 */

export const FEE_DUE_NOT_FOUND = "Fee due not found";
export const FEE_DUE_SETTLED = "This due is paid: nothing is owed on it.";
export const FEE_PAY_OWN_ONLY =
  "Only the student or their parent pays dues online; take this payment at the desk instead.";
export const FEE_PARTIAL_OFF =
  "This institute takes a due's whole balance online; part payments are taken at its front desk.";
export const FEE_ONLINE_MINIMUM = "Online payments start at ₹1: pay this at the front desk.";
export const notTakingFeesOnline = (institute: string) =>
  `${institute} does not take fees online yet: it has not connected its payment account. Please pay at its front desk.`;
export const moreThanAccountOwes = (balance: number) =>
  `You can pay at most ${formatRupees(balance)}, what this fee account still owes.`;
export const FEE_EXCESS_REFUND_FAILED =
  "Your payment reached the institute, but returning the part no longer owed failed at the gateway. It is retried when the gateway reports the payment again; nothing more is taken.";

/** `POST /api/fee-dues/{id}/pay`: the due's balance, or a part of what the account owes where the institute allows it. */
export const FeePayInput = v.optional(
  v.object({
    amount: v.optional(rupees("The amount")),
  }),
  {},
);
export type FeePayInput = v.InferOutput<typeof FeePayInput>;

export const FEE_LINK_DAYS = { default: 7, max: 30 } as const;

/** `POST /api/fee-dues/{id}/link`: how many days the link takes payments (7 unless given). */
export const FeeLinkInput = v.optional(
  v.object({
    expiresInDays: v.optional(
      v.pipe(
        v.number("Days must be a number"),
        v.integer("Days must be a whole number"),
        v.minValue(1, "A link must take payments for at least a day"),
        v.maxValue(FEE_LINK_DAYS.max, `A link can take payments for at most ${FEE_LINK_DAYS.max} days`),
      ),
    ),
  }),
  {},
);
export type FeeLinkInput = v.InferOutput<typeof FeeLinkInput>;

export type FeeLinkStatus = "created" | "partially_paid" | "paid" | "expired" | "cancelled";
export const FEE_LINK_STATUS_LABELS: Record<FeeLinkStatus, string> = {
  created: "Sent, not paid yet",
  partially_paid: "Part paid",
  paid: "Paid",
  expired: "Expired",
  cancelled: "Cancelled",
};

export interface FeePaymentLinkJson {
  _id: string;
  accountId: string;
  dueId: string | null;
  amount: number;
  acceptPartial: boolean;
  url: string;
  status: FeeLinkStatus;
  expiresAt: string | null;
  createdAt: string;
}

/** What `pay` answers: the Checkout order on the institute's account. */
export interface FeeCheckoutJson {
  order: { id: string; amount: number; currency: string };
  key_id: string;
  due: { _id: string; label: string };
  institute: string;
}

export const FEE_LINK_FAILED = "The payment link could not be made at the payment gateway just now. Please try again.";
