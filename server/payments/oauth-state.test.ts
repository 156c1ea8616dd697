import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { newNonce, readState, sessionTag, signState, STATE_TTL_MS, type StateClaims } from "./oauth-state.ts";

const key = randomBytes(32);
const now = new Date("2026-12-01T10:00:00Z");
const claims = (over: Partial<StateClaims> = {}): StateClaims => ({
  nonce: newNonce(),
  centerId: "7b0c2a52-2f0e-4c1e-9a51-0d8f5d9b6a11",
  userId: "2a7e4c1d-9b8f-4e3a-8c2d-1f0e9d8c7b6a",
  sessionTag: sessionTag(key, "session-1"),
  expiresAt: new Date(now.getTime() + STATE_TTL_MS),
  ...over,
});

describe("OAuth state", () => {
  it("reads back what was signed, until it expires", () => {
    const c = claims();
    const state = signState(key, c);
    expect(state).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(readState(key, state, now)).toEqual({ ok: true, claims: c });
    expect(readState(key, state, new Date(c.expiresAt.getTime() - 1)).ok).toBe(true);
    expect(readState(key, state, c.expiresAt)).toEqual({ ok: false, reason: "expired" });
  });

  it("names no session, only a keyed tag of it", () => {
    const state = signState(key, claims());
    const payload = Buffer.from(state.split(".")[1], "base64url").toString("utf8");
    expect(payload).not.toContain("session-1");
    expect(sessionTag(key, "session-1")).not.toBe(sessionTag(key, "session-2"));
    expect(sessionTag(randomBytes(32), "session-1")).not.toBe(sessionTag(key, "session-1"));
  });

  it("refuses a state signed with another key, altered, or malformed", () => {
    const c = claims();
    const state = signState(key, c);
    expect(readState(randomBytes(32), state, now)).toEqual({ ok: false, reason: "forged" });
    // Another institute in the payload, the signature kept.
    const [v, , sig] = state.split(".");
    const other = Buffer.from(JSON.stringify({ n: c.nonce, c: "other", u: c.userId, s: c.sessionTag, e: 9e15 }));
    expect(readState(key, `${v}.${other.toString("base64url")}.${sig}`, now)).toEqual({
      ok: false,
      reason: "forged",
    });
    // A later expiry, re-signed with the wrong key, is still refused.
    expect(readState(key, signState(randomBytes(32), { ...c, expiresAt: new Date(9e15) }), now)).toEqual({
      ok: false,
      reason: "forged",
    });
    // One character of the signature changed, in case only too (base64url is case-sensitive).
    const last = sig.at(-1)!;
    const swapped =
      last.toLowerCase() !== last
        ? last.toLowerCase()
        : last.toUpperCase() !== last
          ? last.toUpperCase()
          : last === "A"
            ? "B"
            : "A";
    const changed = `${v}.${state.split(".")[1]}.${sig.slice(0, -1)}${swapped}`;
    expect(readState(key, changed, now)).toEqual({ ok: false, reason: "forged" });
    for (const bad of [undefined, 42, "", "v1..", "v1.a.b", "v2.x.y", state + ".x", "x".repeat(2_000)])
      expect(readState(key, bad, now)).toEqual({ ok: false, reason: "forged" });
  });

  it("refuses a signed payload that is not the state's shape", () => {
    const forge = (payload: unknown) => {
      // Signed with the right key through signState's own format: only the payload differs.
      const good = signState(key, claims()).split(".");
      const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
      const sig = good[2]; // the signature of another payload
      return `v1.${body}.${sig}`;
    };
    expect(readState(key, forge({ n: 1 }), now)).toEqual({ ok: false, reason: "forged" });
  });

  it("makes a new nonce every time", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
  });
});
