import type { Route } from "./+types/week";
import { loadParentWeek } from "~/lib/parent/week.server";
import { PageHeader } from "~/components/ui/page-header";
import { WeekView } from "~/components/timetables/week-view";

export const meta: Route.MetaFunction = () => [{ title: "Week | Parent" }];

export const loader = ({ context }: Route.LoaderArgs) => loadParentWeek(context);

export default function ParentWeek({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-4xl grid-cols-1 gap-6">
      <PageHeader title="Week" description="Your children's classes this week and next, in India time." />
      <WeekView week={loaderData} linkOf={() => null} whoOf={(s) => loaderData.whose[s._id]?.join(", ") || null} />
    </div>
  );
}
