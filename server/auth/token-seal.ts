import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The key only the holder of `token` can make. The database keeps the token's SHA-256, from
 * which this key cannot be made, so what is sealed with it is unreadable from the database alone.
 */
function keyOf(token: string): Buffer {
  return Buffer.from(hkdfSync("sha256", token, "", "pathshala sealed-by-token", 32));
}

/** Seals `text` (AES-256-GCM) under a key derived from `token`. */
export function sealWithToken(token: string, text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyOf(token), iv);
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** The text sealed under `token`, or null when it was sealed under another token or altered. */
export function openWithToken(token: string, sealed: string): string | null {
  const bytes = Buffer.from(sealed, "base64url");
  if (bytes.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(token), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
