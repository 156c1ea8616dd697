import type { Env } from "../runtime/env.ts";

/**
 * Development secrets of the offline sandbox (documented in the README). They are used only while
 * the sandbox is on and no real secret is configured, so a payment can never be signed with them
 * against the real gateway.
 */
export const SANDBOX_KEY_ID = "rzp_test_pathshala_sandbox";
export const SANDBOX_KEY_SECRET = "pathshala-sandbox-key-secret";
export const SANDBOX_WEBHOOK_SECRET = "pathshala-sandbox-webhook-secret";
/** The sandbox's partner application (OAuth): used only while the sandbox is on and none is configured. */
export const SANDBOX_PARTNER_CLIENT_ID = "pathshala_sandbox_partner";
export const SANDBOX_PARTNER_CLIENT_SECRET = "pathshala-sandbox-partner-client-secret";
export const SANDBOX_PARTNER_WEBHOOK_SECRET = "pathshala-sandbox-partner-webhook-secret";

export const RAZORPAY_API_URL = "https://api.razorpay.com";
export const RAZORPAY_CHECKOUT_SCRIPT = "https://checkout.razorpay.com/v1/checkout.js";
export const SANDBOX_PATH = "/_sandbox/razorpay";
export const RAZORPAY_AUTH_URL = "https://auth.razorpay.com";

/**
 * The platform's Razorpay partner application: with it, owners connect their institute's account
 * by Razorpay's OAuth ('Connect with Razorpay') instead of typing keys.
 */
export interface PartnerConfig {
  clientId: string;
  clientSecret: string;
  /**
   * The secret of the partner webhook: Razorpay signs the events of every account connected by OAuth
   * with it (they name the account in `account_id`). Checkout results of those accounts are signed
   * with the client secret.
   */
  webhookSecret: string;
  /** Where the owner's browser is sent to allow access (a path on our own origin for the sandbox). */
  authorizeUrl: string;
  /** Where the server exchanges a code or a refresh token for tokens. */
  tokenUrl: string;
  /** Where the server revokes tokens it will not use. */
  revokeUrl: string;
}

export interface PaymentConfig {
  /**
   * Razorpay itself (keys set), its offline stand-in (RAZORPAY_SANDBOX=1), or none: without keys
   * and without the switch nothing can be paid, rather than anyone "paying" in a sandbox.
   */
  mode: "razorpay" | "sandbox" | "off";
  /** The offline stand-in of Razorpay is mounted and used. */
  sandbox: boolean;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Base URL the Razorpay SDK calls (`/v1/orders` is appended). */
  apiUrl: string;
  /** The Checkout script the browser loads (a path on our own origin for the sandbox). */
  checkoutScript: string;
  /** Where the sandbox delivers its webhooks, and the Host it names (one of ours). */
  webhookTarget: { url: string; host: string };
  /** The partner application for 'Connect with Razorpay', or null (owners connect by keys only). */
  partner: PartnerConfig | null;
}

export class PaymentConfigError extends Error {}

/**
 * `RAZORPAY_SANDBOX=1` runs the sandbox, signing with the configured secrets when given; real keys
 * without it use Razorpay itself and need both secrets; neither leaves payments off (orders are
 * refused with a 503). The sandbox is never chosen because a key is missing.
 */
export function resolvePaymentConfig(env: Env): PaymentConfig {
  const sandbox = env.RAZORPAY_SANDBOX;
  const self = `http://${localAddress(env.HOST)}:${env.PORT}`;
  if (!sandbox && !env.RAZORPAY_KEY_ID)
    return {
      mode: "off",
      sandbox: false,
      keyId: "",
      keySecret: "",
      webhookSecret: "",
      apiUrl: RAZORPAY_API_URL,
      checkoutScript: RAZORPAY_CHECKOUT_SCRIPT,
      webhookTarget: { url: `${self}/api/payment/webhook`, host: env.PLATFORM_HOSTS[0] ?? "localhost" },
      partner: null,
    };
  if (!sandbox) {
    if (!env.RAZORPAY_KEY_SECRET)
      throw new PaymentConfigError(
        "RAZORPAY_KEY_SECRET must be set when RAZORPAY_KEY_ID is (or set RAZORPAY_SANDBOX=1)",
      );
    if (!env.RAZORPAY_WEBHOOK_SECRET)
      throw new PaymentConfigError(
        "RAZORPAY_WEBHOOK_SECRET must be set when RAZORPAY_KEY_ID is (or set RAZORPAY_SANDBOX=1)",
      );
    for (const name of ["RAZORPAY_PARTNER_CLIENT_SECRET", "RAZORPAY_PARTNER_WEBHOOK_SECRET"] as const)
      if (env.RAZORPAY_PARTNER_CLIENT_ID && !env[name])
        throw new PaymentConfigError(
          `${name} must be set when RAZORPAY_PARTNER_CLIENT_ID is (or set RAZORPAY_SANDBOX=1)`,
        );
  }
  const apiUrl = (env.RAZORPAY_API_URL ?? (sandbox ? `${self}${SANDBOX_PATH}` : RAZORPAY_API_URL)).replace(/\/+$/, "");
  return {
    mode: sandbox ? "sandbox" : "razorpay",
    sandbox,
    keyId: env.RAZORPAY_KEY_ID ?? SANDBOX_KEY_ID,
    keySecret: env.RAZORPAY_KEY_SECRET ?? SANDBOX_KEY_SECRET,
    webhookSecret: env.RAZORPAY_WEBHOOK_SECRET ?? SANDBOX_WEBHOOK_SECRET,
    apiUrl,
    checkoutScript: sandbox ? `${SANDBOX_PATH}/checkout.js` : RAZORPAY_CHECKOUT_SCRIPT,
    webhookTarget: {
      url: `${sandbox && env.RAZORPAY_API_URL ? new URL(apiUrl).origin : self}/api/payment/webhook`,
      host: env.PLATFORM_HOSTS[0] ?? "localhost",
    },
    partner: partnerConfig(env, sandbox, apiUrl),
  };
}

/**
 * The partner application: the configured one (its client id, secret and webhook secret all set),
 * else, with the sandbox on, the sandbox's own (so the demo shows 'Connect with Razorpay'); never
 * the sandbox's because a setting is missing on a real server.
 */
function partnerConfig(env: Env, sandbox: boolean, apiUrl: string): PartnerConfig | null {
  if (!sandbox && !env.RAZORPAY_PARTNER_CLIENT_ID) return null;
  const authUrl = env.RAZORPAY_AUTH_URL?.replace(/\/+$/, "");
  return {
    clientId: env.RAZORPAY_PARTNER_CLIENT_ID ?? SANDBOX_PARTNER_CLIENT_ID,
    clientSecret: env.RAZORPAY_PARTNER_CLIENT_SECRET ?? SANDBOX_PARTNER_CLIENT_SECRET,
    webhookSecret: env.RAZORPAY_PARTNER_WEBHOOK_SECRET ?? SANDBOX_PARTNER_WEBHOOK_SECRET,
    authorizeUrl: authUrl
      ? `${authUrl}/authorize`
      : sandbox
        ? `${SANDBOX_PATH}/oauth/authorize`
        : `${RAZORPAY_AUTH_URL}/authorize`,
    tokenUrl: authUrl ? `${authUrl}/token` : sandbox ? `${apiUrl}/oauth/token` : `${RAZORPAY_AUTH_URL}/token`,
    revokeUrl: authUrl ? `${authUrl}/revoke` : sandbox ? `${apiUrl}/oauth/revoke` : `${RAZORPAY_AUTH_URL}/revoke`,
  };
}

/** The address this process can reach itself on, given the interface it listens on. */
export function localAddress(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "" || host === "localhost") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}
