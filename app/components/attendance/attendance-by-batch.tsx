import { CalendarCheck } from "lucide-react";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { AttendancePercent } from "~/components/attendance/attendance-percent";
import { formatDate } from "#common/format.ts";
import {
  ATTENDANCE_STATUS_LABELS,
  type AttendanceReportJson,
  type StudentSessionJson,
} from "#common/validation/attendance-reports.ts";

const TONES = { present: "success", late: "warning", absent: "destructive", excused: "muted" } as const;

/**
 * One student's month of attendance (issue 41 §4), as they or their parent read it: a card per
 * batch with its percentage and counts, and each class with its mark.
 */
export function AttendanceByBatch({
  report,
  sessions,
}: {
  report: AttendanceReportJson;
  sessions: StudentSessionJson[];
}) {
  if (report.rows.length === 0 && sessions.length === 0)
    return <EmptyState icon={<CalendarCheck />} title="No classes this month yet." />;
  return report.rows.map((row) => (
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
  ));
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
