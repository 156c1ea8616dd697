import type { PaymentConfig } from "../payments/config.ts";
import type { Channel } from "#common/messages.ts";
import { isRealPlatformDomain } from "../runtime/special-names.ts";

/**
 * What start-up says about payments and messages: which sandboxes are switched on (and by which
 * variable), what is off, and a warning when a sandbox runs on a real platform domain.
 */
export function sandboxLines(facts: {
  platformDomain: string;
  payments: PaymentConfig["mode"];
  channels: Record<Channel, string | null>;
  port: number;
}): string[] {
  const lines = [
    facts.payments === "sandbox"
      ? 'Payments: offline sandbox, switched on by RAZORPAY_SANDBOX=1 (test mode, no real money: anyone can "pay")'
      : facts.payments === "razorpay"
        ? "Payments: Razorpay"
        : "Payments: off, nothing can be bought (set RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET, or RAZORPAY_SANDBOX=1 for the offline sandbox)",
  ];
  const how = (name: string | null) =>
    name === "sandbox" ? "the sandbox outbox" : name ? `sent by ${name}` : "not sent (no provider)";
  lines.push(
    `Messages: e-mail ${how(facts.channels.email)}, WhatsApp ${how(facts.channels.whatsapp)}, SMS ${how(facts.channels.sms)}`,
  );
  const outbox = Object.values(facts.channels).includes("sandbox");
  if (outbox)
    lines.push(
      `  the sandbox outbox is switched on by MESSAGES_SANDBOX=1: http://localhost:${facts.port}/_sandbox/outbox`,
    );
  if ((outbox || facts.payments === "sandbox") && isRealPlatformDomain(facts.platformDomain))
    lines.push(
      `Warning: PLATFORM_DOMAIN is ${facts.platformDomain}, a real domain, and a sandbox is switched on: ${[
        outbox ? "anyone who reaches this server reads every message at /_sandbox/outbox (MESSAGES_SANDBOX)" : "",
        facts.payments === "sandbox" ? 'anyone can "pay" (RAZORPAY_SANDBOX)' : "",
      ]
        .filter(Boolean)
        .join("; ")}. Switch it off on a live site.`,
    );
  return lines;
}
