import { Form } from "react-router";
import { CalendarCheck } from "lucide-react";
import type { Route } from "./+types/attendance";
import { loadStudentAttendance } from "~/lib/attendance.server";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { EmptyState } from "~/components/ui/empty-state";
import { AttendancePercent } from "~/components/attendance/attendance-percent";
import { formatDate } from "#common/format.ts";
import { ATTENDANCE_STATUS_LABELS, type StudentSessionJson } from "#common/validation/attendance-reports.ts";

export const meta: Route.MetaFunction = () => [{ title: "Attendance | Student" }];

export const loader = ({ request, context }: Route.LoaderArgs) => loadStudentAttendance(context, request);

const TONES = { present: "success", late: "warning", absent: "destructive", excused: "muted" } as const;

export default function StudentAttendance({ loaderData }: Route.ComponentProps) {
  const { month, report, sessions } = loaderData;
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader
        title="Attendance"
        description="Your attendance in each batch. Present and late count as attended; excused classes are left out."
      />
      <Form method="get" className="flex flex-wrap items-end gap-4">
        <Field label="Month">
          <Input name="month" type="month" defaultValue={month} required />
        </Field>
        <Button type="submit" variant="outline">
          Show
        </Button>
      </Form>
      {report.rows.length === 0 && sessions.length === 0 ? (
        <EmptyState icon={<CalendarCheck />} title="No classes this month yet." />
      ) : (
        report.rows.map((row) => (
          <Card key={row.batchId}>
            <CardHeader>
              <CardTitle className="flex flex-wrap items-center gap-3">
                {row.batchName}
                <span className="ml-auto text-base">
                  <AttendancePercent percent={row.percent} />
                </span>
              </CardTitle>
              <p className="text-sm text-muted-foreground">
                {row.present} present · {row.late} late · {row.absent} absent · {row.excused} excused, of {row.sessions}{" "}
                {row.sessions === 1 ? "class" : "classes"} counted
              </p>
            </CardHeader>
            <CardContent>
              <SessionTable sessions={sessions.filter((s) => s.batchId === row.batchId)} />
            </CardContent>
          </Card>
        ))
      )}
    </div>
  );
}

function SessionTable({ sessions }: { sessions: StudentSessionJson[] }) {
  if (sessions.length === 0) return null;
  return (
    <Table aria-label="Classes">
      <THead>
        <tr>
          <Th>Date</Th>
          <Th>Time</Th>
          <Th>Subject</Th>
          <Th>Mark</Th>
        </tr>
      </THead>
      <TBody>
        {sessions.map((s) => (
          <Tr key={s.sessionId}>
            <Td>{formatDate(s.on)}</Td>
            <Td className="tabular-nums">{s.start}</Td>
            <Td>{s.subject}</Td>
            <Td>
              {s.status ? (
                <Badge tone={TONES[s.status]}>{ATTENDANCE_STATUS_LABELS[s.status]}</Badge>
              ) : (
                <span className="text-muted-foreground">Not marked yet</span>
              )}
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
