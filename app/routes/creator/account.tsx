import type { Route } from "./+types/account";
import { areaViewer } from "~/lib/area.server";
import { uploadAvatar } from "~/lib/avatar-action.server";
import { AccountDetails } from "~/components/account-details";
import { PageHeader } from "~/components/ui/page-header";

export const meta: Route.MetaFunction = () => [{ title: "Account | Creator Studio" }];

export function loader({ context }: Route.LoaderArgs) {
  return { viewer: areaViewer(context) };
}

export const action = ({ request, context }: Route.ActionArgs) => uploadAvatar(request, context);

export default function CreatorAccount({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Account" description="Your creator profile." />
      <AccountDetails viewer={loaderData.viewer} />
    </div>
  );
}
