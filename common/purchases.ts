import type { Billing } from "./validation/plans.ts";

/** A plan purchase as the API answers it (GET /api/payment/purchases/my, create-order, verify). */
export interface PurchaseJson {
  _id: string;
  plan: string;
  billing: Billing;
  durationDays: number;
  domain: string;
  instituteName: string;
  ownerName: string;
  email: string;
  status: "created" | "paid" | "failed";
  currency: string;
  amount: number;
  centerId: string | null;
  orderId: string;
  createdAt: string;
  paidAt: string | null;
  /** The money-back refund of this purchase, if one was made (or is under way). */
  refund?: RefundJson | null;
}

/** A refund of a plan purchase (amount in minor units). */
export interface RefundJson {
  _id: string;
  amount: number;
  currency: string;
  status: "pending" | "processed" | "failed";
  /** The gateway's refund id (rfnd_…). */
  refundId: string | null;
  createdAt: string;
  processedAt: string | null;
}

/** A student's payment to an institute, as its owner and staff list it (amount in minor units). */
export interface StudentPaymentJson {
  /** The order's id (what a refund names). */
  _id: string;
  student: { name: string; email: string };
  /** What was bought, as its receipt names it ("Live class: Organic Chemistry"). */
  item: string;
  amount: number;
  currency: string;
  paidAt: string;
  /** The gateway's payment id (pay_…). */
  paymentId: string;
  /** Paid into the institute's own account (else the platform's, before it connected one): only those it refunds. */
  paidToInstitute: boolean;
  refund: RefundJson | null;
}

/** How many of an institute's student payments a page lists. */
export const STUDENT_PAYMENTS_PER_PAGE = 50;

export const STUDENT_PAYMENT_TEXTS = {
  refunded: "Payment refunded. The student's access to it has ended and their credit note is on its way.",
  paidToPlatform: "Paid to Pathshala",
  confirm: (student: string, amount: string) =>
    `Refund ${amount} to ${student}? It goes back through your Razorpay account, and their access to what they bought ends.`,
} as const;
