import type { Tx } from "../db/types.ts";

/**
 * Razorpay Payment Links as the webhook sees them (issue 42 §3). A link is made by whoever sells
 * through it (fees, for now) on a merchant account; its webhooks (`payment_link.paid`,
 * `payment_link.partially_paid`, `payment_link.expired`, `payment_link.cancelled`) are signed
 * with that account's webhook secret and applied, in the delivery's transaction, by the one
 * handler registered here, so that a payment of a link is taken once whatever repeats.
 */

export const PAYMENT_LINK_EVENTS = [
  "payment_link.paid",
  "payment_link.partially_paid",
  "payment_link.expired",
  "payment_link.cancelled",
] as const;
export type PaymentLinkEventName = (typeof PAYMENT_LINK_EVENTS)[number];

export const isPaymentLinkEvent = (event: string): event is PaymentLinkEventName =>
  (PAYMENT_LINK_EVENTS as readonly string[]).includes(event);

/** One delivery about a link: the link, and for a payment, the payment it reports. */
export interface PaymentLinkEvent {
  event: PaymentLinkEventName;
  /** The gateway's link id (`plink_…`). */
  linkId: string;
  /** Our own id, given as `reference_id` when the link was made. */
  referenceId: string | null;
  /** The payment this delivery reports (paid and partially paid). */
  payment?: { id: string; amount: number; currency: string };
}

export interface PaymentLinkHandler {
  /** The merchant account a link was made on (null: the platform's); undefined for a link we never made. */
  accountOf(linkId: string): Promise<string | null | undefined>;
  /** Applies one delivery inside the webhook's transaction; false for a link we never made. */
  apply(tx: Tx, event: PaymentLinkEvent): Promise<boolean>;
}

/** The registry the webhook asks: one handler, registered where the service that makes links is made. */
export class PaymentLinks {
  private handler: PaymentLinkHandler | null = null;

  register(handler: PaymentLinkHandler): void {
    if (this.handler) throw new Error("a payment link handler is already registered");
    this.handler = handler;
  }

  async accountOf(linkId: string): Promise<string | null | undefined> {
    return this.handler ? this.handler.accountOf(linkId) : undefined;
  }

  async apply(tx: Tx, event: PaymentLinkEvent): Promise<boolean> {
    return this.handler ? this.handler.apply(tx, event) : false;
  }
}
