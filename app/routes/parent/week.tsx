import type { Route } from "./+types/week";
import { loadWeek } from "~/lib/week.server";
import { PageHeader } from "~/components/ui/page-header";
import { WeekView } from "~/components/timetables/week-view";

export const meta: Route.MetaFunction = () => [{ title: "Week | Parent" }];

// A parent's own week is their linked children's classes (the timetables' `mine` includes them),
// with the same private calendar address to add them to a phone's calendar.
export const loader = ({ context }: Route.LoaderArgs) => loadWeek(context);

export default function ParentWeek({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader title="Week" description="Your children's classes this week and next, in India time." />
      <WeekView week={loaderData} linkOf={() => null} />
    </div>
  );
}
