import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createCenter } from "../helpers/centers.ts";
import { contentSecurityPolicy } from "../../server/middleware/security-headers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  await createCenter(t, null, { slug: "headers", customDomain: "headers.test" });
});
afterAll(() => t.close());

describe("security headers", () => {
  it("give HTML a strict Content-Security-Policy: no inline script runs without the response's nonce", async () => {
    const a = await t.request("/", { host: "headers.test" });
    const csp = a.headers.get("content-security-policy")!;
    // An institute's home page has no inline script at all.
    expect(csp).toMatch(/script-src 'self';/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toContain("razorpay");
  });

  it("give each React Router page its own nonce", () => {
    const a = contentSecurityPolicy("abc", { secure: false, razorpay: false });
    expect(a).toContain("script-src 'self' 'nonce-abc'");
  });

  it("let a page kept as bytes run exactly its own inline scripts, by their hashes", () => {
    const policy = contentSecurityPolicy(undefined, {
      secure: false,
      razorpay: false,
      scriptHashes: ["aGFzaDE=", "aGFzaDI="],
    });
    expect(policy).toContain("script-src 'self' 'sha256-aGFzaDE=' 'sha256-aGFzaDI='; ");
    expect(policy).not.toContain("nonce");
    expect(contentSecurityPolicy(undefined, { secure: false, razorpay: false })).toContain("script-src 'self'; ");
  });

  it("are on every answer; HSTS only over https", async () => {
    const plain = await t.request("/api/pricing");
    expect(plain.headers.get("x-content-type-options")).toBe("nosniff");
    expect(plain.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(plain.headers.get("x-frame-options")).toBe("DENY");
    expect(plain.headers.get("permissions-policy")).toBe(
      "camera=(), microphone=(), geolocation=(), browsing-topics=()",
    );
    expect(plain.headers.get("cross-origin-opener-policy")).toBe("same-origin-allow-popups");
    // No policy nobody chose: resources stay loadable from other origins, as before.
    expect(plain.headers.get("cross-origin-resource-policy")).toBeNull();
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    const tls = await t.request("/api/pricing", { headers: { "x-forwarded-proto": "https" } });
    expect(tls.headers.get("strict-transport-security")).toBe("max-age=63072000");
  });

  it("let Razorpay in only where Checkout is used, with real keys", () => {
    expect(contentSecurityPolicy("n", { secure: true, razorpay: true })).toContain(
      "script-src 'self' 'nonce-n' https://checkout.razorpay.com",
    );
    expect(contentSecurityPolicy("n", { secure: true, razorpay: true })).toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy("n", { secure: false, razorpay: false })).not.toContain("razorpay");
  });
});
