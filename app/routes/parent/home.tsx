import type { Route } from "./+types/home";
import { loadParentHome } from "~/lib/parent/children.server";
import { PageHeader } from "~/components/ui/page-header";
import { ChildCard } from "~/components/parent/child-card";

export const meta: Route.MetaFunction = () => [{ title: "My children | Parent" }];

export const loader = ({ context }: Route.LoaderArgs) => loadParentHome(context);

export default function ParentHome({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6">
      <PageHeader
        title="My children"
        description="Each child's attendance, classes, fees and results, as their institute records them."
      />
      {loaderData.children.map((child) => (
        <ChildCard key={child.linkId} child={child} />
      ))}
    </div>
  );
}
