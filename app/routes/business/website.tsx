import { Link } from "react-router";
import { ArrowLeft, ExternalLink } from "lucide-react";
import type { Route } from "./+types/website";
import { openBusinessArea, siteUrlFor } from "~/lib/business.server";
import { getRequestContext } from "~/lib/context.server";
import { sampleSiteData } from "~/lib/site-data.server";
import { TemplateView, isTemplateId, TEMPLATE_INFO, type SiteData, type TemplateId } from "../../../tenants/index";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.data.instituteName ?? "Website"} · Preview` },
  { name: "robots", content: "noindex" },
];

/** /business/website: the institute's site in its chosen template (default t1), or another one to compare. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { viewer, center, services } = await openBusinessArea(context, request);
  const requested = new URL(request.url).searchParams.get("template");
  const applied = (center && isTemplateId(center.templateId) ? center.templateId : "t1") as TemplateId;
  const templateId: TemplateId = isTemplateId(requested) ? requested : applied;
  const { env } = getRequestContext(context);
  let data: SiteData;
  if (center) {
    data = await services.sites.siteData(center);
  } else {
    // Before a purchase the preview uses the owner's name, so the template can still be judged.
    data = sampleSiteData(viewer.name || "Business User");
  }
  return {
    data,
    templateId,
    applied,
    siteUrl: center ? siteUrlFor(center, request, env.PLATFORM_DOMAIN) : null,
    hasCenter: Boolean(center),
  };
}

export default function Website({ loaderData }: Route.ComponentProps) {
  const { data, templateId, applied, siteUrl, hasCenter } = loaderData;
  return (
    <>
      <section
        aria-label="Template preview"
        className="sticky top-0 z-50 flex flex-wrap items-center gap-3 border-b bg-background/95 px-4 py-2 text-sm shadow-sm backdrop-blur"
      >
        <Link to="/business/templates" className="inline-flex items-center gap-1.5 font-medium hover:underline">
          <ArrowLeft className="size-4" aria-hidden /> Templates
        </Link>
        <span className="text-muted-foreground">
          Previewing {TEMPLATE_INFO[templateId].name}
          {templateId === applied && hasCenter ? " (live)" : ""}
        </span>
        {siteUrl && (
          <a
            href={siteUrl}
            target="_blank"
            rel="noreferrer"
            className="ml-auto inline-flex items-center gap-1.5 font-medium text-primary hover:underline"
          >
            Open live site <ExternalLink className="size-4" aria-hidden />
          </a>
        )}
        {!hasCenter && <span className="ml-auto text-muted-foreground">Buy a plan to publish your website.</span>}
      </section>
      <TemplateView templateId={templateId} data={data} />
    </>
  );
}
