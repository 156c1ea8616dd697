/** Messages as admins see them (issue 30): their states and the words about them. */

export const MESSAGE_STATUSES = ["queued", "sending", "sent", "delivered", "read", "failed", "skipped"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const CHANNEL_NAMES = { email: "E-mail", whatsapp: "WhatsApp", sms: "SMS" } as const;

export const MESSAGE_TEXTS = {
  notFailed: "No failed message with this id",
  retried: "Message queued to be sent again",
} as const;
