/** The sidebar's expanded/collapsed choice lives in a cookie for 7 days so the server renders it right. */
export const SIDEBAR_COOKIE = "sidebar_state";
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;

export function storeSidebarExpanded(expanded: boolean) {
  document.cookie = `${SIDEBAR_COOKIE}=${expanded}; Path=/; Max-Age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
}
