import { describe, expect, it } from "vitest";
import { generateToken, hashToken, timingSafeEqualText } from "./tokens.ts";

describe("tokens", () => {
  it("stores a token as its SHA-256 in lower-case hex, of its UTF-8 bytes", () => {
    expect(hashToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hashToken("पाठशाला")).toBe("56c07c45d7581437d551457e0c3bf4d9bb1e31e7eff6b499c2c44a970bf14054"); // UTF-8 bytes
    expect(hashToken("a")).not.toBe(hashToken("b"));
  });

  it("makes 160-bit base32 tokens, never the same twice", () => {
    const token = generateToken();
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    expect(generateToken()).not.toBe(token);
  });

  it("compares secrets of any length", () => {
    expect(timingSafeEqualText("Bearer secret", "Bearer secret")).toBe(true);
    expect(timingSafeEqualText("Bearer secret", "Bearer secreT")).toBe(false);
    expect(timingSafeEqualText("", "x".repeat(500))).toBe(false);
  });
});
