import type { Route } from "./+types/attendance";
import { loadStudentAttendance } from "~/lib/attendance.server";
import { PageHeader } from "~/components/ui/page-header";
import { AttendanceByBatch } from "~/components/attendance/attendance-by-batch";
import { MonthPicker } from "~/components/attendance/month-picker";

export const meta: Route.MetaFunction = () => [{ title: "Attendance | Student" }];

export const loader = ({ request, context }: Route.LoaderArgs) => loadStudentAttendance(context, request);

export default function StudentAttendance({ loaderData }: Route.ComponentProps) {
  const { month, report, sessions } = loaderData;
  return (
    <div className="mx-auto grid max-w-4xl grid-cols-1 gap-6">
      <PageHeader
        title="Attendance"
        description="Your attendance in each batch. Present and late count as attended; excused classes are left out."
      />
      <MonthPicker month={month} />
      <AttendanceByBatch report={report} sessions={sessions} />
    </div>
  );
}
