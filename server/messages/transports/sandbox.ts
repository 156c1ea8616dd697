import type { Transport } from "./types.ts";

/**
 * The offline stand-in of every provider (no settings: `npm start` and the tests): the message
 * row itself is the outbox that /_sandbox/outbox shows, so sending only marks it sent.
 */
export const sandboxTransport: Transport = {
  name: "sandbox",
  async send(message) {
    return { providerId: `sandbox_${message.id}` };
  },
};
