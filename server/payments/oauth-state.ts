import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The `state` of a 'Connect with Razorpay' (Razorpay's OAuth): it says which institute the owner
 * is connecting, for which person and session, until when, and carries a random nonce that the
 * server records to use it once (`merchant_oauth_states`). It is signed (HMAC-SHA256, a key derived
 * from SECRETS_KEY), so a state that was altered or made up is refused before anything is looked
 * up. The session appears only as a keyed tag, never as itself, since the state travels through
 * Razorpay and the browser's address bar.
 */

export const STATE_TTL_MS = 10 * 60 * 1000;

export interface StateClaims {
  nonce: string;
  centerId: string;
  userId: string;
  /** `sessionTag(key, session id)` of the session that pressed the button. */
  sessionTag: string;
  expiresAt: Date;
}

export type StateReading = { ok: true; claims: StateClaims } | { ok: false; reason: "forged" | "expired" };

const b64 = (buf: Buffer) => buf.toString("base64url");
const mac = (key: Buffer, text: string) => b64(createHmac("sha256", key).update(`oauth-state|${text}`).digest());

/** A fresh nonce: 128 bits from the CSPRNG. */
export function newNonce(): string {
  return b64(randomBytes(16));
}

/** The tag that binds a state to a session without naming it. */
export function sessionTag(key: Buffer, sessionId: string): string {
  return b64(createHmac("sha256", key).update(`oauth-session|${sessionId}`).digest()).slice(0, 22);
}

export function signState(key: Buffer, claims: StateClaims): string {
  const payload = b64(
    Buffer.from(
      JSON.stringify({
        n: claims.nonce,
        c: claims.centerId,
        u: claims.userId,
        s: claims.sessionTag,
        e: claims.expiresAt.getTime(),
      }),
      "utf8",
    ),
  );
  return `v1.${payload}.${mac(key, payload)}`;
}

/** The state's claims if its signature is ours and it has not expired. */
export function readState(key: Buffer, state: unknown, now: Date = new Date()): StateReading {
  if (typeof state !== "string" || state.length > 1_000) return { ok: false, reason: "forged" };
  const parts = state.split(".");
  if (parts.length !== 3 || parts[0] !== "v1" || !parts[1] || !parts[2]) return { ok: false, reason: "forged" };
  const expected = mac(key, parts[1]);
  // Both are 43 base64url characters here, so the comparison takes the same time whatever they hold.
  if (!/^[A-Za-z0-9_-]{43}$/.test(parts[2]) || !timingSafeEqual(Buffer.from(expected), Buffer.from(parts[2])))
    return { ok: false, reason: "forged" };
  let raw: { n?: unknown; c?: unknown; u?: unknown; s?: unknown; e?: unknown };
  try {
    raw = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")) as typeof raw;
  } catch {
    return { ok: false, reason: "forged" };
  }
  const { n, c, u, s, e } = raw ?? {};
  if (typeof n !== "string" || typeof c !== "string" || typeof u !== "string" || typeof s !== "string")
    return { ok: false, reason: "forged" };
  if (typeof e !== "number" || !Number.isFinite(e)) return { ok: false, reason: "forged" };
  if (e <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, claims: { nonce: n, centerId: c, userId: u, sessionTag: s, expiresAt: new Date(e) } };
}
