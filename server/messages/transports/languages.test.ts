import { afterEach, describe, expect, it, vi } from "vitest";
import { msg91Transport } from "./msg91.ts";
import { whatsappTransport } from "./whatsapp.ts";
import { PermanentFailure, type Outgoing } from "./types.ts";

/** What the providers are asked for in each language (issue 38 §6): the approved copy of that language. */

const message = (locale: "en" | "hi", template = "password-changed"): Outgoing => ({
  id: "m-1",
  channel: "sms",
  template,
  recipient: "+919812345670",
  locale,
  subject: null,
  sender: null,
  text: "…",
  html: null,
  values: ["Arjun", "https://example.test/x"],
  unsubscribe: null,
  attachments: [],
});

function answering(body: unknown) {
  const calls: { url: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(String(init.body)) as Record<string, unknown> });
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  });
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe("SMS through MSG91", () => {
  const transport = msg91Transport({
    apiUrl: "https://msg91.example",
    authKey: "k",
    senderId: undefined,
    templateIds: { "password-changed": "flow-en", "password-changed:hi": "flow-hi", "phone-code": "flow-code" },
  });

  it("sends each language's own DLT flow", async () => {
    const calls = answering({ type: "success", request_id: "r1" });
    await transport.send(message("en"));
    await transport.send(message("hi"));
    expect(calls.map((c) => c.body.template_id)).toEqual(["flow-en", "flow-hi"]);
  });

  it("refuses a Hindi SMS without a Hindi flow, naming the key to register, rather than sending English", async () => {
    const calls = answering({ type: "success", request_id: "r1" });
    const sent = transport.send(message("hi", "phone-code"));
    await expect(sent).rejects.toThrow(PermanentFailure);
    await expect(sent).rejects.toThrow("No MSG91 template id for phone-code:hi (MSG91_TEMPLATE_IDS)");
    expect(calls).toHaveLength(0);
  });
});

describe("WhatsApp through Meta's Cloud API", () => {
  it("asks for the approved template in the message's language", async () => {
    const calls = answering({ messages: [{ id: "wamid.1" }] });
    const transport = whatsappTransport({ apiUrl: "https://graph.example", token: "t", phoneNumberId: "1" });
    await transport.send({ ...message("hi"), channel: "whatsapp" });
    await transport.send({ ...message("en"), channel: "whatsapp" });
    expect(calls.map((c) => c.body.template)).toEqual([
      expect.objectContaining({ name: "password_changed", language: { code: "hi" } }),
      expect.objectContaining({ name: "password_changed", language: { code: "en" } }),
    ]);
  });
});
