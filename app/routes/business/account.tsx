import { Users } from "lucide-react";
import type { Route } from "./+types/account";
import { areaViewer } from "~/lib/area.server";
import { uploadAvatar } from "~/lib/avatar-action.server";
import { loadBusinessCenter } from "~/lib/business.server";
import { TEAM_EMPTY } from "#common/validation/team.ts";
import { AccountDetails } from "~/components/account-details";
import { PageHeader } from "~/components/ui/page-header";
import { ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";

export const meta: Route.MetaFunction = () => [{ title: "Profile | Business" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  if (!center) return { viewer: areaViewer(context), team: null };
  const [summary, items, team] = await Promise.all([
    services.team.summary(center.id),
    services.team.siteItems(center.id),
    services.team.list(center.id),
  ]);
  return {
    viewer: areaViewer(context),
    team: {
      ...summary,
      shownItems: items.filter((i) => i.shown).length,
      names: team.filter((e) => e.status === "accepted").map((e) => e.name ?? e.address),
    },
  };
}

export const action = ({ request, context }: Route.ActionArgs) => uploadAvatar(request, context);

export default function BusinessAccount({ loaderData }: Route.ComponentProps) {
  const { team } = loaderData;
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <PageHeader title="Profile" description="Your business account." />
      <AccountDetails
        viewer={loaderData.viewer}
        nameLabel="Admin name"
        roleLabel={loaderData.viewer.role || "business"}
      />
      <Card>
        <CardHeader>
          <CardTitle>Team &amp; Analytics</CardTitle>
        </CardHeader>
        <CardContent>
          {team && team.members + team.pending > 0 ? (
            <div className="grid gap-4">
              <dl className="grid grid-cols-3 gap-3 text-center">
                <Stat label="Members" value={team.members} />
                <Stat label="Pending invitations" value={team.pending} />
                <Stat label="Items on your website" value={team.shownItems} />
              </dl>
              {team.names.length > 0 && (
                <p className="text-sm text-muted-foreground">
                  On your team: {team.names.slice(0, 3).join(", ")}
                  {team.names.length > 3 ? ` and ${team.names.length - 3} more` : ""}.
                </p>
              )}
              <div>
                <ButtonLink to="/business/team" variant="outline">
                  Manage team
                </ButtonLink>
              </div>
            </div>
          ) : (
            <EmptyState icon={<Users />} title={TEAM_EMPTY}>
              {team && <ButtonLink to="/business/team">Invite a creator</ButtonLink>}
            </EmptyState>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex flex-col-reverse rounded-lg border bg-muted/30 p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}
