import type { Route } from "./+types/sitemap";
import { getRequestContext } from "~/lib/context.server";
import { requestOrigin } from "~/lib/marketing.server";
import { sitemapXml } from "~/lib/seo-files";

/** /sitemap.xml of the site this host serves (platform or institute). */
export function loader({ request, context }: Route.LoaderArgs) {
  const { site } = getRequestContext(context);
  return new Response(sitemapXml(site.kind === "tenant" ? "tenant" : "platform", requestOrigin(request, context)), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
