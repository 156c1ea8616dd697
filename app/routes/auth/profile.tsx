import { Link } from "react-router";
import { ArrowLeft } from "lucide-react";
import type { Route } from "./+types/profile";
import { requireViewer } from "~/lib/session.server";
import { uploadAvatar } from "~/lib/avatar-action.server";
import { homeFor } from "#common/home.ts";
import { AccountDetails } from "~/components/account-details";

export const meta: Route.MetaFunction = () => [
  { title: "Profile | Pathshala" },
  { name: "robots", content: "noindex" },
];

export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireViewer(context, request);
  return {
    viewer: {
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      avatarUrl: user.avatarKey ? `/media/${user.avatarKey}` : null,
    },
    home: homeFor(user.role),
  };
}

export const action = ({ request, context }: Route.ActionArgs) => uploadAvatar(request, context);

export default function Profile({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <Link
        to={loaderData.home}
        className="inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden /> Back to dashboard
      </Link>
      <h1 className="mb-6 mt-4 text-2xl font-semibold tracking-tight">Profile</h1>
      <AccountDetails viewer={loaderData.viewer} />
    </main>
  );
}
