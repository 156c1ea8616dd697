import { createHmac, timingSafeEqual } from "node:crypto";

export function hmacSha256Hex(secret: string, message: string | Uint8Array): string {
  return createHmac("sha256", secret).update(message).digest("hex");
}

/**
 * Compares a received hex signature with the expected one in constant time (for equal lengths;
 * a length mismatch reveals only that the input was malformed).
 */
export function signaturesMatch(expectedHex: string, received: string): boolean {
  const a = Buffer.from(expectedHex, "utf8");
  const b = Buffer.from(received.trim().toLowerCase(), "utf8");
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}

/** Razorpay Checkout's signature: HMAC-SHA256(order_id + "|" + payment_id) with the key secret. */
export function checkoutSignature(keySecret: string, orderId: string, paymentId: string): string {
  return hmacSha256Hex(keySecret, `${orderId}|${paymentId}`);
}

/** Razorpay webhooks: HMAC-SHA256 of the raw request body with the webhook secret. */
export function webhookSignature(webhookSecret: string, rawBody: string | Uint8Array): string {
  return hmacSha256Hex(webhookSecret, rawBody);
}
