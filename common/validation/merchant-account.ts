import * as v from "valibot";

/**
 * An institute's own Razorpay account (decision 0040): its students' payments are made on it. The
 * owner connects it on Website Details with the account's key id, key secret and webhook secret.
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
  keyId: string;
  status: "connected" | "disconnected";
  connectedAt: string;
  connectedBy: string | null;
  disconnectedAt: string | null;
  webhookUrl: string;
}
