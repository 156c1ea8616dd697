import { useEffect } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/lib/toast";
import { Eye, EyeOff, FileStack } from "lucide-react";
import type { Route } from "./+types/content";
import { loadBusinessCenter } from "~/lib/business.server";
import { failure, tryService } from "~/lib/actions.server";
import { formatPrice } from "#common/format.ts";
import { CONTENT_TYPE_LABELS } from "#common/validation/content.ts";
import type { SiteItemJson } from "#common/team-types.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Button, ButtonLink } from "~/components/ui/button";
import { Badge } from "~/components/ui/badge";
import { EmptyState } from "~/components/ui/empty-state";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { cn } from "~/lib/cn";
import { NoSubscription } from "~/components/business/no-subscription";

export const meta: Route.MetaFunction = () => [{ title: "Website Content | Business" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  if (!center) return { center: null, items: [] };
  return { center: { instituteName: center.instituteName }, items: await services.team.siteItems(center.id) };
}

/** Hide or show one item, through the same service as the API. */
export async function action({ request, context }: Route.ActionArgs) {
  const { viewer, center, services } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  const form = await request.formData();
  const result = await tryService(() =>
    services.team.setHidden(viewer, center.id, String(form.get("id") ?? ""), { hidden: form.get("hidden") === "true" }),
  );
  if (!result.ok) return result.response;
  return { ok: true as const, item: result.value };
}

type Result = { ok: true; item: SiteItemJson } | { ok: false; error: string };

export default function WebsiteContent({ loaderData }: Route.ComponentProps) {
  const { center, items } = loaderData;
  if (!center) {
    return <NoSubscription title="Website Content" />;
  }
  const shown = items.filter((i) => i.shown).length;
  const hidden = items.filter((i) => i.hidden).length;
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Website Content"
        description={`Everything creators have put on ${center.instituteName}'s website. Hide anything you do not want your students to see.`}
        actions={
          <ButtonLink to="/business/team" variant="outline">
            Team
          </ButtonLink>
        }
      />
      {items.length === 0 ? (
        <EmptyState
          icon={<FileStack />}
          title="Nothing on your website yet. Creators on your team add classes and materials here."
        >
          <ButtonLink to="/business/team">Invite a creator</ButtonLink>
        </EmptyState>
      ) : (
        <>
          <p className="mb-4 text-sm text-muted-foreground">
            {shown} of {items.length} {items.length === 1 ? "item" : "items"} shown on your website
            {hidden ? `, ${hidden} hidden by you` : ""}.
          </p>
          <Table>
            <THead>
              <tr>
                <Th>Title</Th>
                <Th>Type</Th>
                <Th>Creator</Th>
                <Th>Price</Th>
                <Th>On your website</Th>
                <Th className="text-right">Actions</Th>
              </tr>
            </THead>
            <TBody>
              {items.map((item) => (
                <ItemRow key={item._id} item={item} />
              ))}
            </TBody>
          </Table>
        </>
      )}
    </div>
  );
}

function ItemRow({ item: saved }: { item: SiteItemJson }) {
  const fetcher = useFetcher<Result>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!result) return;
    if (result.ok)
      toast.success(result.item.hidden ? "Hidden from your website" : "Shown on your website", {
        description: result.item.title,
        duration: 5000,
      });
    else toast.error("Could not change it", { description: result.error, duration: 4000 });
  }, [result]);
  // Optimistic: the row shows the choice while it saves.
  const pending = fetcher.formData?.get("hidden");
  const hidden = pending ? pending === "true" : saved.hidden;
  const item = { ...saved, hidden, shown: saved.isActive && saved.onTeam && !hidden };
  return (
    <Tr className={cn(!item.shown && "bg-muted/20")}>
      <Td className="max-w-72">
        <span className={cn("line-clamp-2 font-medium", !item.shown && "text-muted-foreground")}>{item.title}</span>
      </Td>
      <Td>
        <Badge tone="muted" className="whitespace-nowrap">
          {CONTENT_TYPE_LABELS[item.type]}
        </Badge>
      </Td>
      <Td>
        <div>{item.creatorName}</div>
        <div className="text-xs text-muted-foreground">{item.creatorEmail}</div>
      </Td>
      <Td className="whitespace-nowrap tabular-nums">{formatPrice(item.price)}</Td>
      <Td>
        <ShownBadge item={item} />
      </Td>
      <Td className="text-right">
        <fetcher.Form method="post" className="inline-flex">
          <input type="hidden" name="id" value={item._id} />
          <input type="hidden" name="hidden" value={String(!hidden)} />
          <Button type="submit" size="sm" variant="outline" aria-label={`${hidden ? "Show" : "Hide"} ${item.title}`}>
            {hidden ? <Eye className="size-4" aria-hidden /> : <EyeOff className="size-4" aria-hidden />}
            {hidden ? "Show" : "Hide"}
          </Button>
        </fetcher.Form>
      </Td>
    </Tr>
  );
}

/** Why visitors do (or do not) see an item: the owner's choice first, then the creator's. */
function ShownBadge({ item }: { item: SiteItemJson }) {
  if (item.hidden) return <Badge tone="warning">Hidden by you</Badge>;
  if (!item.onTeam) return <Badge tone="destructive">Not from your team</Badge>;
  if (!item.isActive) return <Badge tone="muted">Switched off by creator</Badge>;
  return <Badge tone="success">Shown</Badge>;
}
