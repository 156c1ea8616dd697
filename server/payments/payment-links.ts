import { EventRegistry, isOneOf, type EventHandler } from "./event-registry.ts";

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

export const isPaymentLinkEvent = isOneOf(PAYMENT_LINK_EVENTS);

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

export type PaymentLinkHandler = EventHandler<PaymentLinkEvent>;

/** Payment links' deliveries go to the one handler registered here. */
export class PaymentLinks extends EventRegistry<PaymentLinkEvent> {}
