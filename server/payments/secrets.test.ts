import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { SANDBOX_SECRETS_KEY, SecretBox, parseSecretsKey, secretBoxFor } from "./secrets.ts";

describe("sealed payment secrets", () => {
  const box = new SecretBox(randomBytes(32));

  it("opens what it sealed, for the same row and column only", () => {
    const sealed = box.seal("rzp-key-secret-123", "merchant_accounts:a:keySecret");
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain("rzp-key-secret-123");
    expect(box.open(sealed, "merchant_accounts:a:keySecret")).toBe("rzp-key-secret-123");
    // A fresh nonce each time: the same secret never seals the same way twice.
    expect(box.seal("rzp-key-secret-123", "merchant_accounts:a:keySecret")).not.toBe(sealed);
    expect(() => box.open(sealed, "merchant_accounts:b:keySecret")).toThrow();
    expect(() => box.open(sealed, "merchant_accounts:a:webhookSecret")).toThrow();
  });

  it("does not open under another key, or when tampered with", () => {
    const sealed = box.seal("whsec", "ctx");
    expect(() => new SecretBox(randomBytes(32)).open(sealed, "ctx")).toThrow();
    const bytes = Buffer.from(sealed.slice(3), "base64");
    bytes[bytes.length - 1] ^= 1;
    expect(() => box.open(`v1:${bytes.toString("base64")}`, "ctx")).toThrow();
  });

  it("takes SECRETS_KEY as 64 hex digits or base64 of 32 bytes; without it, only the sandbox has a key", () => {
    const key = randomBytes(32);
    expect(parseSecretsKey(key.toString("hex"))).toEqual(key);
    expect(parseSecretsKey(key.toString("base64"))).toEqual(key);
    expect(parseSecretsKey("too-short")).toBeUndefined();
    expect(secretBoxFor({ RAZORPAY_SANDBOX: false })).toBeNull();
    const sandbox = secretBoxFor({ RAZORPAY_SANDBOX: true })!;
    expect(sandbox.sandboxDefault).toBe(true);
    expect(new SecretBox(SANDBOX_SECRETS_KEY).open(sandbox.seal("s", "c"), "c")).toBe("s");
    expect(secretBoxFor({ RAZORPAY_SANDBOX: true, SECRETS_KEY: key.toString("hex") })!.sandboxDefault).toBe(false);
    expect(() => secretBoxFor({ RAZORPAY_SANDBOX: false, SECRETS_KEY: "nope" })).toThrow(/SECRETS_KEY/);
  });
});
