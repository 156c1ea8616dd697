import { randomBytes } from "node:crypto";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http-types.ts";

/** Pages that open Razorpay Checkout: the only ones whose policy lets Razorpay's scripts and frames in. */
const CHECKOUT_PAGES = [/^\/pricing\/setup$/, /^\/business\/subscription-plan$/, /^\/catalog$/, /^\/student(\/|$)/, /^\/my-courses$/];
const RAZORPAY = {
  script: ["https://checkout.razorpay.com"],
  frame: ["https://api.razorpay.com", "https://checkout.razorpay.com"],
  connect: ["https://api.razorpay.com", "https://lumberjack.razorpay.com"],
  img: ["https://cdn.razorpay.com"],
};

/**
 * The policy of an HTML answer. Inline scripts run only with this response's nonce, or, in a page
 * kept as bytes and sent to many (server/pages/kept-pages.ts), only if their text has one of
 * `scriptHashes` (base64 SHA-256): a nonce sent to everyone would protect nothing.
 */
export function contentSecurityPolicy(
  nonce: string | undefined,
  options: { secure: boolean; razorpay: boolean; scriptHashes?: readonly string[] },
): string {
  const extra = (list: string[]) => (options.razorpay ? ` ${list.join(" ")}` : "");
  const hashes = (options.scriptHashes ?? []).map((hash) => ` 'sha256-${hash}'`).join("");
  return [
    "default-src 'self'",
    // A fresh nonce per response: only the scripts the server itself rendered run.
    `script-src 'self'${nonce ? ` 'nonce-${nonce}'` : ""}${hashes}${extra(RAZORPAY.script)}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${extra(RAZORPAY.img)}`,
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src 'self'${extra(RAZORPAY.connect)}`,
    `frame-src 'self'${extra(RAZORPAY.frame)}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
    ...(options.secure ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** A fresh nonce for this response's inline scripts, remembered for its policy. */
export function newNonce(c: { set(key: "nonce", value: string): void }): string {
  const nonce = randomBytes(16).toString("base64");
  c.set("nonce", nonce);
  return nonce;
}

const BASE_HEADERS = { plain: build(false), secure: build(true) };

/** The headers every answer carries (HSTS only over https); the same arrays every time. */
function baseSecurityHeaders(secure: boolean): readonly [string, string][] {
  return secure ? BASE_HEADERS.secure : BASE_HEADERS.plain;
}

function build(secure: boolean): [string, string][] {
  return [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), browsing-topics=()"],
    ["Cross-Origin-Opener-Policy", "same-origin-allow-popups"],
    ...(secure ? ([["Strict-Transport-Security", "max-age=63072000"]] as [string, string][]) : []),
  ];
}

/** Whether this request arrived over https (directly or as a trusted proxy says). */
export function isSecure(c: { req: { url: string; header(name: string): string | undefined } }, trustProxy: boolean): boolean {
  const forwarded = trustProxy ? c.req.header("x-forwarded-proto") : undefined;
  return forwarded ? forwarded.split(",")[0].trim() === "https" : c.req.url.startsWith("https:");
}

/**
 * Headers every answer carries, and for HTML a strict Content-Security-Policy whose nonce the
 * React Router render uses (c.get("nonce")). HSTS only over https.
 */
export function securityHeaders(options: { trustProxy: boolean; realRazorpay: () => boolean; csp: boolean }) {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const headers = c.res.headers;
    // Only pages React Router renders have inline scripts; they asked for a nonce (newNonce).
    const nonce = c.get("nonce");
    const secure = isSecure(c, options.trustProxy);
    for (const [name, value] of baseSecurityHeaders(secure)) if (name !== "X-Frame-Options" || !headers.has(name)) headers.set(name, value);
    if (options.csp && (headers.get("content-type") ?? "").startsWith("text/html") && !headers.has("Content-Security-Policy")) {
      const path = c.req.path.replace(/\.data$/, "");
      const razorpay = options.realRazorpay() && CHECKOUT_PAGES.some((re) => re.test(path));
      headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, { secure, razorpay }));
    }
  });
}
