import { readCookie } from "../auth/cookies.ts";

/**
 * The cookies a visitor's browser sets for their own choices (app/components/theme.tsx,
 * app/components/shell/sidebar-state.ts, app/lib/cookie-consent.ts), which the server reads to
 * render a page as they left it.
 */
export const CHOICE_COOKIES = {
  theme: "pathshala_theme",
  sidebar: "sidebar_state",
  consent: "pathshala_cookie_consent",
} as const;

const CHOICE_COOKIE_NAMES: ReadonlySet<string> = new Set(Object.values(CHOICE_COOKIES));

export interface VisitorChoices {
  theme: "light" | "dark" | "system";
  sidebarCollapsed: boolean;
  cookiesAccepted: boolean;
}

/**
 * What a visitor chose, as every page renders it: the root loader and the marketing layout read
 * it here, and a kept page's variant is named by it (server/pages/kept-pages.ts), so both always
 * agree. Anything but the known values counts as no choice.
 */
export function visitorChoices(cookieHeader: string | null | undefined): VisitorChoices {
  const theme = readCookie(cookieHeader, CHOICE_COOKIES.theme);
  return {
    theme: theme === "light" || theme === "dark" ? theme : "system",
    sidebarCollapsed: readCookie(cookieHeader, CHOICE_COOKIES.sidebar) === "false",
    cookiesAccepted: readCookie(cookieHeader, CHOICE_COOKIES.consent) === "accepted",
  };
}

/**
 * Whether the request's cookies are only these choices (or none): no session, no message waiting
 * to be shown, nothing else a page might read. A cookie this list does not know makes the answer
 * false, so a cookie added later is never ignored by mistake.
 */
export function onlyChoiceCookies(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return true;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (name !== "" && !CHOICE_COOKIE_NAMES.has(name)) return false;
  }
  return true;
}
