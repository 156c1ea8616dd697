import { serialize } from "hono/utils/cookie";
import { isStorableText } from "#common/validation/storable.ts";

/**
 * The session cookie: HttpOnly, SameSite=Lax, host-only. Over https it is Secure and
 * `__Host-` prefixed (which browsers bind to exactly this host, path /, no Domain).
 */
const PLAIN = "pathshala_session";
const HOST_PREFIXED = "__Host-pathshala_session";

export function sessionCookieName(secure: boolean): string {
  return secure ? HOST_PREFIXED : PLAIN;
}

/**
 * The one cookie reader (the API's middleware and the pages alike): the first cookie called
 * `name`, %-decoded. A value that is not valid %-encoding, or whose text cannot be stored, is
 * treated as absent: a browser holding a broken cookie still gets every page.
 */
export function readCookie(cookieHeader: string | undefined | null, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      const value = decodeURIComponent(part.slice(eq + 1).trim());
      return isStorableText(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function readSessionToken(cookieHeader: string | undefined | null, secure: boolean): string | undefined {
  return readCookie(cookieHeader, sessionCookieName(secure));
}

/** Without "remember me" the cookie has no Max-Age and ends with the browser session. */
export function sessionCookie(
  token: string,
  options: { secure: boolean; persistent: boolean; expiresAt: Date },
): string {
  return serialize(sessionCookieName(options.secure), token, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: options.secure,
    ...(options.persistent
      ? { maxAge: Math.max(0, Math.floor((options.expiresAt.getTime() - Date.now()) / 1000)) }
      : {}),
  });
}

export function clearedSessionCookie(secure: boolean): string {
  return serialize(sessionCookieName(secure), "", { path: "/", httpOnly: true, sameSite: "Lax", secure, maxAge: 0 });
}

/** https directly, or (behind a trusted proxy) as the proxy says. */
export function isSecureRequest(url: string, forwardedProto: string | undefined, trustProxy: boolean): boolean {
  if (trustProxy && forwardedProto) return forwardedProto.split(",")[0].trim() === "https";
  return url.startsWith("https:");
}
