import type { Channel } from "#common/messages.ts";
import type { Locale } from "../templates.ts";

/** One message as a transport sends it. */
export interface Outgoing {
  id: string;
  channel: Channel;
  template: string;
  recipient: string;
  locale: Locale;
  subject: string | null;
  /** For e-mail: the name it says it is from (the address is MAIL_FROM's). */
  sender: string | null;
  text: string;
  html: string | null;
  /** The template's values in the order the provider's approved copy numbers them. */
  values: string[];
  /** For e-mail: the link that opts the recipient out (also sent as List-Unsubscribe). */
  unsubscribe: string | null;
  /** Files an e-mail carries (an invoice's PDF); other channels send none. */
  attachments: { filename: string; content: Uint8Array; contentType: string }[];
}

export interface Transport {
  /** Stored on the message ("sandbox", "smtp", "whatsapp", "msg91"). */
  name: string;
  /** Sends, or throws with the provider's reason; the id is the provider's for this message. */
  send(message: Outgoing): Promise<{ providerId: string }>;
}

/** A refusal the provider will repeat however often it is asked (a bad number): no retry. */
export class PermanentFailure extends Error {}

/** A provider's answer that is not 2xx, as an error to retry (5xx, 429, network) or not (other 4xx). */
export async function failureOf(provider: string, res: Response): Promise<Error> {
  const body = (await res.text().catch(() => "")).slice(0, 300);
  const message = `${provider} answered ${res.status}${body ? `: ${body}` : ""}`;
  return res.status >= 500 || res.status === 429 ? new Error(message) : new PermanentFailure(message);
}
