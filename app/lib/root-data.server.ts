import type { RouterContextProvider } from "react-router";
import { visitorChoices } from "../../server/pages/visitor-choices.ts";
import { getRequestContext } from "./context.server";
import { readFlashToast } from "./toast.server";
import type { PublicSite, Viewer } from "./viewer";

/** Everything the root layout needs on every page: who, where, theme, sidebar state, a pending toast. */
export function loadRootData(request: Request, context: Readonly<RouterContextProvider>) {
  const { auth, site } = getRequestContext(context);
  const user = auth?.user;
  const viewer: Viewer | null = user
    ? {
        id: user.id,
        name: user.name,
        email: user.email,
        role: user.role,
        avatarUrl: user.avatarKey ? `/media/${user.avatarKey}` : null,
      }
    : null;
  const publicSite: PublicSite =
    site.kind === "tenant"
      ? {
          kind: "tenant",
          host: site.host,
          centerId: site.center.id,
          instituteName: site.center.instituteName,
          brandColor: safeColor(site.center.siteProfile.brandColor),
          logoUrl: site.center.siteProfile.logoKey ? `/media/${site.center.siteProfile.logoKey}` : null,
        }
      : { kind: "platform", host: site.host };
  const { theme, sidebarCollapsed } = visitorChoices(request.headers.get("cookie"));
  const { toast, clear } = readFlashToast(request);
  return { data: { viewer, site: publicSite, theme, sidebarCollapsed, toast }, clearToastCookie: clear };
}

/** Only a plain hex colour reaches the page's CSS. */
function safeColor(value: string | undefined): string | null {
  return value && /^#[0-9a-f]{6}$/i.test(value) ? value : null;
}
