import type { Route } from "./+types/robots";
import { getRequestContext } from "~/lib/context.server";
import { requestOrigin } from "~/lib/marketing.server";
import { robotsTxt } from "~/lib/seo-files";

/** /robots.txt of the site this host serves (platform or institute). */
export function loader({ request, context }: Route.LoaderArgs) {
  const { site } = getRequestContext(context);
  return new Response(robotsTxt(site.kind === "tenant" ? "tenant" : "platform", requestOrigin(request, context)), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
