import * as v from "valibot";
import { webhookEvents } from "../db/schema/index.ts";
import { HttpError } from "../http/errors.ts";
import type { Tx } from "../db/types.ts";
import type { Logger } from "../runtime/logger.ts";
import type { CompletionResult, PaymentCompletion } from "./completion.ts";
import type { PaymentGateway } from "./gateway.ts";
import { isPaymentLinkEvent, type PaymentLinks } from "./payment-links.ts";
import { isTokenEvent, type MandateEvents } from "./mandate-events.ts";

/** Which gateway's webhook secret signs a delivery about an order (by its gateway order id, if any). */
export interface WebhookSigners {
  /** The account the delivery's URL names (POST /api/payment/webhook/{accountId}), if it names one. */
  routeAccount?: string;
  /** The merchant account an order was placed on (null: the platform's). */
  accountOf(orderId: string): Promise<string | null>;
  /** The merchant account a payment link was made on (null or undefined: the platform's, or none we made). */
  linkAccountOf(linkId: string): Promise<string | null | undefined>;
  /** The merchant account a recurring token was made on (null or undefined: the platform's, or none we made). */
  tokenAccountOf(tokenId: string): Promise<string | null | undefined>;
  /** The gateway of a merchant account (null: the platform's); undefined when there is no such account. */
  gatewayOf(accountId: string | null): Promise<PaymentGateway | undefined>;
  /**
   * The Razorpay account (`acc_…`) a merchant account connected by OAuth acts for; null for one
   * connected by keys (its deliveries come from its own webhook, signed with its own secret).
   */
  razorpayAccountOf(accountId: string): Promise<string | null>;
  /** Checks a delivery against the partner webhook's secret; undefined without a partner application. */
  partner?: (rawBody: string, signature: string | undefined) => boolean;
}

/** What the partner webhook's `account.app.authorization_revoked` does, inside the delivery's transaction. */
export interface PartnerRevocations {
  /**
   * Disconnects, as revoked, the account connected by OAuth to this Razorpay account, in `tx`;
   * `after` runs once the transaction has committed. False when no such account is connected.
   */
  revoke(tx: Tx, razorpayAccountId: string, after: (effect: () => void) => void): Promise<boolean>;
}

/** Razorpay's partner webhook event: an institute revoked the platform's access in its Dashboard. */
export const AUTHORIZATION_REVOKED = "account.app.authorization_revoked";

export const INVALID_WEBHOOK_SIGNATURE = "Invalid webhook signature";

const PaymentEntity = v.object({
  id: v.string(),
  order_id: v.nullish(v.string()),
  amount: v.optional(v.number()),
  currency: v.optional(v.string()),
  error_description: v.nullish(v.string()),
});

/** A recurring token: the event names its new state; `recurring_details` says why it was refused or ended. */
const TokenEntity = v.object({
  id: v.string(),
  recurring_details: v.nullish(v.object({ failure_reason: v.nullish(v.string()) })),
});

const WebhookBody = v.object({
  event: v.string(),
  /** The Razorpay account the event is about (partner webhooks name the connected account here). */
  account_id: v.nullish(v.string()),
  payload: v.optional(
    v.object({
      payment: v.optional(v.object({ entity: PaymentEntity })),
      order: v.optional(v.object({ entity: v.object({ id: v.string() }) })),
      payment_link: v.optional(v.object({ entity: v.object({ id: v.string(), reference_id: v.nullish(v.string()) }) })),
      token: v.optional(v.object({ entity: TokenEntity })),
    }),
  ),
});

export interface WebhookOutcome {
  status: "processed" | "duplicate" | "ignored";
  event?: string;
  result?: CompletionResult["outcome"];
}

/**
 * A Razorpay webhook: signature over the raw body, then, in one transaction, the delivery is
 * recorded by its `x-razorpay-event-id` (a repeat is ignored) and the payment completed, or a
 * payment link's or a recurring token's event applied by the handler registered for it. A
 * failure rolls both back, so the gateway's retry is processed again rather than skipped.
 */
export async function handleWebhook(
  deps: {
    signers: WebhookSigners;
    completion: PaymentCompletion;
    revocations: PartnerRevocations;
    links: PaymentLinks;
    mandates: MandateEvents;
    logger: Logger;
  },
  rawBody: string,
  headers: { signature?: string; eventId?: string },
): Promise<WebhookOutcome> {
  const { signers } = deps;
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    json = undefined;
  }
  const parsed = v.safeParse(WebhookBody, json);
  const named = parsed.success
    ? (parsed.output.payload?.order?.entity.id ?? parsed.output.payload?.payment?.entity.order_id ?? undefined)
    : undefined;
  const revocation = parsed.success && parsed.output.event === AUTHORIZATION_REVOKED;
  if (revocation) {
    // The partner webhook's own event: only the partner webhook's secret signs it, whatever the URL.
    if (!signers.partner?.(rawBody, headers.signature)) throw new HttpError(400, INVALID_WEBHOOK_SIGNATURE);
    return revoke(deps, parsed.output.account_id ?? undefined, headers.eventId?.slice(0, 200));
  }
  // A payment link's deliveries are about the link (its payments' order is the gateway's own, not
  // one of ours): the account it was made on signs them.
  const link =
    parsed.success && isPaymentLinkEvent(parsed.output.event) ? parsed.output.payload?.payment_link?.entity : undefined;
  // So are a recurring token's: the account it was made on (the payer authorised a mandate there).
  const token = parsed.success && isTokenEvent(parsed.output.event) ? parsed.output.payload?.token?.entity : undefined;
  // Each institute's deliveries are signed with its own account's webhook secret: the account the
  // URL names, else the account the order was placed on (the platform's for plans and older orders).
  const orderAccount = link
    ? ((await signers.linkAccountOf(link.id)) ?? null)
    : token
      ? ((await signers.tokenAccountOf(token.id)) ?? null)
      : named
        ? await signers.accountOf(named)
        : null;
  const signer = await signers.gatewayOf(signers.routeAccount ?? orderAccount);
  if (!signer?.verifyWebhook(rawBody, headers.signature)) throw new HttpError(400, INVALID_WEBHOOK_SIGNATURE);
  if (json === undefined) throw new HttpError(400, "The webhook body must be JSON");
  if (!parsed.success) {
    deps.logger.warn("webhook with an unexpected shape ignored", { eventId: headers.eventId });
    return { status: "ignored" };
  }
  const { event, payload } = parsed.output;
  if (signers.routeAccount && (named || link || token) && orderAccount !== signers.routeAccount) {
    // Signed by one institute's account about an order of another (or of the platform): not its to report.
    deps.logger.warn("webhook about an order of another account ignored", { event, orderId: named });
    return { status: "ignored", event };
  }
  if (orderAccount) {
    // A partner webhook (an account connected by OAuth) names the account it is about: it must be
    // the one the order was placed on, or the delivery is not that order's to report.
    const expected = await signers.razorpayAccountOf(orderAccount);
    if (expected !== null && parsed.output.account_id !== expected) {
      deps.logger.warn("partner webhook naming another account than the order's ignored", {
        event,
        orderId: named,
        accountId: orderAccount,
        named: parsed.output.account_id ?? null,
      });
      return { status: "ignored", event };
    }
  }
  const eventId = headers.eventId?.slice(0, 200);

  return deps.completion.transaction(async (scope) => {
    if (eventId) {
      const inserted = await scope.tx
        .insert(webhookEvents)
        .values({ id: eventId, event })
        .onConflictDoNothing()
        .returning({ id: webhookEvents.id });
      if (inserted.length === 0) return { status: "duplicate", event } satisfies WebhookOutcome;
    }
    const payment = payload?.payment?.entity;
    if (link && isPaymentLinkEvent(event)) {
      const paid = event === "payment_link.paid" || event === "payment_link.partially_paid";
      if (paid && (!payment || payment.amount === undefined))
        return { status: "ignored", event } satisfies WebhookOutcome;
      const known = await deps.links.apply(scope.tx, {
        event,
        linkId: link.id,
        referenceId: link.reference_id ?? null,
        payment:
          paid && payment
            ? { id: payment.id, amount: payment.amount!, currency: (payment.currency ?? "INR").toUpperCase() }
            : undefined,
      });
      if (!known) deps.logger.info("webhook for a payment link we do not know", { event, linkId: link.id });
      return { status: known ? "processed" : "ignored", event } satisfies WebhookOutcome;
    }
    if (isTokenEvent(event)) {
      if (!token) return { status: "ignored", event } satisfies WebhookOutcome;
      const known = await deps.mandates.apply(scope.tx, {
        event,
        tokenId: token.id,
        failureReason: token.recurring_details?.failure_reason ?? null,
      });
      if (!known) deps.logger.info("webhook for a recurring token we do not know", { event, tokenId: token.id });
      return { status: known ? "processed" : "ignored", event } satisfies WebhookOutcome;
    }
    const orderId = payload?.order?.entity.id ?? payment?.order_id ?? undefined;
    if (event === "payment.captured" || event === "order.paid") {
      if (!payment || !orderId) return { status: "ignored", event } satisfies WebhookOutcome;
      const result = await scope.complete({
        orderId,
        paymentId: payment.id,
        amount: payment.amount,
        currency: payment.currency,
        source: "webhook",
      });
      if (result.outcome === "unknown-order")
        deps.logger.info("webhook for an order we do not know", { event, orderId });
      return { status: "processed", event, result: result.outcome } satisfies WebhookOutcome;
    }
    if (event === "payment.failed" && orderId) {
      await scope.fail({ orderId, paymentId: payment?.id, reason: payment?.error_description ?? undefined });
      return { status: "processed", event } satisfies WebhookOutcome;
    }
    return { status: "ignored", event } satisfies WebhookOutcome;
  });
}

/**
 * `account.app.authorization_revoked` (checked with the partner webhook's secret): in one
 * transaction the delivery is recorded by its event id (a repeat is a duplicate) and the account
 * connected by OAuth to the named Razorpay account is disconnected as revoked. An account we do not
 * have connected changes nothing.
 */
async function revoke(
  deps: { completion: PaymentCompletion; revocations: PartnerRevocations; logger: Logger },
  razorpayAccountId: string | undefined,
  eventId: string | undefined,
): Promise<WebhookOutcome> {
  const event = AUTHORIZATION_REVOKED;
  const effects: (() => void)[] = [];
  const outcome = await deps.completion.transaction(async (scope) => {
    if (eventId) {
      const inserted = await scope.tx
        .insert(webhookEvents)
        .values({ id: eventId, event })
        .onConflictDoNothing()
        .returning({ id: webhookEvents.id });
      if (inserted.length === 0) return { status: "duplicate", event } satisfies WebhookOutcome;
    }
    if (!razorpayAccountId || !(await deps.revocations.revoke(scope.tx, razorpayAccountId, (e) => effects.push(e)))) {
      deps.logger.info("authorization revoked for an account not connected here", {
        razorpayAccountId: razorpayAccountId ?? null,
      });
      return { status: "ignored", event } satisfies WebhookOutcome;
    }
    return { status: "processed", event } satisfies WebhookOutcome;
  });
  for (const effect of effects) effect();
  return outcome;
}
