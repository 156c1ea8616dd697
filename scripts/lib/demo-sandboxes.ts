import { normaliseHost } from "../../server/runtime/env.ts";
import { isRealPlatformDomain } from "../../server/runtime/special-names.ts";

/**
 * `npm start` and `npm run dev` run the demo: on a laptop's platform domain (unset, `localhost`,
 * `*.test`…) they switch on the payment and message sandboxes, each unless the environment sets
 * that area up itself (its keys or providers, or the switch, on or off). The server never does
 * this on its own: it runs a sandbox only when the variable says so. Returns what it switched on.
 */
export function switchOnDemoSandboxes(env: NodeJS.ProcessEnv = process.env): string[] {
  if (isRealPlatformDomain(normaliseHost(env.PLATFORM_DOMAIN ?? "localhost"))) return [];
  const switched: string[] = [];
  if (env.RAZORPAY_SANDBOX === undefined && !env.RAZORPAY_KEY_ID) {
    env.RAZORPAY_SANDBOX = "1";
    switched.push("RAZORPAY_SANDBOX=1");
  }
  if (env.MESSAGES_SANDBOX === undefined && !env.SMTP_URL && !env.WHATSAPP_TOKEN && !env.MSG91_AUTH_KEY) {
    env.MESSAGES_SANDBOX = "1";
    switched.push("MESSAGES_SANDBOX=1");
  }
  return switched;
}
