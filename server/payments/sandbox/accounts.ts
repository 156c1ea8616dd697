import { createHash, createHmac } from "node:crypto";
import { SANDBOX_KEY_SECRET, SANDBOX_WEBHOOK_SECRET } from "../config.ts";
import { sandboxId } from "./ids.ts";

/**
 * The sandbox's merchant accounts (institutes' Razorpay accounts). Each has its own key id, key
 * secret and webhook secret; the secrets are derived from the key id with the sandbox's own
 * development secrets, so the sandbox keeps no list and an account outlives a restart (as a real
 * account outlives a deploy). The platform's own sandbox account is the configured one
 * (config.ts); these are the others.
 */
export interface SandboxAccount {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
}

const KEY_ID = /^rzp_test_[A-Za-z0-9]{14}$/;

function derive(purpose: string, keyId: string, secret: string): string {
  return createHmac("sha256", secret).update(`${purpose}|${keyId}`).digest("base64url").slice(0, 24);
}

/** The account with this key id, if it is one of the sandbox's (any well-formed test key id is). */
export function sandboxAccount(keyId: string): SandboxAccount | undefined {
  if (!KEY_ID.test(keyId)) return undefined;
  return {
    keyId,
    keySecret: derive("key-secret", keyId, SANDBOX_KEY_SECRET),
    webhookSecret: derive("webhook-secret", keyId, SANDBOX_WEBHOOK_SECRET),
  };
}

/** A new sandbox account (the sandbox dashboard's "create a test account"). */
export function newSandboxAccount(): SandboxAccount {
  return sandboxAccount(`rzp_test_${sandboxId("x").slice(2)}`)!;
}

/** The same account for the same name every time (the demo institutes' accounts). */
export function namedSandboxAccount(name: string): SandboxAccount {
  const digest = createHash("sha256").update(`pathshala-demo|${name}`).digest();
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let id = "";
  for (let i = 0; i < 14; i++) id += alphabet[digest[i] % alphabet.length];
  return sandboxAccount(`rzp_test_${id}`)!;
}

const PUBLIC_TOKEN = /^rzp_test_oauth_([A-Za-z0-9]{14})$/;

/** An account's OAuth public token (what Checkout is opened with for a partner): `rzp_test_oauth_` and its 14 characters. */
export function sandboxPublicToken(account: SandboxAccount): string {
  return `rzp_test_oauth_${account.keyId.slice(-14)}`;
}

/** The account's Razorpay id (`acc_…`), as its webhooks and OAuth tokens name it. */
export function sandboxAccountId(account: SandboxAccount): string {
  return `acc_${account.keyId.slice(-14)}`;
}

/** The account whose public token this is, if it is one of the sandbox's. */
export function sandboxAccountOfPublicToken(token: string): SandboxAccount | undefined {
  const match = PUBLIC_TOKEN.exec(token);
  return match ? sandboxAccount(`rzp_test_${match[1]}`) : undefined;
}

/** The account with this Razorpay id (`acc_` and 14 characters), if it is one of the sandbox's. */
export function sandboxAccountOfId(accountId: string): SandboxAccount | undefined {
  const match = /^acc_([A-Za-z0-9]{14})$/.exec(accountId);
  return match ? sandboxAccount(`rzp_test_${match[1]}`) : undefined;
}
