import { useEffect, useState } from "react";
import { Form, Link, data, useActionData, useNavigation } from "react-router";
import { CalendarDays, Plus, Trash2 } from "lucide-react";
import type { Route } from "./+types/batch-timetable";
import { loadBusinessCenter, notAllowed } from "~/lib/business.server";
import { failure, tryService } from "~/lib/actions.server";
import { toast } from "~/lib/toast";
import { PageHeader } from "~/components/ui/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-message";
import { Input, Select } from "~/components/ui/input";
import { EmptyState } from "~/components/ui/empty-state";
import { NoSubscription } from "~/components/business/no-subscription";
import { formatDate } from "#common/format.ts";
import { WEEKDAYS, addDays, dayText, indiaDate } from "#common/india-dates.ts";
import { BATCH_NOT_FOUND } from "#common/validation/batches.ts";
import type { SessionJson, SlotJson } from "#common/validation/timetables.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.batch ? `${loaderData.batch.name} · ` : ""}Timetable | Business` },
];

/** How far ahead the page lists the batch's classes. */
const UPCOMING_DAYS = 28;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  if (!center) return { center: null, batch: null, timetable: [], teachers: [], holidays: [], sessions: [] };
  const found = await tryService(() => services.batches.detail(center.id, params.id));
  if (!found.ok) throw data(BATCH_NOT_FOUND, { status: 404 });
  const batch = found.value.batch;
  const today = services.timetables.today();
  const [timetable, teachers, holidays, sessions] = await Promise.all([
    services.timetables.timetable(center.id, batch._id),
    services.timetables.teachers(center.id),
    services.timetables.holidays(center.id),
    services.timetables.sessionsOfBatch(center.id, batch._id, { from: today, to: addDays(today, UPCOMING_DAYS - 1) }),
  ]);
  return {
    center: { instituteName: center.instituteName },
    batch,
    timetable,
    teachers,
    holidays: holidays.filter((h) => h.batchId === null || h.batchId === batch._id),
    sessions,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { center, services, may, viewer } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  if (!may("batches.manage")) return failure(notAllowed("batches.manage"), 403);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? "").trim();
  const all = (name: string) => form.getAll(name).map((v) => String(v).trim());
  const t = services.timetables;
  const run = async (what: () => Promise<unknown>, message: string) => {
    const done = await tryService(what);
    if (!done.ok) return done.response;
    return { ok: true as const, message };
  };
  const sessionId = field("sessionId");
  switch (field("intent")) {
    case "save": {
      const weekdays = all("weekday");
      const [starts, ends, subjects, teachers, rooms, modes, links] = [
        all("start"),
        all("end"),
        all("subject"),
        all("teacherId"),
        all("room"),
        all("mode"),
        all("meetingUrl"),
      ];
      const slots = weekdays.map((weekday, i) => ({
        weekday: Number(weekday),
        start: starts[i],
        end: ends[i],
        subject: subjects[i],
        teacherId: teachers[i] || null,
        room: modes[i] === "online" ? undefined : rooms[i],
        online: modes[i] === "online",
        meetingUrl: modes[i] === "online" ? links[i] || null : null,
      }));
      return run(() => t.saveTimetable(center.id, params.id, { slots }), "Timetable saved; its classes are made.");
    }
    case "holiday":
      return run(
        () =>
          t.declareHoliday(viewer, center.id, {
            on: field("on"),
            name: field("name"),
            batchId: field("scope") === "batch" ? params.id : null,
          }),
        `${field("name")} declared: that day's classes are cancelled.`,
      );
    case "unholiday":
      return run(() => t.removeHoliday(center.id, field("holidayId")), "Holiday removed: its classes are back.");
    case "cancel":
      return run(
        () => t.changeSession(center.id, sessionId, { action: "cancel", note: field("note") || undefined }),
        "Class cancelled.",
      );
    case "reschedule":
      return run(
        () =>
          t.changeSession(center.id, sessionId, {
            action: "reschedule",
            on: field("on"),
            start: field("start"),
            end: field("end"),
            note: field("note") || undefined,
          }),
        "Class moved.",
      );
    case "substitute":
      return run(
        () =>
          t.changeSession(center.id, sessionId, {
            action: "substitute",
            teacherId: field("teacherId"),
            note: field("note") || undefined,
          }),
        "Substitute teacher set.",
      );
    case "restore":
      return run(() => t.changeSession(center.id, sessionId, { action: "restore" }), "Class restored.");
  }
  return failure("Unknown action.");
}

type Row = {
  key: number;
  weekday: string;
  start: string;
  end: string;
  subject: string;
  teacherId: string;
  room: string;
  mode: "room" | "online";
  meetingUrl: string;
};

let nextKey = 0;
const rowOf = (slot?: SlotJson): Row => ({
  key: nextKey++,
  weekday: String(slot?.weekday ?? 1),
  start: slot?.start ?? "09:00",
  end: slot?.end ?? "10:00",
  subject: slot?.subject ?? "",
  teacherId: slot?.teacher?._id ?? "",
  room: slot?.room ?? "",
  mode: slot?.online ? "online" : "room",
  meetingUrl: slot?.meetingUrl ?? "",
});

export default function BatchTimetable({ loaderData }: Route.ComponentProps) {
  const { center, batch, timetable, teachers, holidays, sessions } = loaderData;
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.message);
    else toast.error("Could not do that", { description: result.error });
  }, [result]);
  if (!center || !batch) return <NoSubscription title="Timetable" />;
  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <PageHeader
        title={`${batch.name}: timetable`}
        description={`The batch's week (times in India time), its holidays and its classes. Dates: ${formatDate(batch.startsOn)}${batch.endsOn ? ` to ${formatDate(batch.endsOn)}` : " onwards"}.`}
      />
      <p>
        <Link to={`/business/batches?batch=${batch._id}`} className="text-sm underline-offset-4 hover:underline">
          ← Back to the batch
        </Link>
      </p>
      {result && !result.ok && <FormError>{result.error}</FormError>}
      <WeekEditor key={timetable.map((s) => s._id).join()} timetable={timetable} teachers={teachers} busy={busy} />
      <Holidays holidays={holidays} busy={busy} />
      <Upcoming sessions={sessions} teachers={teachers} busy={busy} />
    </div>
  );
}

type Teacher = { _id: string; name: string };

function WeekEditor({ timetable, teachers, busy }: { timetable: SlotJson[]; teachers: Teacher[]; busy: boolean }) {
  const [rows, setRows] = useState<Row[]>(() => timetable.map(rowOf));
  const change = (key: number, patch: Partial<Row>) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Weekly timetable</CardTitle>
        <CardDescription>
          Saving replaces the week: classes are made from today to the batch's end. A teacher or room busy with another
          batch at the same time is refused, naming that class.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-3">
          <input type="hidden" name="intent" value="save" />
          {rows.length === 0 && <p className="text-sm text-muted-foreground">No classes in the week yet.</p>}
          {rows.map((row, i) => (
            <fieldset
              key={row.key}
              aria-label={`Class ${i + 1}`}
              className="grid items-end gap-2 rounded-md border p-3 sm:grid-cols-2 md:grid-cols-5"
            >
              <Field label="Day">
                <Select
                  name="weekday"
                  value={row.weekday}
                  onChange={(e) => change(row.key, { weekday: e.target.value })}
                >
                  {WEEKDAYS.map((day, d) => (
                    <option key={day} value={d + 1}>
                      {day}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label="Starts">
                <Input
                  name="start"
                  type="time"
                  required
                  value={row.start}
                  onChange={(e) => change(row.key, { start: e.target.value })}
                />
              </Field>
              <Field label="Ends">
                <Input
                  name="end"
                  type="time"
                  required
                  value={row.end}
                  onChange={(e) => change(row.key, { end: e.target.value })}
                />
              </Field>
              <Field label="Subject">
                <Input
                  name="subject"
                  required
                  maxLength={80}
                  value={row.subject}
                  onChange={(e) => change(row.key, { subject: e.target.value })}
                />
              </Field>
              <Field label="Teacher">
                <Select
                  name="teacherId"
                  value={row.teacherId}
                  onChange={(e) => change(row.key, { teacherId: e.target.value })}
                >
                  <option value="">—</option>
                  {teachers.map((t) => (
                    <option key={t._id} value={t._id}>
                      {t.name}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label="Where">
                <Select
                  name="mode"
                  value={row.mode}
                  onChange={(e) => change(row.key, { mode: e.target.value as Row["mode"] })}
                >
                  <option value="room">Room</option>
                  <option value="online">Online</option>
                </Select>
              </Field>
              {row.mode === "online" ? (
                <Field label="Meeting link" className="md:col-span-2">
                  <Input
                    name="meetingUrl"
                    type="url"
                    placeholder="https://"
                    value={row.meetingUrl}
                    onChange={(e) => change(row.key, { meetingUrl: e.target.value })}
                  />
                </Field>
              ) : (
                <Field label="Room" className="md:col-span-2">
                  <Input
                    name="room"
                    maxLength={60}
                    value={row.room}
                    onChange={(e) => change(row.key, { room: e.target.value })}
                  />
                </Field>
              )}
              {/* Every row sends each list once, so the lists line up. */}
              {row.mode === "online" ? (
                <input type="hidden" name="room" value="" />
              ) : (
                <input type="hidden" name="meetingUrl" value="" />
              )}
              <Button
                type="button"
                variant="outline"
                onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
                aria-label={`Remove class ${i + 1}`}
              >
                <Trash2 className="size-4" aria-hidden /> Remove
              </Button>
            </fieldset>
          ))}
          <div className="flex gap-2">
            <Button type="button" variant="outline" onClick={() => setRows((all) => [...all, rowOf()])}>
              <Plus className="size-4" aria-hidden /> Add class
            </Button>
            <Button type="submit" disabled={busy}>
              Save timetable
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

function Holidays({ holidays, busy }: { holidays: Route.ComponentProps["loaderData"]["holidays"]; busy: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Holidays</CardTitle>
        <CardDescription>A holiday cancels that day's classes; removing it brings them back.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {holidays.length > 0 && (
          <ul className="grid gap-1 text-sm">
            {holidays.map((h) => (
              <li key={h._id} className="flex items-center gap-3">
                <span className="font-medium">{h.name}</span>
                <span className="text-muted-foreground">{dayText(h.on)}</span>
                <Badge tone="muted">{h.batchId ? "This batch" : "Whole institute"}</Badge>
                <Form method="post" className="ml-auto">
                  <input type="hidden" name="intent" value="unholiday" />
                  <input type="hidden" name="holidayId" value={h._id} />
                  <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={`Remove ${h.name}`}>
                    Remove
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <Form method="post" className="grid items-end gap-3 sm:grid-cols-4">
          <input type="hidden" name="intent" value="holiday" />
          <Field label="Date">
            <Input name="on" type="date" required />
          </Field>
          <Field label="Holiday">
            <Input name="name" required maxLength={80} placeholder="Diwali" />
          </Field>
          <Field label="For">
            <Select name="scope" defaultValue="institute">
              <option value="institute">The whole institute</option>
              <option value="batch">This batch only</option>
            </Select>
          </Field>
          <div>
            <Button type="submit" disabled={busy}>
              Declare holiday
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

function Upcoming({ sessions, teachers, busy }: { sessions: SessionJson[]; teachers: Teacher[]; busy: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Classes in the next {UPCOMING_DAYS} days</CardTitle>
        <CardDescription>
          Cancel, move or give one class to a substitute; restore puts it back as timetabled.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.length === 0 ? (
          <EmptyState icon={<CalendarDays />} title="No classes in the next weeks. Save a timetable above." />
        ) : (
          <ul className="grid gap-3">
            {sessions.map((s) => (
              <SessionRow key={s._id} session={s} teachers={teachers} busy={busy} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function SessionRow({ session: s, teachers, busy }: { session: SessionJson; teachers: Teacher[]; busy: boolean }) {
  const [open, setOpen] = useState<"reschedule" | "substitute" | null>(null);
  const cancelled = s.status === "cancelled";
  const changed = cancelled || s.rescheduledFrom !== null || s.substituteFor !== null;
  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="sessionId" value={s._id} />
    </>
  );
  return (
    <li
      className="grid gap-2 rounded-md border p-3 text-sm"
      aria-label={`${s.subject} on ${dayText(indiaDate(s.startsAt))}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className={cancelled ? "text-muted-foreground line-through" : "font-medium"}>
          {dayText(indiaDate(s.startsAt))} · {s.start}–{s.end} · {s.subject}
        </span>
        <span className="text-muted-foreground">
          {s.teacher?.name ?? "No teacher"}
          {s.substituteFor && ` (for ${s.substituteFor.name})`} · {s.online ? "Online" : (s.room ?? "No room")}
        </span>
        {cancelled && <Badge tone="destructive">Cancelled</Badge>}
        {s.rescheduledFrom && <Badge tone="warning">Moved</Badge>}
        {s.changeNote && <span className="text-muted-foreground">“{s.changeNote}”</span>}
        {!cancelled && (
          <Link
            to={`/sessions/${s._id}/register`}
            className="font-medium text-primary underline-offset-4 hover:underline"
            aria-label={`Register of ${s.subject} on ${dayText(indiaDate(s.startsAt))}`}
          >
            Register
          </Link>
        )}
        <div className="ml-auto flex flex-wrap gap-2">
          {!cancelled && (
            <Form method="post" className="flex gap-2">
              {hidden("cancel")}
              <Input name="note" placeholder="Why (optional)" className="h-8 w-40" aria-label="Why it is cancelled" />
              <Button type="submit" size="sm" variant="outline" disabled={busy}>
                Cancel
              </Button>
            </Form>
          )}
          <Button
            type="button"
            size="sm"
            variant="outline"
            onClick={() => setOpen(open === "reschedule" ? null : "reschedule")}
          >
            Reschedule
          </Button>
          <Button
            type="button"
            size="sm"
            variant="outline"
            onClick={() => setOpen(open === "substitute" ? null : "substitute")}
          >
            Substitute
          </Button>
          {changed && (
            <Form method="post">
              {hidden("restore")}
              <Button type="submit" size="sm" variant="outline" disabled={busy}>
                Restore
              </Button>
            </Form>
          )}
        </div>
      </div>
      {open === "reschedule" && (
        <Form method="post" className="grid items-end gap-2 sm:grid-cols-5">
          {hidden("reschedule")}
          <Field label="New date">
            <Input name="on" type="date" required defaultValue={indiaDate(s.startsAt)} />
          </Field>
          <Field label="Starts">
            <Input name="start" type="time" required defaultValue={s.start} />
          </Field>
          <Field label="Ends">
            <Input name="end" type="time" required defaultValue={s.end} />
          </Field>
          <Field label="Note">
            <Input name="note" maxLength={200} />
          </Field>
          <Button type="submit" size="sm" disabled={busy}>
            Move class
          </Button>
        </Form>
      )}
      {open === "substitute" && (
        <Form method="post" className="grid items-end gap-2 sm:grid-cols-3">
          {hidden("substitute")}
          <Field label="Substitute teacher">
            <Select name="teacherId" required defaultValue="">
              <option value="" disabled>
                Choose
              </option>
              {teachers.map((t) => (
                <option key={t._id} value={t._id}>
                  {t.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Note">
            <Input name="note" maxLength={200} />
          </Field>
          <Button type="submit" size="sm" disabled={busy}>
            Set substitute
          </Button>
        </Form>
      )}
    </li>
  );
}
