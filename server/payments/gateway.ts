/**
 * The payment gateway as the rest of the server sees it. Plan purchases use it now; paid
 * content orders reuse it. Amounts are integer minor units (paise), always computed by the
 * server from its own records.
 */

export interface CreateGatewayOrder {
  /** Minor units (paise); at least 100. */
  amount: number;
  currency: "INR";
  /** Our own id for the order (at most 40 characters), e.g. the purchase's id. */
  receipt: string;
  /** Shown in the gateway's dashboard; never trusted on the way back. */
  notes?: Record<string, string>;
}

export interface GatewayOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  status: string;
}

/** A refund of a captured payment (Razorpay's `payments.refund`). */
export interface CreateGatewayRefund {
  paymentId: string;
  /** Minor units; the whole payment for a money-back refund. */
  amount: number;
  /** Sent as `X-Refund-Idempotency` (10+ characters): a retry with the same key refunds once. */
  idempotencyKey: string;
  receipt?: string;
  notes?: Record<string, string>;
}

export interface GatewayRefund {
  id: string;
  paymentId: string;
  amount: number;
  currency: string;
  /** "pending" or "processed" (Razorpay settles normal refunds in the background). */
  status: string;
}

/**
 * A Razorpay Payment Link (`POST /v1/payment_links`): a page at `short_url` where the customer
 * pays `amount`, in parts when `acceptPartial`, until `expireBy`.
 */
export interface CreatePaymentLink {
  /** Minor units; at least 100. */
  amount: number;
  currency: "INR";
  acceptPartial: boolean;
  /** When the link stops taking payments (Razorpay: at least 15 minutes ahead). */
  expireBy: Date;
  /** Our own id for the link (at most 40 characters; unique per account at Razorpay). */
  referenceId: string;
  description: string;
  customer: { name: string; email?: string; contact?: string };
  notes?: Record<string, string>;
}

export interface GatewayPaymentLink {
  id: string;
  shortUrl: string;
  amount: number;
  status: string;
  referenceId: string;
}

/** A Razorpay customer (`POST /v1/customers` with `fail_existing: "0"`): recurring tokens hang on one. */
export interface CreateGatewayCustomer {
  name: string;
  email?: string;
  contact?: string;
  notes?: Record<string, string>;
}

/** The two standing instructions Razorpay's recurring payments offer for fees. */
export type MandateMethod = "upi" | "emandate";

/**
 * The authorisation order of a mandate (`POST /v1/orders` with `customer_id`, `method` and
 * `token`): paid in Checkout opened with `customer_id` and `recurring: 1`, it makes the token
 * later debits are charged to. UPI Autopay's authorisation is a real payment (at least 100 paise)
 * with `frequency: "monthly"`; an e-mandate's is 0 with `auth_type: "netbanking"`.
 */
export interface CreateMandateOrder {
  method: MandateMethod;
  customerId: string;
  /** Paise: 100 or more for UPI, 0 for an e-mandate. */
  amount: number;
  /** Paise: the most one debit may ever be. */
  maxAmount: number;
  /** When the mandate ends. */
  expireAt: Date;
  receipt: string;
  notes?: Record<string, string>;
}

/** A payment as `GET /v1/payments/:id` reports it; `tokenId` is set for a mandate's authorisation. */
export interface GatewayPayment {
  id: string;
  orderId: string | null;
  amount: number;
  /** "created", "authorized", "captured", "refunded" or "failed". */
  status: string;
  method: string;
  tokenId: string | null;
  customerId: string | null;
}

/** A recurring token (`GET /v1/customers/:customer_id/tokens/:token_id`). */
export interface GatewayToken {
  id: string;
  method: MandateMethod;
  /** "initiated" (an e-mandate the bank has not approved yet), "confirmed", "rejected", "cancelled", "paused". */
  status: string;
  maxAmount: number;
  expireAt: Date | null;
}

/**
 * One debit on a confirmed token (`POST /v1/payments/create/recurring`) for an order made for it
 * (`createOrder`). The gateway sends the payer its pre-debit notice and debits a day or so later;
 * the outcome arrives by webhook (`payment.captured` and `order.paid`, or `payment.failed`).
 */
export interface CreateRecurringPayment {
  orderId: string;
  customerId: string;
  tokenId: string;
  /** Paise: the order's amount, at most the token's `maxAmount`. */
  amount: number;
  email: string;
  contact: string;
  description: string;
  notes?: Record<string, string>;
}

/** What the browser's Checkout hands back after a successful payment. */
export interface CheckoutResult {
  orderId: string;
  paymentId: string;
  signature: string;
}

export interface PaymentGateway {
  /** "razorpay" or "sandbox" (the offline stand-in, same protocol). */
  readonly name: string;
  /** Public key the browser's Checkout is opened with. */
  readonly keyId: string;
  /** URL of the Checkout script for the browser. */
  readonly checkoutScript: string;
  createOrder(input: CreateGatewayOrder): Promise<GatewayOrder>;
  refund(input: CreateGatewayRefund): Promise<GatewayRefund>;
  /** A Payment Link on this account; we send it ourselves, so Razorpay is asked not to notify. */
  createPaymentLink(input: CreatePaymentLink): Promise<GatewayPaymentLink>;
  /** A customer to hang mandates on (the existing one when the same details were given before). */
  createCustomer(input: CreateGatewayCustomer): Promise<{ id: string }>;
  /** The order whose Checkout payment authorises a mandate. */
  createMandateOrder(input: CreateMandateOrder): Promise<GatewayOrder>;
  fetchPayment(paymentId: string): Promise<GatewayPayment>;
  fetchToken(customerId: string, tokenId: string): Promise<GatewayToken>;
  /** Presents one debit on a token; the payment id it answers settles by webhook. */
  createRecurringPayment(input: CreateRecurringPayment): Promise<{ paymentId: string }>;
  /** Ends a mandate at the gateway (`DELETE /v1/customers/:customer_id/tokens/:token_id`). */
  cancelToken(customerId: string, tokenId: string): Promise<void>;
  /** Whether the gateway accepts these keys (false when refused; throws when it cannot tell). */
  checkKeys(): Promise<boolean>;
  /** HMAC-SHA256(order_id|payment_id) with the key secret, compared in constant time. */
  verifyCheckout(result: CheckoutResult): boolean;
  /** HMAC-SHA256 of the raw body with the webhook secret, compared in constant time. */
  verifyWebhook(rawBody: string, signature: string | undefined): boolean;
}

/** The gateway refused or could not be reached; the message is for logs, not for people. */
export class GatewayError extends Error {
  readonly status?: number;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}
