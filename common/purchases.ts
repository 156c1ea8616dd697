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
