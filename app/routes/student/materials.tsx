import type { Route } from "./+types/materials";
import { loadCatalog } from "~/lib/learning.server";
import { ButtonLink } from "~/components/ui/button";
import { LearningGrid } from "~/components/learning/learning-grid";
import { MaterialAction } from "~/components/learning/content-actions";

export const meta: Route.MetaFunction = () => [{ title: "Study Materials | Student" }];

export const loader = ({ context }: Route.LoaderArgs) => loadCatalog(context, ["pdf"]);

export default function StudyMaterials({ loaderData }: Route.ComponentProps) {
  return (
    <LearningGrid
      title="Study Materials"
      description="Notes, formula sheets and practice papers. Each download is your personal copy, marked with your name."
      items={loaderData.items}
      checkout={loaderData.checkout}
      empty="No materials available."
      actions={(item) => (
        <>
          <ButtonLink to="/catalog#materials" variant="ghost" size="sm">
            View Details
          </ButtonLink>
          <MaterialAction item={item} />
        </>
      )}
    />
  );
}
