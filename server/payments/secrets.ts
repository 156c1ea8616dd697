import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";

/**
 * Sealing the secrets stored for institutes' payment accounts: AES-256-GCM with a random 12-byte
 * nonce, the row and field as associated data (a sealed value copied to another row or column
 * does not open), stored as `v1:<base64 nonce|tag|ciphertext>`.
 */
export class SecretBox {
  private readonly key: Buffer;
  /** Whether this is the documented sandbox key (only sandbox accounts may be sealed with it). */
  readonly sandboxDefault: boolean;

  constructor(key: Buffer, sandboxDefault = false) {
    if (key.length !== 32) throw new Error("the secrets key must be 32 bytes");
    this.key = key;
    this.sandboxDefault = sandboxDefault;
  }

  seal(plain: string, context: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    cipher.setAAD(Buffer.from(context, "utf8"));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return `v1:${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64")}`;
  }

  /** A key of its own for another purpose (signing OAuth states), derived from this one. */
  derive(purpose: string): Buffer {
    return createHmac("sha256", this.key).update(`pathshala-derived-key|${purpose}`).digest();
  }

  /** Throws when the value was sealed with another key or for another context. */
  open(sealed: string, context: string): string {
    if (!sealed.startsWith("v1:")) throw new Error("unknown sealed-secret format");
    const raw = Buffer.from(sealed.slice(3), "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }
}

/**
 * The documented key the offline sandbox seals its test accounts' secrets with when SECRETS_KEY is
 * not set (README, docs/payments.md). It protects nothing real: with it, only sandbox accounts
 * can be connected (MerchantAccounts refuses real keys).
 */
export const SANDBOX_SECRETS_KEY = createHash("sha256").update("pathshala-sandbox-secrets-key").digest();

/** SECRETS_KEY: 32 bytes as 64 hex digits or base64. */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  const b64 = Buffer.from(trimmed, "base64");
  return b64.length === 32 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? b64 : undefined;
}

/** The box for this server: SECRETS_KEY, else the sandbox's documented key while the sandbox is on, else none. */
export function secretBoxFor(env: { SECRETS_KEY?: string; RAZORPAY_SANDBOX: boolean }): SecretBox | null {
  if (env.SECRETS_KEY) {
    const key = parseSecretsKey(env.SECRETS_KEY);
    if (!key) throw new Error("SECRETS_KEY must be 32 bytes: 64 hex digits or base64");
    return new SecretBox(key);
  }
  return env.RAZORPAY_SANDBOX ? new SecretBox(SANDBOX_SECRETS_KEY, true) : null;
}
