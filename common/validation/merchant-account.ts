import * as v from "valibot";

/**
 * An institute's own Razorpay account (decision 0040): its students' payments are made on it. The
 * owner connects it on Website Details with Razorpay's partner OAuth ('Connect with Razorpay', when
 * the platform has a partner application) or with the account's key id, key secret and webhook secret.
 */

export const NOT_ON_SALE = "Not on sale yet";

export const MERCHANT_TEXTS = {
  title: "Payments",
  description:
    "Your students pay your institute directly: their payments for courses, tests and series go to your own Razorpay account, under your GSTIN, and refunds are made from it.",
  notConnected:
    "Students can't buy your paid items until you connect your Razorpay account: they show 'Not on sale yet'. Free items work as before.",
  connected: (keyId: string) => `Connected to the Razorpay account with key id ${keyId}.`,
  connect: "Connect account",
  disconnect: "Disconnect",
  connectedToast: "Razorpay account connected",
  disconnectedToast: "Razorpay account disconnected",
  webhookHint:
    "In your Razorpay Dashboard (Settings → Webhooks), add this URL with the webhook secret you entered, for the events payment.captured, order.paid and payment.failed:",
  sandboxHint: "The offline payment sandbox is on: make a test account and copy its keys here.",
  sandboxLink: "Make a sandbox test account",
  keyIdRequired: "Please enter the key id (it starts with rzp_live_ or rzp_test_).",
  keyIdInvalid: "The key id looks like rzp_live_ or rzp_test_ followed by 14 letters and digits.",
  keySecretRequired: "Please enter the key secret.",
  webhookSecretRequired: "Please enter the webhook secret you set for your webhook in Razorpay.",
  secretInvalid: "A secret is 8 to 200 characters with no spaces.",
  wrongKeys: "Razorpay did not accept this key id and key secret. Please copy both again from your Razorpay Dashboard.",
  usedElsewhere: "This Razorpay account is already connected to another institute.",
  alreadyConnected: "Your institute already has a connected Razorpay account. Disconnect it first.",
  notConnectedYet: "Your institute has no connected Razorpay account.",
  noSecretsKey:
    "This server cannot store payment keys yet: its SECRETS_KEY setting is missing. Please contact support.",
  sandboxKeysOnly: "While the payment sandbox is on, only the sandbox's test accounts can be connected.",
  gatewayDown: "We could not reach Razorpay to check the keys. Please try again in a minute.",
  paymentsOff: "Online payments are not set up on this server yet. Please contact support.",
  connectWithRazorpay: "Connect with Razorpay",
  oauthHint:
    "Sign in to Razorpay and allow Pathshala to take your students' payments on your account: no keys to copy, and you can revoke it from your Razorpay Dashboard.",
  orKeys: "Or enter your account's API keys:",
  oauthOnPlatform: "'Connect with Razorpay' works from Website Details on Pathshala's own address:",
  oauthConnected: (razorpayAccountId: string) => `Connected with Razorpay to the account ${razorpayAccountId}.`,
  oauthWebhookHint:
    "Razorpay sends this account's payment events to Pathshala itself (its partner webhook): there is nothing to set up.",
  needsReconnection: (account: string) =>
    `Razorpay no longer lets Pathshala use the account ${account}: its access was revoked. Your paid items show 'Not on sale yet' until you connect an account again.`,
  oauthUnavailable: "Connecting with Razorpay is not set up on this server. Please enter your account's keys instead.",
  stateForged: "This Razorpay connection link is not valid. Please press 'Connect with Razorpay' again.",
  stateExpired:
    "This Razorpay connection link has expired (it lasts 10 minutes). Please press 'Connect with Razorpay' again.",
  stateUsed: "This Razorpay connection link was already used. Please press 'Connect with Razorpay' again.",
  stateNotYours:
    "This Razorpay connection was started by another sign-in. Please press 'Connect with Razorpay' again here.",
  oauthDenied: "You did not allow Pathshala to use your Razorpay account, so nothing was connected.",
  codeRefused:
    "Razorpay did not accept this connection (it may have expired). Please press 'Connect with Razorpay' again.",
  oauthGatewayDown:
    "We could not reach Razorpay to finish connecting. Please press 'Connect with Razorpay' again in a minute.",
  couldNotConnect: "Could not connect",
  signInFirst: "Please sign in as the institute's owner, then press 'Connect with Razorpay' again.",
  /** The API's answer to an order for an item of an institute that has not connected its account. */
  notOnSale: (institute: string) =>
    `${NOT_ON_SALE}: ${institute} has not connected its payment account, so its paid items cannot be bought yet.`,
} as const;

const secret = (required: string) =>
  v.pipe(
    v.optional(v.string(required), ""),
    v.trim(),
    v.nonEmpty(required),
    v.regex(/^\S{8,200}$/, MERCHANT_TEXTS.secretInvalid),
  );

export const ConnectKeysSchema = v.object({
  centerId: v.optional(
    v.pipe(v.string(), v.uuid("Unknown institute"), v.description("which of your institutes (else your newest)")),
  ),
  keyId: v.pipe(
    v.optional(v.string(MERCHANT_TEXTS.keyIdRequired), ""),
    v.trim(),
    v.nonEmpty(MERCHANT_TEXTS.keyIdRequired),
    v.regex(/^rzp_(live|test)_[A-Za-z0-9]{14}$/, MERCHANT_TEXTS.keyIdInvalid),
    v.description("the account's key id (public)"),
  ),
  keySecret: v.pipe(secret(MERCHANT_TEXTS.keySecretRequired), v.description("stored encrypted, never shown again")),
  webhookSecret: v.pipe(
    secret(MERCHANT_TEXTS.webhookSecretRequired),
    v.description("the secret of the webhook set in Razorpay; stored encrypted, never shown again"),
  ),
});
export type ConnectKeysInput = v.InferOutput<typeof ConnectKeysSchema>;

/** What the owner sees of their account: never a secret. */
export interface MerchantAccountJson {
  id: string;
  method: "keys" | "oauth";
  /** The key id, or an OAuth connection's public token (both public: Checkout is opened with them). */
  keyId: string;
  /** OAuth: the Razorpay account that allowed access (`acc_…`). */
  razorpayAccountId: string | null;
  status: "connected" | "disconnected";
  /** Razorpay refused this OAuth connection's refresh token (access revoked): the owner connects again. */
  needsReconnection: boolean;
  connectedAt: string;
  connectedBy: string | null;
  disconnectedAt: string | null;
  webhookUrl: string;
}
