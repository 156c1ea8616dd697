import * as v from "valibot";
import { webhookEvents } from "../db/schema/index.ts";
import { HttpError } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import type { CompletionResult, PaymentCompletion } from "./completion.ts";
import type { PaymentGateway } from "./gateway.ts";

export const INVALID_WEBHOOK_SIGNATURE = "Invalid webhook signature";

const PaymentEntity = v.object({
  id: v.string(),
  order_id: v.nullish(v.string()),
  amount: v.optional(v.number()),
  currency: v.optional(v.string()),
  error_description: v.nullish(v.string()),
});

const WebhookBody = v.object({
  event: v.string(),
  payload: v.optional(
    v.object({
      payment: v.optional(v.object({ entity: PaymentEntity })),
      order: v.optional(v.object({ entity: v.object({ id: v.string() }) })),
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
 * recorded by its `x-razorpay-event-id` (a repeat is ignored) and the payment completed. A
 * failure rolls both back, so the gateway's retry is processed again rather than skipped.
 */
export async function handleWebhook(
  deps: { gateway: PaymentGateway; completion: PaymentCompletion; logger: Logger },
  rawBody: string,
  headers: { signature?: string; eventId?: string },
): Promise<WebhookOutcome> {
  if (!deps.gateway.verifyWebhook(rawBody, headers.signature)) throw new HttpError(400, INVALID_WEBHOOK_SIGNATURE);
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new HttpError(400, "The webhook body must be JSON");
  }
  const parsed = v.safeParse(WebhookBody, json);
  if (!parsed.success) {
    deps.logger.warn("webhook with an unexpected shape ignored", { eventId: headers.eventId });
    return { status: "ignored" };
  }
  const { event, payload } = parsed.output;
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
