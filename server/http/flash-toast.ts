/** A toast carried across a redirect (app/lib/toast.ts shows it on the next page). */
export interface FlashToastValue {
  kind: "success" | "error" | "info";
  title: string;
  description?: string;
}

export const FLASH_TOAST_COOKIE = "pathshala_toast";

/** Set-Cookie for a toast to show on the next page (works without JavaScript too). */
export function flashToastCookie(toast: FlashToastValue): string {
  const value = encodeURIComponent(JSON.stringify(toast));
  return `${FLASH_TOAST_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`;
}
