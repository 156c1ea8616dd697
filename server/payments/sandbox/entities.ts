/**
 * The sandbox's orders and payments as its API shows them, shared by the router and its
 * recurring payments (./recurring.ts).
 */

export interface SandboxOrder {
  id: string;
  entity: "order";
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  offer_id: null;
  status: "created" | "attempted" | "paid";
  attempts: number;
  notes: Record<string, string>;
  created_at: number;
  /** An authorisation order's (a mandate's): the customer, the method and the token's terms. */
  customer_id?: string;
  method?: "upi" | "emandate";
  token?: SandboxOrderToken;
}

/** The terms of the token an authorisation order makes, as Razorpay shows them on the order. */
export interface SandboxOrderToken {
  method: "upi" | "emandate";
  max_amount: number;
  expire_at: number;
  frequency?: string;
  auth_type?: string;
  recurring_status: null;
  failure_reason: null;
}

/** A payment as the API shows it; a recurring debit's changes as it settles. */
export type PaymentEntity = ReturnType<typeof paymentEntity> & Record<string, unknown>;

export function paymentEntity(
  order: Pick<SandboxOrder, "id" | "amount" | "currency" | "notes">,
  id: string,
  status: "created" | "captured" | "failed",
  who: { email: string; contact: string },
) {
  return {
    id,
    entity: "payment",
    amount: order.amount,
    currency: order.currency,
    status,
    order_id: order.id,
    invoice_id: null,
    international: false,
    method: "card",
    amount_refunded: 0,
    refund_status: null,
    captured: status === "captured",
    description: "Sandbox payment",
    card_id: null,
    bank: null,
    wallet: null,
    vpa: null,
    email: who.email,
    contact: who.contact,
    notes: order.notes,
    fee: 0,
    tax: 0,
    error_code: null as string | null,
    error_description: null as string | null,
    created_at: Math.floor(Date.now() / 1000),
  };
}
