import type { Route } from "./+types/week";
import { loadWeek } from "~/lib/week.server";
import { PageHeader } from "~/components/ui/page-header";
import { WeekView } from "~/components/timetables/week-view";

export const meta: Route.MetaFunction = () => [{ title: "My Week | Creator Studio" }];

export const loader = ({ context }: Route.LoaderArgs) => loadWeek(context);

export default function TeacherWeek({ loaderData }: Route.ComponentProps) {
  const { viewerId } = loaderData;
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader title="My Week" description="The classes you teach this week and next, in India time." />
      <WeekView
        week={loaderData}
        linkOf={(s) =>
          s.teacher?._id === viewerId
            ? { to: `/sessions/${s._id}/register`, label: "Register" }
            : s.online
              ? { to: `/sessions/${s._id}/join`, label: "Join" }
              : null
        }
      />
    </div>
  );
}
