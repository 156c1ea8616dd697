import type { Route } from "./+types/week";
import { loadWeek } from "~/lib/week.server";
import { PageHeader } from "~/components/ui/page-header";
import { WeekView } from "~/components/timetables/week-view";

export const meta: Route.MetaFunction = () => [{ title: "My Week | Student" }];

export const loader = ({ context }: Route.LoaderArgs) => loadWeek(context);

export default function StudentWeek({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader title="My Week" description="Your batches' classes this week and next, in India time." />
      <WeekView
        week={loaderData}
        linkOf={(s) => (s.online ? { to: `/sessions/${s._id}/join`, label: "Join" } : null)}
      />
    </div>
  );
}
