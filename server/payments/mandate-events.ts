import type { Tx } from "../db/types.ts";

/**
 * Razorpay's recurring tokens (mandates) as the webhook sees them (issue 42 §7). A token is made
 * when a payer authorises a mandate in Checkout, on the merchant account of the institute the
 * payer owes; its state changes (`token.confirmed` when the bank or UPI app has registered it,
 * `token.rejected`, `token.cancelled` when either side ends it, `token.paused`) arrive signed with
 * that account's webhook secret and are applied, in the delivery's transaction, by the one handler
 * registered here (the fee mandate service), so that whatever repeats, each changes state once.
 */

export const TOKEN_EVENTS = ["token.confirmed", "token.rejected", "token.cancelled", "token.paused"] as const;
export type TokenEventName = (typeof TOKEN_EVENTS)[number];

export const isTokenEvent = (event: string): event is TokenEventName =>
  (TOKEN_EVENTS as readonly string[]).includes(event);

/** One delivery about a token. */
export interface MandateEvent {
  event: TokenEventName;
  /** The gateway's token id (`token_…`). */
  tokenId: string;
  /** The gateway's customer (`cust_…`) the token hangs on, when the delivery names it. */
  customerId: string | null;
  /**
   * The token's state as the delivery reports it (`recurring_details.status`): "confirmed",
   * "rejected", "cancelled", "paused", or another Razorpay may add.
   */
  status: string;
  /** Why it was rejected or cancelled, in the gateway's words, when it says. */
  failureReason: string | null;
}

export interface MandateEventHandler {
  /** The merchant account a token was made on (null: the platform's); undefined for a token we never made. */
  accountOf(tokenId: string): Promise<string | null | undefined>;
  /** Applies one delivery inside the webhook's transaction; false for a token we never made. */
  apply(tx: Tx, event: MandateEvent): Promise<boolean>;
}

/** The registry the webhook asks: one handler, registered where the service that makes mandates is made. */
export class MandateEvents {
  private handler: MandateEventHandler | null = null;

  register(handler: MandateEventHandler): void {
    if (this.handler) throw new Error("a mandate event handler is already registered");
    this.handler = handler;
  }

  async accountOf(tokenId: string): Promise<string | null | undefined> {
    return this.handler ? this.handler.accountOf(tokenId) : undefined;
  }

  async apply(tx: Tx, event: MandateEvent): Promise<boolean> {
    return this.handler ? this.handler.apply(tx, event) : false;
  }
}
