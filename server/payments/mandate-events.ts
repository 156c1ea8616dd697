import { EventRegistry, isOneOf, type EventHandler } from "./event-registry.ts";

/**
 * Razorpay's recurring tokens (mandates) as the webhook sees them (issue 42 §7). A token is made
 * when a payer authorises a mandate in Checkout, on the merchant account of the institute the
 * payer owes; its state changes (`token.confirmed` when the bank or UPI app has registered it,
 * `token.rejected`, `token.cancelled` when either side ends it, `token.paused`) arrive signed with
 * that account's webhook secret and are applied, in the delivery's transaction, by the one handler
 * registered here (the fee mandate service), so that whatever repeats, each changes state once.
 */

const TOKEN_EVENTS = ["token.confirmed", "token.rejected", "token.cancelled", "token.paused"] as const;
export type TokenEventName = (typeof TOKEN_EVENTS)[number];

export const isTokenEvent = isOneOf(TOKEN_EVENTS);

/** One delivery about a token. */
export interface MandateEvent {
  event: TokenEventName;
  /** The gateway's token id (`token_…`). */
  tokenId: string;
  /** Why it was rejected or cancelled, in the gateway's words, when it says. */
  failureReason: string | null;
}

export interface MandateEventHandler extends EventHandler<MandateEvent> {
  /**
   * The merchant account a mandate's authorisation order was made on (undefined: none of ours):
   * the gateway's deliveries about that order are signed by it, though it is no order of the ledger.
   */
  accountOfOrder(orderId: string): Promise<string | null | undefined>;
}

/** Recurring tokens' deliveries go to the one handler registered here. */
export class MandateEvents extends EventRegistry<MandateEvent, MandateEventHandler> {
  async accountOfOrder(orderId: string): Promise<string | null | undefined> {
    return this.handler ? this.handler.accountOfOrder(orderId) : undefined;
  }
}
