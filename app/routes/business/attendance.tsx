import { useEffect } from "react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import { CalendarCheck, Download, Flag } from "lucide-react";
import type { Route } from "./+types/attendance";
import { loadBusinessAttendance, saveAttendancePolicy } from "~/lib/attendance.server";
import { toast } from "~/lib/toast";
import { cn } from "~/lib/cn";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Select } from "~/components/ui/input";
import { EmptyState } from "~/components/ui/empty-state";
import { NoSubscription } from "~/components/business/no-subscription";
import { AttendancePercent } from "~/components/attendance/attendance-percent";
import {
  ATTENDANCE_POLICY_RANGES,
  FLAG_WINDOW_DAYS,
  type AttendanceRowJson,
} from "#common/validation/attendance-reports.ts";

export const meta: Route.MetaFunction = () => [{ title: "Attendance | Business" }];

export const loader = ({ request, context }: Route.LoaderArgs) => loadBusinessAttendance(context, request);

export const action = ({ request, context }: Route.ActionArgs) => saveAttendancePolicy(context, request);

const VIEW_LABELS = { batch: "By batch", student: "By student", teacher: "By teacher" } as const;

export default function Attendance({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.message);
    else toast.error("Could not save the policy", { description: result.error });
  }, [result]);
  if (!loaderData.center) return <NoSubscription title="Attendance" />;
  const { center, month, view, batchId, batches, report, teachers, flagged, policy, mayEditPolicy, csvHref } =
    loaderData;
  const link = (changes: Record<string, string | null>) => {
    const params = new URLSearchParams({ month, view, ...(batchId ? { batchId } : {}) });
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    return `?${params}`;
  };
  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <PageHeader
        title="Attendance"
        description={`${center.instituteName}'s attendance by batch, student and teacher. Attended = present + late; excused sessions are left out; cancelled sessions never count.`}
      />

      <Card>
        <CardContent className="grid gap-4 pt-6">
          <Form method="get" className="flex flex-wrap items-end gap-4">
            <input type="hidden" name="view" value={view} />
            <Field label="Month">
              <Input name="month" type="month" defaultValue={month} required />
            </Field>
            <Field label="Batch">
              <Select name="batchId" defaultValue={batchId ?? ""}>
                <option value="">All batches</option>
                {batches.map((b) => (
                  <option key={b._id} value={b._id}>
                    {b.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Button type="submit" variant="outline" disabled={busy}>
              Show
            </Button>
            <a href={csvHref} download className={cn(buttonClasses("outline"), "ml-auto")}>
              <Download className="size-4" aria-hidden />
              Download CSV
            </a>
          </Form>
          <nav aria-label="Report" className="flex flex-wrap gap-2">
            {(Object.keys(VIEW_LABELS) as (keyof typeof VIEW_LABELS)[]).map((v) => (
              <Link
                key={v}
                to={link({ view: v })}
                aria-current={v === view ? "page" : undefined}
                className={buttonClasses(v === view ? "default" : "outline", "sm")}
              >
                {VIEW_LABELS[v]}
              </Link>
            ))}
          </nav>
        </CardContent>
      </Card>

      {view === "teacher" ? (
        <TeacherTable teachers={teachers} />
      ) : (
        <RowsTable rows={report.rows} byStudent={view === "student"} totals={report.totals} />
      )}

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Flag className="size-4 text-destructive" aria-hidden />
            Below {flagged.lowAttendancePercent}% in the last {FLAG_WINDOW_DAYS} days
          </CardTitle>
          <CardDescription>Students whose attendance in a batch fell below the institute's threshold.</CardDescription>
        </CardHeader>
        <CardContent>
          {flagged.students.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nobody is below the threshold.</p>
          ) : (
            <ul aria-label="Flagged students" className="grid gap-2 text-sm">
              {flagged.students.map((s) => (
                <li key={`${s.studentId}:${s.batchId}`} className="flex flex-wrap items-center gap-3">
                  <span className="font-medium">{s.name}</span>
                  <span className="text-muted-foreground">{s.batchName}</span>
                  <Badge tone="destructive" className="ml-auto tabular-nums">
                    {s.percent}% of {s.sessions}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Attendance policy</CardTitle>
          <CardDescription>
            Absentees are told on WhatsApp, then SMS, once their class's register closes: by the teacher, or 30 minutes
            after the class ends.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" className="grid gap-4 sm:grid-cols-2">
            <fieldset disabled={!mayEditPolicy || busy} className="contents">
              <Field
                label="Late after (minutes)"
                hint={`Arriving later than this after the start is Late (${ATTENDANCE_POLICY_RANGES.lateAfterMinutes.min}–${ATTENDANCE_POLICY_RANGES.lateAfterMinutes.max}).`}
              >
                <Input name="lateAfterMinutes" type="number" required defaultValue={policy.lateAfterMinutes} />
              </Field>
              <Field
                label="Online minimum (minutes)"
                hint={`Minutes in an online class that make Present (${ATTENDANCE_POLICY_RANGES.onlineMinimumMinutes.min}–${ATTENDANCE_POLICY_RANGES.onlineMinimumMinutes.max}).`}
              >
                <Input name="onlineMinimumMinutes" type="number" required defaultValue={policy.onlineMinimumMinutes} />
              </Field>
              <Field
                label="Low attendance (%)"
                hint={`Students below this over the last ${FLAG_WINDOW_DAYS} days are flagged (${ATTENDANCE_POLICY_RANGES.lowAttendancePercent.min}–${ATTENDANCE_POLICY_RANGES.lowAttendancePercent.max}).`}
              >
                <Input name="lowAttendancePercent" type="number" required defaultValue={policy.lowAttendancePercent} />
              </Field>
              <label className="flex items-center gap-2 self-center text-sm">
                <input type="checkbox" name="absenceAlerts" defaultChecked={policy.absenceAlerts} className="size-4" />
                Tell absentees (absence alerts)
              </label>
              {mayEditPolicy && (
                <div>
                  <Button type="submit">Save policy</Button>
                </div>
              )}
            </fieldset>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}

function RowsTable({
  rows,
  byStudent,
  totals,
}: {
  rows: AttendanceRowJson[];
  byStudent: boolean;
  totals: { present: number; late: number; absent: number; excused: number; sessions: number; percent: number | null };
}) {
  if (rows.length === 0) return <EmptyState icon={<CalendarCheck />} title="No attendance this month yet." />;
  const sorted = byStudent
    ? [...rows].sort((a, b) => a.name.localeCompare(b.name) || a.batchName.localeCompare(b.batchName))
    : rows;
  return (
    <Table aria-label="Attendance">
      <THead>
        <tr>
          <Th>{byStudent ? "Student" : "Batch"}</Th>
          <Th>{byStudent ? "Batch" : "Student"}</Th>
          <Th className="text-right">Present</Th>
          <Th className="text-right">Late</Th>
          <Th className="text-right">Absent</Th>
          <Th className="text-right">Excused</Th>
          <Th className="text-right">Sessions</Th>
          <Th className="text-right">Attendance</Th>
        </tr>
      </THead>
      <TBody>
        {sorted.map((r) => (
          <Tr key={`${r.studentId}:${r.batchId}`}>
            <Td className="font-medium">{byStudent ? r.name : r.batchName}</Td>
            <Td>{byStudent ? r.batchName : r.name}</Td>
            <Td className="text-right tabular-nums">{r.present}</Td>
            <Td className="text-right tabular-nums">{r.late}</Td>
            <Td className="text-right tabular-nums">{r.absent}</Td>
            <Td className="text-right tabular-nums">{r.excused}</Td>
            <Td className="text-right tabular-nums">{r.sessions}</Td>
            <Td className="text-right">
              <AttendancePercent percent={r.percent} />
            </Td>
          </Tr>
        ))}
        <Tr className="font-medium">
          <Td>Total</Td>
          <Td />
          <Td className="text-right tabular-nums">{totals.present}</Td>
          <Td className="text-right tabular-nums">{totals.late}</Td>
          <Td className="text-right tabular-nums">{totals.absent}</Td>
          <Td className="text-right tabular-nums">{totals.excused}</Td>
          <Td className="text-right tabular-nums">{totals.sessions}</Td>
          <Td className="text-right">
            <AttendancePercent percent={totals.percent} />
          </Td>
        </Tr>
      </TBody>
    </Table>
  );
}

function TeacherTable({
  teachers,
}: {
  teachers: { teacherId: string; name: string; sessions: number; closed: number; open: number }[];
}) {
  if (teachers.length === 0) return <EmptyState icon={<CalendarCheck />} title="No sessions taught this month yet." />;
  return (
    <Table aria-label="Sessions by teacher">
      <THead>
        <tr>
          <Th>Teacher</Th>
          <Th className="text-right">Sessions taught</Th>
          <Th className="text-right">Registers closed</Th>
          <Th className="text-right">Still open</Th>
        </tr>
      </THead>
      <TBody>
        {teachers.map((t) => (
          <Tr key={t.teacherId}>
            <Td className="font-medium">{t.name}</Td>
            <Td className="text-right tabular-nums">{t.sessions}</Td>
            <Td className="text-right tabular-nums">{t.closed}</Td>
            <Td className="text-right tabular-nums">{t.open}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
