import * as v from "valibot";
import { calendarDate } from "./dates.ts";
import { label, rupees } from "./fees.ts";
import { storable } from "./storable.ts";
import { formatRupees } from "../format.ts";

/**
 * Refunds when a student leaves (issue 42 §6, decision 0048): the API's bodies and the messages
 * people read. Amounts in rupees.
 */

export const FEE_REFUND_NOT_FOUND = "Refund not found";
export const FEE_REFUND_DONE = "This account has already been refunded: a student leaves once.";
export const FEE_NOTHING_PAID = "Nothing has been paid on this account, so there is nothing to refund.";
export const FEE_NOTHING_TO_REFUND =
  "The calculator proposes no refund: what was paid does not go beyond what the institute keeps. Give an amount to refund anyway.";
export const COURSE_DATES_UNKNOWN =
  "We do not know when this course runs (no batch with a last day under this plan): give its first and last day.";
export const COURSE_DATES_ORDER = "The course's last day must be on or after its first day";
export const LEFT_IN_FUTURE = "The day the student left cannot be in the future";
export const PAY_OUT_MODE_REQUIRED =
  "Say how the refund is paid out at the desk: cash, cheque, UPI or bank transfer (only online payments go back through the gateway).";
export const refundAbovePaid = (paid: number) =>
  `This is more than the ${formatRupees(paid)} paid on this account: refund at most that.`;
export const refundFailedAtGateway = (reason: string) =>
  `The payment gateway did not refund a payment: ${reason}. The refund is not finished and nothing is on the account yet: confirm it again to finish it (no payment is refunded twice).`;
export const FEE_REFUND_UNDER_WAY =
  "This account's refund is being made right now. If it has not finished in two minutes, confirm it again to finish it.";
/** Said by the desk while a refund of the account is confirmed and not finished. */
export const FEE_REFUND_UNFINISHED =
  "A refund of this account was confirmed and is not finished: finish it (confirm it again) before taking or reversing money on this account.";
/** A cheque or DD the bank has not yet paid: what a refund would give back is not money received. */
export const chequeNotCleared = (cheque: { kind: string; number: string; status: "held" | "deposited" }) => {
  const what = `${cheque.kind === "dd" ? "Demand draft" : "Cheque"} ${cheque.number}`;
  return cheque.status === "held"
    ? `${what} is still held: return or clear it before refunding.`
    : `${what} is deposited and not yet cleared: mark it cleared or bounced before refunding.`;
};

/** Where a confirmed refund is: being made, refused or unanswered at the gateway (`failed`), or made. */
export type FeeRefundRequestStatus = "pending" | "failed" | "done";

/** How money is paid out at the desk; online payments always go back through the gateway. */
export const PAY_OUT_MODES = ["cash", "cheque", "upi", "bank"] as const;
export type PayOutMode = (typeof PAY_OUT_MODES)[number];

export const REFUND_VOUCHER_TITLE = "Refund Voucher";

const courseDates = {
  /** The course's first day, when no batch under the plan says it. */
  courseFrom: v.optional(calendarDate("The course's first day")),
  courseTo: v.optional(calendarDate("The course's last day")),
};
const inOrder = (q: { courseFrom?: string; courseTo?: string }) =>
  !q.courseFrom || !q.courseTo || q.courseFrom <= q.courseTo;

/** `GET /api/fee-accounts/{id}/refund-quote?leftOn=`: the calculator's proposal. */
export const RefundQuoteQuery = v.pipe(
  v.object({ leftOn: calendarDate("The day the student left"), ...courseDates }),
  v.forward(
    v.check((q) => inOrder(q), COURSE_DATES_ORDER),
    ["courseTo"],
  ),
);

/** `POST /api/fee-accounts/{id}/refunds`: the owner confirms (an amount of their own, or the proposal). */
export const RefundInput = v.pipe(
  v.object({
    leftOn: calendarDate("The day the student left"),
    ...courseDates,
    /** Rupees; the calculator's proposal when left out. */
    amount: v.optional(rupees("The refund")),
    reason: label("The reason for the refund", 300),
    /** How what is not given back through the gateway is paid out. */
    mode: v.optional(v.picklist(PAY_OUT_MODES, `Pay-out mode must be one of ${PAY_OUT_MODES.join(", ")}`)),
    reference: v.optional(
      v.pipe(
        v.string("The reference must be text"),
        storable("The reference"),
        v.trim(),
        v.maxLength(60, "The reference is too long (60 characters at most)"),
      ),
    ),
  }),
  v.forward(
    v.check((q) => inOrder(q), COURSE_DATES_ORDER),
    ["courseTo"],
  ),
);
export type RefundInput = v.InferOutput<typeof RefundInput>;

/** The calculator's working in rupees (decision 0048). */
export interface RefundWorkingJson {
  leftOn: string;
  course: { from: string; to: string; from_batch: boolean };
  days: { used: number; total: number };
  fee: number;
  nonRefundable: { amount: number; heads: { name: string; amount: number }[] };
  refundableFee: number;
  usedFee: number;
  penalties: number;
  kept: number;
  paid: number;
  proposed: number;
  stillOwed: number;
  refundBy: string;
}

export interface FeeRefundJson {
  _id: string;
  number: string;
  accountId: string;
  leftOn: string;
  amount: number;
  throughGateway: number;
  paidOut: number;
  mode: PayOutMode | null;
  reference: string | null;
  reason: string;
  working: Omit<RefundWorkingJson, "course"> & { course: { from: string; to: string } };
  gateway: { receiptId: string; paymentId: string; amount: number; refundId: string; status: string }[];
  createdAt: string;
}

/** A cheque or DD of the account that has not cleared: no refund until it clears, bounces or is returned. */
export interface UnclearedChequeJson {
  _id: string;
  kind: "cheque" | "dd";
  number: string;
  chequeDate: string;
  amount: number;
  status: "held" | "deposited";
}

/** A refund confirmed and not finished: the gateway refused or did not answer, or it is being made now. */
export interface UnfinishedRefundJson {
  status: Exclude<FeeRefundRequestStatus, "done">;
  leftOn: string;
  amount: number;
  throughGateway: number;
  paidOut: number;
  /** The gateway's words for why the last try did not finish. */
  failure: string | null;
  createdAt: string;
  attemptedAt: string;
}

export interface RefundQuoteJson {
  accountId: string;
  student: { _id: string; name: string };
  planName: string;
  working: RefundWorkingJson;
  /** Online payments that would go back through the gateway first (newest first), in rupees. */
  online: { receiptId: string; number: string; paymentId: string; amount: number }[];
  /** Paid at the desk (cash, cheque, UPI, bank): paid out by the mode chosen. */
  atDesk: number;
  /** The account's cheques and DDs not yet cleared, by their dates. */
  uncleared: UnclearedChequeJson[];
  /** Why no refund can be made yet (the first uncleared cheque, named), in words; null when one can. */
  blocked: string | null;
  /** A refund confirmed earlier and not finished: confirming again finishes it as it was confirmed. */
  unfinished: UnfinishedRefundJson | null;
  refund: FeeRefundJson | null;
}
