import { useState } from "react";
import { Link } from "react-router";
import { CalendarDays, Copy } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { addDays, dayText, indiaDate } from "#common/india-dates.ts";
import type { SessionJson } from "#common/validation/timetables.ts";

export interface WeekData {
  from: string;
  today: string;
  sessions: SessionJson[];
  calendarUrl: string;
  viewerId: string;
}

/**
 * This week and next, day by day (issue 41 §2). A cancelled class is struck through with its
 * note. `linkOf` says where a class leads: a teacher's to its register, a student's online class
 * to its join page; `whoOf`, whose class it is (a parent's children).
 */
export function WeekView({
  week,
  linkOf,
  whoOf,
}: {
  week: WeekData;
  linkOf: (s: SessionJson) => { to: string; label: string } | null;
  whoOf?: (s: SessionJson) => string | null;
}) {
  const days = Array.from({ length: 14 }, (_, i) => addDays(week.from, i));
  const byDay = new Map<string, SessionJson[]>();
  for (const s of week.sessions) {
    const day = indiaDate(s.startsAt);
    byDay.set(day, [...(byDay.get(day) ?? []), s]);
  }
  return (
    <div className="grid gap-6">
      {[0, 7].map((start) => (
        <section key={start} aria-label={start === 0 ? "This week" : "Next week"} className="grid gap-3">
          <h2 className="text-lg font-semibold">{start === 0 ? "This week" : "Next week"}</h2>
          <ol className="grid gap-2">
            {days.slice(start, start + 7).map((day) => (
              <li key={day} aria-label={dayText(day)} className="rounded-md border p-3">
                <h3 className="mb-1 text-sm font-medium">
                  {dayText(day)}
                  {day === week.today && (
                    <Badge className="ml-2" tone="default">
                      Today
                    </Badge>
                  )}
                </h3>
                {(byDay.get(day) ?? []).length === 0 ? (
                  <p className="text-sm text-muted-foreground">No classes.</p>
                ) : (
                  <ul className="grid gap-1 text-sm">
                    {byDay.get(day)!.map((s) => (
                      <SessionLine key={s._id} session={s} link={linkOf(s)} who={whoOf?.(s) ?? null} />
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        </section>
      ))}
      <CalendarLink url={week.calendarUrl} />
    </div>
  );
}

function SessionLine({
  session: s,
  link,
  who,
}: {
  session: SessionJson;
  link: { to: string; label: string } | null;
  who: string | null;
}) {
  const cancelled = s.status === "cancelled";
  const text = `${s.start}–${s.end} ${s.subject} · ${s.batchName}`;
  return (
    <li className="flex flex-wrap items-center gap-2" data-status={s.status}>
      {cancelled ? <del className="text-muted-foreground">{text}</del> : <span className="font-medium">{text}</span>}
      <span className="text-muted-foreground">
        {s.teacher?.name ?? ""}
        {s.substituteFor && ` (for ${s.substituteFor.name})`}
        {s.online ? " · Online" : s.room ? ` · ${s.room}` : ""}
      </span>
      {who && <Badge tone="muted">{who}</Badge>}
      {cancelled && <Badge tone="destructive">Cancelled</Badge>}
      {s.rescheduledFrom && !cancelled && <Badge tone="warning">Moved</Badge>}
      {s.changeNote && <span className="text-muted-foreground">{s.changeNote}</span>}
      {link && !cancelled && (
        <Link to={link.to} className="ml-auto text-primary underline-offset-4 hover:underline">
          {link.label}
        </Link>
      )}
    </li>
  );
}

function CalendarLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarDays className="size-5" aria-hidden /> Your calendar
        </CardTitle>
        <CardDescription>
          Add this address to Google Calendar, Outlook or your phone's calendar to see your classes there. It is private
          to you: do not share it.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex gap-2">
        <Input readOnly value={url} aria-label="Calendar address" onFocus={(e) => e.currentTarget.select()} />
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            void navigator.clipboard?.writeText(url).then(() => setCopied(true));
          }}
        >
          <Copy className="size-4" aria-hidden /> {copied ? "Copied" : "Copy"}
        </Button>
      </CardContent>
    </Card>
  );
}
