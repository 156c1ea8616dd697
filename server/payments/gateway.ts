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
