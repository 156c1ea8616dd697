import type { Route } from "./+types/courses";
import { loadCatalog } from "~/lib/learning.server";
import { ButtonLink } from "~/components/ui/button";
import { LearningGrid } from "~/components/learning/learning-grid";
import { CourseAction } from "~/components/learning/content-actions";

export const meta: Route.MetaFunction = () => [{ title: "Course List | Student" }];

export const loader = ({ context }: Route.LoaderArgs) => loadCatalog(context, ["video"]);

export default function CourseList({ loaderData }: Route.ComponentProps) {
  return (
    <LearningGrid
      title="Course List"
      description="Video courses to learn at your own pace."
      items={loaderData.items}
      checkout={loaderData.checkout}
      empty="No courses available."
      actions={(item) => (
        <>
          <ButtonLink to="/catalog#courses" variant="ghost" size="sm">
            View Details
          </ButtonLink>
          <CourseAction item={item} />
        </>
      )}
    />
  );
}
