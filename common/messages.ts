/** Messages as admins see them (issue 30): their states and the words about them. */

export const MESSAGE_CHANNELS = ["email", "whatsapp", "sms"] as const;
export type Channel = (typeof MESSAGE_CHANNELS)[number];

/**
 * queued → sending → sent (→ delivered → read, as the provider reports), or failed after the last retry;
 * skipped: opted out; held: never sent, held back by the recipient policy (server/messages/recipient-policy.ts).
 */
export const MESSAGE_STATUSES = [
  "queued",
  "sending",
  "sent",
  "delivered",
  "read",
  "failed",
  "skipped",
  "held",
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const CHANNEL_NAMES = { email: "E-mail", whatsapp: "WhatsApp", sms: "SMS" } as const;

export const MESSAGE_TEXTS = {
  notFailed: "No failed message with this id",
  retried: "Message queued to be sent again",
} as const;

/** An institute's choice of WhatsApp and SMS to numbers outside India (Website Details). */
export const INTERNATIONAL_MESSAGES_TEXTS = {
  title: "WhatsApp and SMS",
  description:
    "Enquiry confirmations and sign-in codes go by WhatsApp and SMS to Indian mobile numbers. Numbers elsewhere get e-mail only, unless you switch them on. Premium-rate and other numbers that are not mobiles never get them.",
  label: "Also send to mobile numbers outside India",
  save: "Save",
  on: "Mobile numbers outside India now get WhatsApp and SMS",
  off: "WhatsApp and SMS now go to Indian mobile numbers only",
  trial: "Numbers outside India can be switched on once the institute is on a paid plan.",
} as const;

/** The opt-out link at the foot of every e-mail. */
export const UNSUBSCRIBE_TEXTS = {
  title: "Unsubscribe",
  ask: (email: string) =>
    `Stop promotional e-mail to ${email}? Messages you need, such as password resets, receipts and class reminders, still come.`,
  button: "Unsubscribe",
  done: "You are unsubscribed",
  doneBody: (email: string) =>
    `${email} will get no more promotional e-mail from Pathshala. Messages you need, such as password resets, receipts and class reminders, still come.`,
  unknown: "This link is not valid",
  unknownBody: "It may have been copied incompletely. Use the link in the e-mail itself.",
} as const;
