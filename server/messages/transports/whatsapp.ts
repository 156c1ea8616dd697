import { failureOf, type Transport } from "./types.ts";

export interface WhatsAppSettings {
  apiUrl: string;
  token: string;
  phoneNumberId: string;
}

/** WhatsApp's approved template of ours: the template id with underscores ("seminar_booked"). */
export const whatsappTemplateName = (template: string) => template.replace(/-/g, "_");

/** WhatsApp through Meta's Cloud API: an approved template, its body's values in order. */
export function whatsappTransport(settings: WhatsAppSettings): Transport {
  return {
    name: "whatsapp",
    async send(message) {
      const res = await fetch(`${settings.apiUrl}/${settings.phoneNumberId}/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${settings.token}`, "content-type": "application/json" },
        body: JSON.stringify({
          messaging_product: "whatsapp",
          to: message.recipient.replace(/^\+/, ""),
          type: "template",
          template: {
            name: whatsappTemplateName(message.template),
            language: { code: message.locale === "hi" ? "hi" : "en" },
            components: [{ type: "body", parameters: message.values.map((text) => ({ type: "text", text })) }],
          },
        }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) throw await failureOf("WhatsApp", res);
      const body = (await res.json()) as { messages?: { id: string }[] };
      const id = body.messages?.[0]?.id;
      if (!id) throw new Error("WhatsApp answered without a message id");
      return { providerId: id };
    },
  };
}
