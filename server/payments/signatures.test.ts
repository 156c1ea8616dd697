import { describe, expect, it } from "vitest";
import { checkoutSignature, signaturesMatch, webhookSignature } from "./signatures.ts";

describe("payment signatures", () => {
  it("computes Razorpay's checkout signature over order_id|payment_id", () => {
    // Known answer from `printf "order_1|pay_1" | openssl dgst -sha256 -hmac secret`.
    expect(checkoutSignature("secret", "order_1", "pay_1")).toBe(
      "52115a0d3400de9e86aade1f1b6eba9e8974604f4e267a9e9a16633a4c8dd2cb",
    );
    expect(checkoutSignature("secret", "order_1", "pay_1")).toMatch(/^[0-9a-f]{64}$/);
    expect(checkoutSignature("secret", "order_1", "pay_1")).not.toBe(checkoutSignature("secret", "order_1", "pay_2"));
    expect(checkoutSignature("secret", "order_1", "pay_1")).not.toBe(checkoutSignature("other", "order_1", "pay_1"));
  });

  it("matches only the exact signature", () => {
    const good = webhookSignature("whsec", '{"a":1}');
    expect(signaturesMatch(good, good)).toBe(true);
    expect(signaturesMatch(good, good.toUpperCase())).toBe(true);
    expect(signaturesMatch(good, `${good.slice(0, -1)}0`)).toBe(good.endsWith("0"));
    expect(signaturesMatch(good, "")).toBe(false);
    expect(signaturesMatch(good, good.slice(1))).toBe(false);
    expect(signaturesMatch(good, webhookSignature("whsec", '{"a":2}'))).toBe(false);
  });
});
