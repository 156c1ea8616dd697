import { describe, expect, it } from "vitest";
import { sandboxLines } from "./sandbox-lines.ts";

describe("start-up", () => {
  const port = 3000;
  const none = { email: null, whatsapp: null, sms: null };

  it("says which sandboxes are on and which variable switched them on", () => {
    expect(
      sandboxLines({
        platformDomain: "localhost",
        payments: "sandbox",
        channels: { email: "sandbox", whatsapp: "sandbox", sms: "sandbox" },
        port,
      }),
    ).toEqual([
      'Payments: offline sandbox, switched on by RAZORPAY_SANDBOX=1 (test mode, no real money: anyone can "pay")',
      "Messages: e-mail the sandbox outbox, WhatsApp the sandbox outbox, SMS the sandbox outbox",
      "  the sandbox outbox is switched on by MESSAGES_SANDBOX=1: http://localhost:3000/_sandbox/outbox",
    ]);
  });

  it("says what is off when nothing is configured, without any sandbox", () => {
    expect(sandboxLines({ platformDomain: "pathshala.in", payments: "off", channels: none, port })).toEqual([
      "Payments: off, nothing can be bought (set RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET, or RAZORPAY_SANDBOX=1 for the offline sandbox)",
      "Messages: e-mail not sent (no provider), WhatsApp not sent (no provider), SMS not sent (no provider)",
    ]);
  });

  it("warns when a sandbox is switched on for a real platform domain", () => {
    const lines = sandboxLines({
      platformDomain: "pathshala.in",
      payments: "razorpay",
      channels: { email: "smtp", whatsapp: "sandbox", sms: null },
      port,
    });
    expect(lines).toContain("Messages: e-mail sent by smtp, WhatsApp the sandbox outbox, SMS not sent (no provider)");
    expect(lines.at(-1)).toBe(
      "Warning: PLATFORM_DOMAIN is pathshala.in, a real domain, and a sandbox is switched on: anyone who reaches this server reads every message at /_sandbox/outbox (MESSAGES_SANDBOX). Switch it off on a live site.",
    );
  });
});
