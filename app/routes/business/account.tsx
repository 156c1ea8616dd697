import { Users } from "lucide-react";
import type { Route } from "./+types/account";
import { areaViewer } from "~/lib/area.server";
import { uploadAvatar } from "~/lib/avatar-action.server";
import { AccountDetails } from "~/components/account-details";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";

export const meta: Route.MetaFunction = () => [{ title: "Profile | Business" }];

export function loader({ context }: Route.LoaderArgs) {
  return { viewer: areaViewer(context) };
}

export const action = ({ request, context }: Route.ActionArgs) => uploadAvatar(request, context);

export default function BusinessAccount({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <PageHeader title="Profile" description="Your business account." />
      <AccountDetails viewer={loaderData.viewer} nameLabel="Admin name" roleLabel={loaderData.viewer.role || "business"} />
      <Card>
        <CardHeader>
          <CardTitle>Team &amp; Analytics</CardTitle>
        </CardHeader>
        <CardContent>
          <EmptyState icon={<Users />} title="No data yet. Invite your team to get started." />
        </CardContent>
      </Card>
    </div>
  );
}
