import { useEffect } from "react";
import { Link, useFetcher } from "react-router";
import { toast } from "~/lib/toast";
import { Check, Eye, Tag } from "lucide-react";
import { Tooltip } from "radix-ui";
import type { Route } from "./+types/templates";
import { loadBusinessCenter, summarizeCenter } from "~/lib/business.server";
import { failure, tryService, type ActionFailure } from "~/lib/actions.server";
import { PageHeader } from "~/components/ui/page-header";
import { Button, ButtonLink } from "~/components/ui/button";
import { Badge } from "~/components/ui/badge";
import { TemplateThumbnail } from "~/components/template-thumbnail";
import { NEEDS_PLAN, TEMPLATE_IDS, TEMPLATE_INFO, isTemplateId, type TemplateId } from "../../../tenants/types";

export const meta: Route.MetaFunction = () => [{ title: "Templates | Business" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { center } = await loadBusinessCenter(context, request);
  return { center: center ? summarizeCenter(center, null) : null };
}

type ApplyResult = { ok: true; templateId: TemplateId; alreadyApplied: boolean } | ActionFailure;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const templateId = form.get("templateId");
  if (!isTemplateId(templateId)) return failure("Please choose a template: t1, t2, t3 or t4");
  const { viewer, center, services } = await loadBusinessCenter(context, request);
  if (!center) return failure(NEEDS_PLAN, 403);
  const result = await tryService(() => services.sites.applyTemplate(center, templateId, viewer.id));
  if (!result.ok) return result.response;
  return { ok: true as const, templateId, alreadyApplied: result.value.alreadyApplied };
}

export default function Templates({ loaderData }: Route.ComponentProps) {
  const { center } = loaderData;
  const hasPlan = Boolean(center?.hasPlan);
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Templates"
        description={
          center
            ? `Choose how ${center.instituteName}'s website looks. Changes go live at once.`
            : "Choose how your institute's website looks."
        }
        actions={
          !hasPlan && (
            <ButtonLink to="/business/subscription-plan" variant="default">
              <Tag className="size-4" aria-hidden /> View Plans
            </ButtonLink>
          )
        }
      />
      <Tooltip.Provider delayDuration={150}>
        <ul className="grid gap-6 sm:grid-cols-2 xl:grid-cols-4">
          {TEMPLATE_IDS.map((id) => (
            <TemplateCard key={id} id={id} applied={center?.templateId === id} hasPlan={hasPlan} />
          ))}
        </ul>
      </Tooltip.Provider>
    </div>
  );
}

function TemplateCard({ id, applied, hasPlan }: { id: TemplateId; applied: boolean; hasPlan: boolean }) {
  const fetcher = useFetcher<ApplyResult>();
  const applying = fetcher.state !== "idle";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!result) return;
    if (!result.ok) toast.error("Error", { description: result.error || "Failed to apply template", duration: 4000 });
    else if (result.alreadyApplied) toast("Already applied");
    else toast.success("Template applied", { description: `Your website is now using ${result.templateId}.` });
  }, [result]);
  const info = TEMPLATE_INFO[id];
  const apply = (
    <Button
      type="submit"
      disabled={applying || applied || !hasPlan}
      className="flex-1"
      aria-describedby={!hasPlan ? `${id}-needs-plan-text` : undefined}
    >
      {applied ? (
        <>
          <Check className="size-4" aria-hidden /> Applied
        </>
      ) : applying ? (
        "Applying..."
      ) : (
        "Apply"
      )}
    </Button>
  );
  return (
    <li className="flex flex-col overflow-hidden rounded-xl border bg-card shadow-sm">
      <div className="border-b bg-muted/40 p-3">
        <TemplateThumbnail id={id} colors={info.swatch} />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-center justify-between gap-2">
          <h2 className="font-semibold">{info.name}</h2>
          {applied && <Badge tone="success">Live</Badge>}
        </div>
        <p className="flex-1 text-sm text-muted-foreground">{info.description}</p>
        <fetcher.Form method="post" className="mt-2 flex flex-wrap gap-2">
          <input type="hidden" name="templateId" value={id} />
          {hasPlan ? (
            apply
          ) : (
            <Tooltip.Root>
              <Tooltip.Trigger asChild>
                <span className="flex flex-1" tabIndex={0}>
                  {apply}
                </span>
              </Tooltip.Trigger>
              <Tooltip.Portal>
                <Tooltip.Content
                  id={`${id}-needs-plan`}
                  sideOffset={6}
                  className="z-50 rounded-md bg-foreground px-3 py-1.5 text-xs text-background shadow"
                >
                  {NEEDS_PLAN}
                  <Tooltip.Arrow className="fill-foreground" />
                </Tooltip.Content>
              </Tooltip.Portal>
            </Tooltip.Root>
          )}
          <ButtonLink to={`/business/website?template=${id}`} variant="outline" reloadDocument className="flex-1">
            <Eye className="size-4" aria-hidden /> View Template
          </ButtonLink>
        </fetcher.Form>
        {!hasPlan && (
          <p id={`${id}-needs-plan-text`} className="text-xs text-muted-foreground">
            {NEEDS_PLAN}.{" "}
            <Link to="/business/subscription-plan" className="text-primary underline-offset-4 hover:underline">
              View Plans
            </Link>
          </p>
        )}
      </div>
    </li>
  );
}
