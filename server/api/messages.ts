import { Hono } from "hono";
import * as v from "valibot";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { input, operation } from "./openapi.ts";
import { allow, idParam, platformOnly } from "./guards.ts";
import { MESSAGE_STATUSES, MESSAGE_TEXTS } from "#common/messages.ts";
import {
  WHATSAPP_WEBHOOK_TEXTS,
  receiveWhatsAppWebhook,
  verifyWhatsAppSubscription,
} from "../messages/whatsapp-webhook.ts";
import { MSG91_WEBHOOK_TEXTS, receiveMsg91Webhook } from "../messages/msg91-webhook.ts";

const MessagesQuery = v.object({
  status: v.optional(
    v.pipe(
      v.picklist(MESSAGE_STATUSES, `Status must be one of ${MESSAGE_STATUSES.join(", ")}`),
      v.description("only messages in this state (failed: to retry; held: held back by the recipient policy)"),
    ),
  ),
});

/** /api/messages: the outbox as admins see it, and sending a failed message again (issue 30). */
export function messagesRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.use(platformOnly);
  api.get(
    "/",
    operation({
      tag: "messages",
      auth: "admin",
      summary:
        "The latest 100 messages (e-mail, WhatsApp, SMS), newest first, with their state and last error (a held message's error says why it was held back)",
      responses: {
        200: "{messages: [{id, channel, to, template, subject?, text, status, attempts, error, createdAt, sentAt}]}",
        400: "Invalid query",
      },
    }),
    allow("admin"),
    input("query", MessagesQuery),
    async (c) => {
      c.header("Cache-Control", "no-store");
      return c.json({ messages: await services.messages.list(c.req.valid("query").status) });
    },
  );
  api.post(
    "/:id/retry",
    operation({
      tag: "messages",
      auth: "admin",
      summary: "Send a failed message again",
      responses: {
        200: `{success, message: "${MESSAGE_TEXTS.retried}", retried: {id, channel, to, status, …}}`,
        404: MESSAGE_TEXTS.notFailed,
      },
    }),
    allow("admin"),
    async (c) => {
      const retried = await services.messages.retry(idParam(c, MESSAGE_TEXTS.notFailed));
      return c.json({ success: true, message: MESSAGE_TEXTS.retried, retried });
    },
  );
  api.get(
    "/webhooks/whatsapp",
    operation({
      tag: "messages",
      auth: "public",
      summary: "Meta's subscription check of the WhatsApp webhook: answers hub.challenge when hub.verify_token is ours",
      responses: {
        200: { description: "The challenge", content: ["text/plain"] },
        400: "Invalid query",
        403: WHATSAPP_WEBHOOK_TEXTS.badVerifyToken,
        404: WHATSAPP_WEBHOOK_TEXTS.notConfigured,
      },
    }),
    input("query", WhatsAppVerifyQuery),
    (c) => {
      const q = c.req.valid("query");
      const challenge = verifyWhatsAppSubscription(
        { mode: q["hub.mode"], token: q["hub.verify_token"], challenge: q["hub.challenge"] },
        services.messages.whatsappWebhook.verifyToken,
      );
      return c.text(challenge);
    },
  );
  api.post(
    "/webhooks/whatsapp",
    operation({
      tag: "messages",
      auth: "public",
      summary:
        "WhatsApp Cloud API webhook (X-Hub-Signature-256 over the raw body): delivery statuses (sent, delivered, read, failed) and replies (STOP opts the number out of promotional messages, START back in)",
      responses: {
        200: "{success, statuses, optOuts}",
        400: `${WHATSAPP_WEBHOOK_TEXTS.badSignature}, or not a WhatsApp notification`,
        404: WHATSAPP_WEBHOOK_TEXTS.notConfigured,
      },
    }),
    async (c) => {
      const outcome = await receiveWhatsAppWebhook(
        await c.req.text(),
        c.req.header("x-hub-signature-256"),
        services.messages.whatsappWebhook.appSecret,
        services.messages,
      );
      return c.json({ success: true, ...outcome });
    },
  );
  api.post(
    "/webhooks/msg91",
    operation({
      tag: "messages",
      auth: "public",
      summary:
        "MSG91's SMS delivery reports (webhook v3 as JSON, or v2 as a form's `data`), with `?token=` the MSG91_WEBHOOK_TOKEN: each report marks its message delivered, sent or failed",
      query: { token: "MSG91_WEBHOOK_TOKEN" },
      responses: {
        200: "{success, statuses}",
        400: MSG91_WEBHOOK_TEXTS.notReport,
        403: MSG91_WEBHOOK_TEXTS.badToken,
        404: MSG91_WEBHOOK_TEXTS.notConfigured,
      },
    }),
    async (c) => {
      const type = c.req.header("content-type") ?? "";
      const body = type.includes("application/json")
        ? { json: await c.req.json().catch(() => null) }
        : { form: await c.req.parseBody().catch(() => ({})) };
      const outcome = await receiveMsg91Webhook(
        body,
        c.req.query("token"),
        services.messages.msg91WebhookToken,
        services.messages,
      );
      return c.json({ success: true, ...outcome });
    },
  );
  return api;
}

const WhatsAppVerifyQuery = v.object({
  "hub.mode": v.optional(v.pipe(v.string(), v.maxLength(50))),
  "hub.verify_token": v.optional(v.pipe(v.string(), v.maxLength(500))),
  "hub.challenge": v.optional(v.pipe(v.string(), v.maxLength(500))),
});
