import nodemailer from "nodemailer";
import addressparser from "nodemailer/lib/addressparser/index.js";
import { PermanentFailure, type Transport } from "./types.ts";

/**
 * E-mail over SMTP with nodemailer (`SMTP_URL`, `MAIL_FROM`). Every e-mail comes from MAIL_FROM's
 * address under the message's own sender name (the platform, or "{institute} via Pathshala").
 */
export function smtpTransport(url: string, from: string): Transport & { close(): void } {
  const address = addressparser(from, { flatten: true })[0]?.address || from;
  // A send that hangs must end well before its job is given up as lost (60 s, ./queue.ts).
  const mailer = nodemailer.createTransport({
    url,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return {
    name: "smtp",
    async send(message) {
      const info = await mailer
        .sendMail({
          from: message.sender ? { name: message.sender, address } : from,
          to: message.recipient,
          subject: message.subject ?? "",
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
          attachments: message.attachments.map((a) => ({
            filename: a.filename,
            content: Buffer.from(a.content),
            contentType: a.contentType,
          })),
          // One-click opt-out for mail clients (RFC 8058).
          ...(message.unsubscribe
            ? { list: { unsubscribe: { url: message.unsubscribe, comment: "Unsubscribe" } } }
            : {}),
          headers: {
            "X-Pathshala-Message": message.id,
            ...(message.unsubscribe ? { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {}),
          },
        })
        .catch((error: Error & { responseCode?: number }) => {
          // A 5xx is the server's final word (no such mailbox); a 4xx or a dropped connection may pass.
          throw error.responseCode && error.responseCode >= 500 ? new PermanentFailure(error.message) : error;
        });
      return { providerId: info.messageId };
    },
    close: () => mailer.close(),
  };
}
