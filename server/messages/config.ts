import type { Env } from "../runtime/env.ts";
import type { Channel } from "#common/messages.ts";
import { sandboxTransport } from "./transports/sandbox.ts";
import { smtpTransport } from "./transports/smtp.ts";
import { whatsappTransport } from "./transports/whatsapp.ts";
import { msg91Transport } from "./transports/msg91.ts";
import type { Transport } from "./transports/types.ts";

export interface MessagingConfig {
  /**
   * Each channel's transport: its provider when configured; else, with MESSAGES_SANDBOX switched
   * on (the demo and the tests), the sandbox outbox served at /_sandbox/outbox; else none, and its
   * messages are skipped. A missing provider never turns the sandbox on by itself: a live site
   * started without providers must not show its reset links on a page.
   */
  transports: Record<Channel, Transport | null>;
  sandbox: boolean;
  whatsappAppSecret: string | undefined;
  whatsappVerifyToken: string | undefined;
  msg91WebhookToken: string | undefined;
  close(): void;
}

export class MessagingConfigError extends Error {}

/** Real transports from the environment, and the sandbox outbox for the others when it is switched on. */
export function resolveMessagingConfig(env: Env): MessagingConfig {
  const smtp = env.SMTP_URL ? smtpTransport(env.SMTP_URL, env.MAIL_FROM) : null;
  if (Boolean(env.WHATSAPP_TOKEN) !== Boolean(env.WHATSAPP_PHONE_NUMBER_ID))
    throw new MessagingConfigError("WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID are set together");
  const whatsapp =
    env.WHATSAPP_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID
      ? whatsappTransport({
          apiUrl: env.WHATSAPP_API_URL.replace(/\/+$/, ""),
          token: env.WHATSAPP_TOKEN,
          phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
        })
      : null;
  const sms = env.MSG91_AUTH_KEY
    ? msg91Transport({
        apiUrl: env.MSG91_API_URL.replace(/\/+$/, ""),
        authKey: env.MSG91_AUTH_KEY,
        senderId: env.MSG91_SENDER_ID,
        templateIds: env.MSG91_TEMPLATE_IDS,
      })
    : null;
  const sandbox = env.MESSAGES_SANDBOX;
  const or = (transport: Transport | null) => transport ?? (sandbox ? sandboxTransport : null);
  return {
    transports: { email: or(smtp), whatsapp: or(whatsapp), sms: or(sms) },
    sandbox,
    whatsappAppSecret: env.WHATSAPP_APP_SECRET,
    whatsappVerifyToken: env.WHATSAPP_VERIFY_TOKEN,
    msg91WebhookToken: env.MSG91_WEBHOOK_TOKEN,
    close: () => smtp?.close(),
  };
}
