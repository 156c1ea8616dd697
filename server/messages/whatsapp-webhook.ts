import * as v from "valibot";
import { hmacSha256Hex, signaturesMatch } from "../payments/signatures.ts";
import { timingSafeEqualText } from "../auth/tokens.ts";
import { parseInput } from "#common/validation/storable.ts";
import { HttpError } from "../http/errors.ts";
import type { MessageService } from "./service.ts";

export const WHATSAPP_WEBHOOK_TEXTS = {
  notConfigured: "WhatsApp is not configured",
  badSignature: "Invalid webhook signature",
  badVerifyToken: "Invalid verify token",
} as const;

/** What Meta's WhatsApp webhooks carry that we read: delivery statuses and replies (STOP, START). */
export const WhatsAppWebhookSchema = v.object({
  entry: v.optional(
    v.array(
      v.object({
        changes: v.optional(
          v.array(
            v.object({
              value: v.optional(
                v.object({
                  statuses: v.optional(
                    v.array(
                      v.object({
                        id: v.string(),
                        status: v.string(),
                        errors: v.optional(v.array(v.object({ title: v.optional(v.string()) }))),
                      }),
                    ),
                  ),
                  messages: v.optional(
                    v.array(
                      v.object({
                        from: v.string(),
                        type: v.optional(v.string()),
                        text: v.optional(v.object({ body: v.string() })),
                      }),
                    ),
                  ),
                }),
              ),
            }),
          ),
        ),
      }),
    ),
  ),
});

const STOP = /^\s*(stop|unsubscribe|cancel|end|quit|stop all)\s*$/i;
const START = /^\s*(start|unstop|subscribe)\s*$/i;

/**
 * Meta's WhatsApp webhook: the signature (X-Hub-Signature-256, HMAC-SHA256 of the raw body with the
 * app secret) is checked first; then each status updates its message, and a reply of STOP (START)
 * opts the number out of (back into) promotional messages.
 */
export async function receiveWhatsAppWebhook(
  raw: string,
  signature: string | undefined,
  appSecret: string | undefined,
  messages: MessageService,
): Promise<{ statuses: number; optOuts: number }> {
  if (!appSecret) throw new HttpError(404, WHATSAPP_WEBHOOK_TEXTS.notConfigured);
  const given = signature?.replace(/^sha256=/, "") ?? "";
  if (!signaturesMatch(hmacSha256Hex(appSecret, raw), given))
    throw new HttpError(400, WHATSAPP_WEBHOOK_TEXTS.badSignature);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new HttpError(400, "The webhook's body is not JSON");
  }
  const body = parseInput(WhatsAppWebhookSchema, parsed);
  if (!body.success) throw new HttpError(400, "The webhook's body is not a WhatsApp notification");
  let statuses = 0;
  let optOuts = 0;
  for (const change of (body.output.entry ?? []).flatMap((e) => e.changes ?? [])) {
    for (const status of change.value?.statuses ?? []) {
      if (await messages.recordStatus("whatsapp", status.id, status.status, status.errors?.[0]?.title)) statuses++;
    }
    for (const reply of change.value?.messages ?? []) {
      const text = reply.text?.body ?? "";
      const number = `+${reply.from.replace(/\D/g, "")}`;
      if (STOP.test(text)) {
        await messages.optOut("whatsapp", number);
        optOuts++;
      } else if (START.test(text)) await messages.optIn("whatsapp", number);
    }
  }
  return { statuses, optOuts };
}

/**
 * Meta's subscription check: echo the challenge when the verify token is ours, exactly (case,
 * spaces and length count), compared in constant time whatever its length.
 */
export function verifyWhatsAppSubscription(
  query: { mode?: string; token?: string; challenge?: string },
  verifyToken: string | undefined,
): string {
  if (!verifyToken) throw new HttpError(404, WHATSAPP_WEBHOOK_TEXTS.notConfigured);
  if (query.mode !== "subscribe" || !query.token || !timingSafeEqualText(verifyToken, query.token))
    throw new HttpError(403, WHATSAPP_WEBHOOK_TEXTS.badVerifyToken);
  return query.challenge ?? "";
}
