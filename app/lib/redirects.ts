import type { Role } from "#common/validation/account.ts";

/** Any origin: only the path, query and fragment of what is parsed against it are ever used. */
const BASE = "http://pathshala.invalid";

/**
 * Characters a browser drops from a URL or reads as "/" (tabs, CR/LF, other controls, the
 * backslash), raw or %-encoded: "/%09/evil.test" would otherwise become "//evil.test".
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f\\]|%(?:[01][0-9a-f]|7f|5c)/i;

/** Whether the value, or what it decodes to (up to three times), could leave this site. */
function leavesSite(to: string): boolean {
  let probe = to;
  for (let round = 0; round < 3; round++) {
    if (UNSAFE.test(probe) || probe.startsWith("//")) return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(probe);
    } catch {
      return true;
    }
    if (decoded === probe) return false;
    probe = decoded;
  }
  return true;
}

/**
 * A path on this site to go to, or `fallback`. The value is parsed as a URL against an origin
 * and kept only when it stays on that origin as a path that cannot be read as another host.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.length > 2048 || leavesSite(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (url.origin !== BASE || path.startsWith("//")) return fallback;
  return path;
}

/** Where signing out leads: business owners and others back to their own sign-in, admins to the dashboard login. */
export function signedOutDestination(role: Role | string | undefined): string {
  if (role === "admin") return "/dashboard";
  if (role === "business") return "/auth?role=business";
  if (role === "creator") return "/auth?role=creator";
  return "/auth?role=student";
}
