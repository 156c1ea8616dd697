import type { Route } from "./+types/live";
import { loadCatalog } from "~/lib/learning.server";
import { LearningGrid } from "~/components/learning/learning-grid";
import { LiveAction } from "~/components/learning/content-actions";

export const meta: Route.MetaFunction = () => [{ title: "Live Classes | Student" }];

export const loader = ({ context }: Route.LoaderArgs) => loadCatalog(context, ["live"]);

export default function LiveClasses({ loaderData }: Route.ComponentProps) {
  return (
    <LearningGrid
      title="Live Classes"
      description="Join your teachers live. A class's link opens for its students 15 minutes before it starts."
      items={loaderData.items}
      checkout={loaderData.checkout}
      empty="No live classes available."
      actions={(item) => <LiveAction item={item} />}
    />
  );
}
