import { readCookie } from "../../server/auth/cookies.ts";
import { FLASH_TOAST_COOKIE as COOKIE } from "../../server/http/flash-toast.ts";
import type { FlashToast } from "./toast";

// One cookie format for the pages' redirects and the server's own (the 'Connect with Razorpay' callback).
export { flashToastCookie } from "../../server/http/flash-toast.ts";

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
