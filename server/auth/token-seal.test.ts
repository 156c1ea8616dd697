import { describe, expect, it } from "vitest";
import { openWithToken, sealWithToken } from "./token-seal.ts";
import { generateToken } from "./tokens.ts";

describe("sealWithToken", () => {
  it("opens only with the token it was sealed under", () => {
    const token = generateToken();
    const sealed = sealWithToken(token, '{"refresh_token":"next"}');
    expect(sealed).not.toContain("next");
    expect(openWithToken(token, sealed)).toBe('{"refresh_token":"next"}');
    expect(openWithToken(generateToken(), sealed)).toBeNull();
  });

  it("refuses an altered or truncated seal", () => {
    const token = generateToken();
    const sealed = Buffer.from(sealWithToken(token, "pair"), "base64url");
    sealed[sealed.length - 1] ^= 1;
    expect(openWithToken(token, sealed.toString("base64url"))).toBeNull();
    expect(openWithToken(token, "short")).toBeNull();
  });

  it("seals the same text differently each time", () => {
    const token = generateToken();
    expect(sealWithToken(token, "pair")).not.toBe(sealWithToken(token, "pair"));
  });
});
