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
}
