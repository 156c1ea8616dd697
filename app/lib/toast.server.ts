import { readCookie } from "../../server/auth/cookies.ts";
import type { FlashToast } from "./toast";

const COOKIE = "pathshala_toast";

/** Set-Cookie for a toast to show on the next page (works without JavaScript too). */
export function flashToastCookie(toast: FlashToast): string {
  const value = encodeURIComponent(JSON.stringify(toast));
  return `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`;
}

export function readFlashToast(request: Request): { toast: FlashToast | null; clear: string | null } {
  const header = request.headers.get("cookie") ?? "";
  if (!header.split(";").some((part) => part.trim().startsWith(`${COOKIE}=`))) return { toast: null, clear: null };
  const clear = `${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
  try {
    const parsed = JSON.parse(readCookie(header, COOKIE) ?? "") as FlashToast;
    if (typeof parsed?.title !== "string") return { toast: null, clear };
    return {
      toast: {
        kind: parsed.kind ?? "info",
        title: parsed.title.slice(0, 200),
        description: parsed.description?.slice(0, 500),
      },
      clear,
    };
  } catch {
    return { toast: null, clear };
  }
}
