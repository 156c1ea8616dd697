import { failureOf, PermanentFailure, type Transport } from "./types.ts";
import type { Locale } from "../templates.ts";

export interface Msg91Settings {
  apiUrl: string;
  authKey: string;
  senderId: string | undefined;
  /** Each template's MSG91 flow id, registered with its DLT template id (`MSG91_TEMPLATE_IDS`). */
  templateIds: Record<string, string>;
}

/**
 * Where an SMS's flow id is found in `MSG91_TEMPLATE_IDS`: the template's id in English, and
 * `{id}:hi` in Hindi. DLT registers each exact text, so each language is a template (and a flow) of
 * its own; a Hindi SMS without one fails with the missing key named, rather than going in English.
 */
export const msg91TemplateKey = (template: string, locale: Locale) =>
  locale === "en" ? template : `${template}:${locale}`;

/** SMS through MSG91's flow API: the DLT-registered template, its variables in order (var1, var2, …). */
export function msg91Transport(settings: Msg91Settings): Transport {
  return {
    name: "msg91",
    async send(message) {
      const key = msg91TemplateKey(message.template, message.locale);
      const flowId = settings.templateIds[key];
      if (!flowId) throw new PermanentFailure(`No MSG91 template id for ${key} (MSG91_TEMPLATE_IDS)`);
      const recipient: Record<string, string> = { mobiles: message.recipient.replace(/^\+/, "") };
      message.values.forEach((value, index) => (recipient[`var${index + 1}`] = value));
      const res = await fetch(`${settings.apiUrl}/flow/`, {
        method: "POST",
        headers: { authkey: settings.authKey, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          template_id: flowId,
          short_url: "0",
          ...(settings.senderId ? { sender: settings.senderId } : {}),
          recipients: [recipient],
        }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) throw await failureOf("MSG91", res);
      const body = (await res.json()) as { type?: string; message?: string; request_id?: string };
      if (body.type === "error") throw new PermanentFailure(`MSG91: ${body.message ?? "refused"}`);
      return { providerId: body.request_id ?? body.message ?? message.id };
    },
  };
}
