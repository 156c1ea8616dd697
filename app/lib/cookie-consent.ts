/** Stored only on Accept (spec §3): the server reads it so an answered banner never renders again. */
export const COOKIE_CONSENT_NAME = "pathshala_cookie_consent";

export function storeCookieConsent() {
  document.cookie = `${COOKIE_CONSENT_NAME}=accepted; Path=/; Max-Age=${60 * 60 * 24 * 365}; SameSite=Lax`;
}
