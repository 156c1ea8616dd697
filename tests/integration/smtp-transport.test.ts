import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { smtpTransport } from "../../server/messages/transports/smtp.ts";
import { PermanentFailure } from "../../server/messages/transports/types.ts";
import { emailHtml, PLATFORM_BRAND, renderTemplate } from "../../server/messages/templates.ts";

/** The e-mail transport against a real SMTP server started here (issue 30 §3). */

interface Received {
  from: string;
  to: string[];
  raw: string;
}

const received: Received[] = [];
let server: SMTPServer;
let port: number;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith("@nowhere.test"))
        return callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
      callback();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const outgoing = (recipient: string) => {
  const rendered = renderTemplate(
    "password-reset",
    { name: "Meera", link: "http://localhost/reset-password?token=abc" },
    "en",
    PLATFORM_BRAND,
  );
  return {
    id: "7f1c2a9e-5d0b-4c1e-9a8f-2b3c4d5e6f70",
    channel: "email" as const,
    template: "password-reset",
    recipient,
    locale: "en" as const,
    subject: rendered.subject,
    sender: null as string | null,
    text: rendered.text,
    html: emailHtml(rendered, PLATFORM_BRAND),
    values: ["Meera", "http://localhost/reset-password?token=abc"],
    unsubscribe: "http://localhost:3000/unsubscribe/7f1c2a9e-5d0b-4c1e-9a8f-2b3c4d5e6f70",
    attachments: [] as { filename: string; content: Uint8Array; contentType: string }[],
  };
};

describe("the SMTP transport", () => {
  it("delivers the message with its subject, text and HTML, from MAIL_FROM", async () => {
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`, "Pathshala <no-reply@pathshala.test>");
    try {
      const { providerId } = await transport.send(outgoing("meera@example.com"));
      expect(providerId).toMatch(/^<.+>$/);
    } finally {
      transport.close();
    }
    const mail = received.at(-1)!;
    expect(mail.from).toBe("no-reply@pathshala.test");
    expect(mail.to).toEqual(["meera@example.com"]);
    expect(mail.raw).toContain("Subject: Reset your Pathshala password");
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.raw).toContain("X-Pathshala-Message: 7f1c2a9e-5d0b-4c1e-9a8f-2b3c4d5e6f70");
    // One-click opt-out for mail clients (RFC 8058).
    expect(mail.raw).toMatch(/List-Unsubscribe:\s+<http:\/\/localhost:3000\/unsubscribe\/7f1c2a9e[^>]*>/);
    expect(mail.raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(mail.raw).toContain("reset-password?token=3Dabc"); // quoted-printable "="
  });

  it("says an institute's e-mail is the institute's, carried by Pathshala, from MAIL_FROM's address", async () => {
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`, "Pathshala <no-reply@pathshala.test>");
    try {
      await transport.send({ ...outgoing("meera@example.com"), sender: "Sunrise Academy via Pathshala" });
      await transport.send({ ...outgoing("meera@example.com"), sender: 'Evil" <ceo@pathshala.test>\r\nBcc: x@y.test' });
    } finally {
      transport.close();
    }
    const [institute, hostile] = received.slice(-2);
    expect(institute.from).toBe("no-reply@pathshala.test");
    expect(institute.raw).toContain("From: Sunrise Academy via Pathshala <no-reply@pathshala.test>");
    // A name is only ever a name: quoted, never another address or header.
    expect(hostile.from).toBe("no-reply@pathshala.test");
    expect(hostile.to).toEqual(["meera@example.com"]);
    const headers = hostile.raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(headers).toMatch(/^From: =\?UTF-8\?Q\?Evil.*\?= <no-reply@pathshala\.test>\r?$/m);
  });

  it("attaches an invoice's PDF to the e-mail", async () => {
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`, "Pathshala <no-reply@pathshala.test>");
    const pdf = new TextEncoder().encode("%PDF-1.7 invoice");
    try {
      await transport.send({
        ...outgoing("meera@example.com"),
        attachments: [{ filename: "INV-26-27-00001.pdf", content: pdf, contentType: "application/pdf" }],
      });
    } finally {
      transport.close();
    }
    const raw = received.at(-1)!.raw;
    expect(raw).toMatch(/Content-Type: application\/pdf; name=INV-26-27-00001\.pdf/);
    expect(raw).toMatch(/Content-Disposition: attachment; filename=INV-26-27-00001\.pdf/);
    expect(raw).toContain(Buffer.from(pdf).toString("base64"));
  });

  it("throws the server's final refusal (5xx) as one not to retry, so the worker marks it failed at once", async () => {
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`, "Pathshala <no-reply@pathshala.test>");
    try {
      const refused = transport.send(outgoing("ghost@nowhere.test"));
      await expect(refused).rejects.toThrow(/550/);
      await expect(refused).rejects.toBeInstanceOf(PermanentFailure);
    } finally {
      transport.close();
    }
  });
});
