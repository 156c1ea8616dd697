import { Link } from "react-router";
import { CalendarCheck, CalendarDays, ClipboardList, Wallet } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { ButtonLink } from "~/components/ui/button";
import { Badge } from "~/components/ui/badge";
import { AttendancePercent } from "~/components/attendance/attendance-percent";
import { dayText } from "#common/india-dates.ts";
import { formatDate, formatRupees } from "#common/format.ts";
import { PARENT_TEXTS, type ChildCardJson } from "#common/parent-area.ts";

/**
 * One child on the parent's "My children" page: this month's attendance, the next class, the fees
 * owed now and next (with Pay, on the household's Fees page) and the latest released result.
 */
export function ChildCard({ child }: { child: ChildCardJson }) {
  const { attendance, nextClass, fees, latestResult } = child;
  return (
    <Card role="region" aria-label={child.name}>
      <CardHeader>
        <CardTitle>
          <Link to={`/parent/children/${child.linkId}`} className="hover:underline">
            {child.name}
          </Link>
        </CardTitle>
        <CardDescription>{child.institute}</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Fact icon={<CalendarCheck />} label="Attendance this month">
          <span className="text-2xl font-semibold">
            <AttendancePercent percent={attendance.percent} />
          </span>
          <span className="text-xs text-muted-foreground">
            {attendance.sessions} {attendance.sessions === 1 ? "class" : "classes"} counted
          </span>
        </Fact>
        <Fact icon={<CalendarDays />} label="Next class">
          {nextClass ? (
            <>
              <span className="font-medium">
                {nextClass.subject} · {nextClass.batchName}
              </span>
              <span className="text-xs text-muted-foreground">
                {dayText(nextClass.on)},{" "}
                <span className="whitespace-nowrap">
                  {nextClass.start}–{nextClass.end}
                </span>
                {nextClass.online ? " · online" : ""}
              </span>
            </>
          ) : (
            <span className="text-sm text-muted-foreground">{PARENT_TEXTS.noNextClass}</span>
          )}
        </Fact>
        <Fact icon={<Wallet />} label="Fees">
          <span className="flex flex-wrap items-center gap-2 font-medium">
            {fees.owedNow > 0 ? `${formatRupees(fees.owedNow)} owed now` : "Nothing owed now"}
            {fees.overdueDays > 0 && <Badge tone="destructive">{fees.overdueDays} days overdue</Badge>}
          </span>
          <span className="text-xs text-muted-foreground">
            {fees.nextDue
              ? `Next: ${formatRupees(fees.nextDue.balance)} by ${formatDate(fees.nextDue.dueOn)} (${fees.nextDue.label})`
              : "Nothing more due"}
          </span>
          {(fees.owedNow > 0 || fees.nextDue) && (
            <ButtonLink to="/parent/fees" size="sm" className="mt-1 w-fit">
              Pay
            </ButtonLink>
          )}
        </Fact>
        <Fact icon={<ClipboardList />} label="Latest result">
          {latestResult ? (
            <>
              <span className="font-medium">{latestResult.title}</span>
              <span className="text-xs text-muted-foreground">
                Score {latestResult.score}
                {latestResult.rank !== null && ` · rank ${latestResult.rank}`} · {formatDate(latestResult.submittedAt)}
              </span>
            </>
          ) : (
            <span className="text-sm text-muted-foreground">{PARENT_TEXTS.noReleasedResult}</span>
          )}
        </Fact>
      </CardContent>
    </Card>
  );
}

function Fact({ icon, label, children }: { icon: React.ReactNode; label: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-3 rounded-lg border p-3">
      <span className="grid size-9 shrink-0 place-items-center rounded-full bg-primary/10 text-primary [&_svg]:size-4">
        {icon}
      </span>
      <div className="grid min-w-0 content-start gap-0.5">
        <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</p>
        {children}
      </div>
    </div>
  );
}
