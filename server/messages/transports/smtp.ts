import nodemailer from "nodemailer";
import type { Transport } from "./types.ts";

/** E-mail over SMTP with nodemailer (`SMTP_URL`, `MAIL_FROM`). */
export function smtpTransport(url: string, from: string): Transport & { close(): void } {
  const mailer = nodemailer.createTransport(url);
  return {
    name: "smtp",
    async send(message) {
      const info = await mailer.sendMail({
        from,
        to: message.recipient,
        subject: message.subject ?? "",
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.unsubscribe
          ? {
              list: { unsubscribe: { url: message.unsubscribe, comment: "Unsubscribe" } },
              headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
            }
          : {}),
        headers: { "X-Pathshala-Message": message.id },
      });
      return { providerId: info.messageId };
    },
    close: () => mailer.close(),
  };
}
