import { useState } from "react";
import { Outlet, useLocation, useMatches } from "react-router";
import type { Route } from "./+types/layout";
import { marketingLayoutData } from "~/lib/marketing.server";
import { SiteHeader, PRICING_LINKS, SITE_LINKS } from "~/components/marketing/site-header";
import { SiteFooter } from "~/components/marketing/site-footer";
import { CookieBanner } from "~/components/marketing/cookie-banner";
import { useRootData } from "~/root";

/** Pages may pick their header links with `handle = { header: "pricing" }`. */
export interface MarketingHandle {
  header?: "site" | "pricing";
}

export function loader({ request, context }: Route.LoaderArgs) {
  return marketingLayoutData(request, context);
}

// The origin, consent and year do not change while browsing the marketing pages.
export function shouldRevalidate() {
  return false;
}

/** The platform's public pages: one header, footer and cookie banner for all of them. */
export default function MarketingLayout({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  const location = useLocation();
  const matches = useMatches();
  const [accepted, setAccepted] = useState(loaderData.consented);
  const variant = (matches.at(-1)?.handle as MarketingHandle | undefined)?.header ?? "site";
  // An institute's domain shows the institute's own site, never the platform's chrome.
  if (root?.site.kind === "tenant") return <Outlet />;
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Skip to content
      </a>
      <SiteHeader
        links={variant === "pricing" ? PRICING_LINKS : SITE_LINKS}
        theme={root?.theme ?? "system"}
        variant={variant}
      />
      <main id="main" tabIndex={-1} className="outline-none">
        <Outlet />
      </main>
      <SiteFooter year={loaderData.year} contacts={loaderData.contacts} />
      {/* Reject hides the banner for this page view only: a new page asks again. */}
      {!accepted && <CookieBanner key={location.pathname} onAccept={() => setAccepted(true)} />}
    </>
  );
}
