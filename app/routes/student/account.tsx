import { Form, Link } from "react-router";
import { BookOpen, FileText, LogOut, MonitorPlay } from "lucide-react";
import type { Route } from "./+types/account";
import { areaViewer } from "~/lib/area.server";
import { uploadAvatar } from "~/lib/avatar-action.server";
import { loadMyParents } from "~/lib/my-parents.server";
import { AccountDetails } from "~/components/account-details";
import { MyParentsCard } from "~/components/families/my-parents";
import { PageHeader } from "~/components/ui/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

export const meta: Route.MetaFunction = () => [{ title: "Account | Student" }];

export async function loader({ context }: Route.LoaderArgs) {
  return { viewer: areaViewer(context), families: await loadMyParents(context) };
}

export const action = ({ request, context }: Route.ActionArgs) => uploadAvatar(request, context);

const LINKS = [
  { to: "/my-courses", label: "My Courses", Icon: BookOpen },
  { to: "/student/courses", label: "Browse Courses", Icon: MonitorPlay },
  { to: "/catalog#materials", label: "Study Materials", Icon: FileText },
];

export default function StudentAccount({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <PageHeader
        title="Account"
        description="Your student profile."
        actions={
          <Form method="post" action="/logout">
            <Button type="submit" variant="outline">
              <LogOut className="size-4" aria-hidden /> Logout
            </Button>
          </Form>
        }
      />
      <AccountDetails viewer={loaderData.viewer} />
      <MyParentsCard families={loaderData.families} />
      <Card>
        <CardHeader>
          <CardTitle>Quick links</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 sm:grid-cols-3">
          {LINKS.map(({ to, label, Icon }) => (
            <Link
              key={to}
              to={to}
              className="flex items-center gap-2 rounded-lg border p-3 text-sm font-medium hover:bg-muted"
            >
              <Icon className="size-4 text-primary" aria-hidden /> {label}
            </Link>
          ))}
        </CardContent>
      </Card>
    </div>
  );
}
