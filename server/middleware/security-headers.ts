import { randomBytes } from "node:crypto";
import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./types.ts";

/** Pages that open Razorpay Checkout: the only ones whose policy lets Razorpay's scripts and frames in. */
const CHECKOUT_PAGES = [
  /^\/pricing\/setup$/,
  /^\/business\/subscription-plan$/,
  /^\/catalog$/,
  /^\/student(\/|$)/,
  /^\/my-courses$/,
];
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

/**
 * The headers every answer carries, the same on each: Hono's secureHeaders with only these
 * (its other defaults off, so that no answer gains a policy nobody chose).
 */
const fixedHeaders = secureHeaders({
  xContentTypeOptions: true,
  referrerPolicy: "strict-origin-when-cross-origin",
  xFrameOptions: "DENY",
  permissionsPolicy: { camera: [], microphone: [], geolocation: [], browsingTopics: [] },
  // Razorpay Checkout opens its own windows.
  crossOriginOpenerPolicy: "same-origin-allow-popups",
  crossOriginResourcePolicy: false,
  crossOriginEmbedderPolicy: false,
  originAgentCluster: false,
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

/** Whether this request arrived over https (directly or as a trusted proxy says). */
export function isSecure(
  c: { req: { url: string; header(name: string): string | undefined } },
  trustProxy: boolean,
): boolean {
  const forwarded = trustProxy ? c.req.header("x-forwarded-proto") : undefined;
  return forwarded ? forwarded.split(",")[0].trim() === "https" : c.req.url.startsWith("https:");
}

/**
 * Headers every answer carries (fixedHeaders), HSTS only over https, and for HTML a strict
 * Content-Security-Policy whose nonce the React Router render uses (c.get("nonce")). These two
 * depend on the request, which secureHeaders' one policy for every answer cannot express.
 */
export function securityHeaders(options: { trustProxy: boolean; realRazorpay: () => boolean; csp: boolean }) {
  return [
    fixedHeaders,
    createMiddleware<AppEnv>(async (c, next) => {
      await next();
      const headers = c.res.headers;
      const secure = isSecure(c, options.trustProxy);
      if (secure) headers.set("Strict-Transport-Security", "max-age=63072000");
      if (
        options.csp &&
        (headers.get("content-type") ?? "").startsWith("text/html") &&
        !headers.has("Content-Security-Policy")
      ) {
        // Only pages React Router renders have inline scripts; they asked for a nonce (newNonce).
        const path = c.req.path.replace(/\.data$/, "");
        const razorpay = options.realRazorpay() && CHECKOUT_PAGES.some((re) => re.test(path));
        headers.set("Content-Security-Policy", contentSecurityPolicy(c.get("nonce"), { secure, razorpay }));
      }
    }),
  ] as const;
}
