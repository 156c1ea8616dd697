import { useEffect, useRef, useState } from "react";
import type { Route } from "./+types/join";
import { loadJoin } from "~/lib/registers.server";
import { Button } from "~/components/ui/button";
import { KEEP_PAGE_OPEN, ONLINE_BEAT_MS, STATUS_LABELS } from "#common/validation/attendance.ts";

/**
 * A student's join page for an online class (issue 41 §3): the button asks the server to join
 * (it answers the meeting link only to an admitted student while the class runs) and opens the
 * meeting in a new tab; this page beats every minute while it stays open, and says it leaves
 * when it is closed. Attendance is the time this page was open, not the click.
 */

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Join · ${loaderData?.session.subject ?? "Class"} | Pathshala` },
];

export const loader = ({ context, request, params }: Route.LoaderArgs) => loadJoin(context, request, params.id);

export default function JoinPage({ loaderData }: Route.ComponentProps) {
  const { session } = loaderData;
  const [joined, setJoined] = useState(false);
  const [minutes, setMinutes] = useState(loaderData.minutes);
  const [status, setStatus] = useState(loaderData.status);
  const [error, setError] = useState<string | null>(null);
  const [meetingUrl, setMeetingUrl] = useState<string | null>(null);
  const base = `/api/sessions/${session._id}/online`;
  const beating = useRef<ReturnType<typeof setInterval> | null>(null);

  const join = async () => {
    setError(null);
    // Opened within the tap, so the browser lets it; the link follows once the server gives it.
    const tab = window.open("", "_blank");
    const res = await fetch(`${base}/join`, { method: "POST" }).catch(() => null);
    const body = res ? await res.json() : null;
    if (!res || !res.ok) {
      tab?.close();
      return setError(body?.error ?? "You are offline. Connect and try again.");
    }
    setJoined(true);
    setMinutes(body.minutes);
    setStatus(body.status);
    setMeetingUrl(body.meetingUrl);
    if (tab && body.meetingUrl) {
      tab.opener = null;
      tab.location.href = body.meetingUrl;
    } else tab?.close();
  };

  useEffect(() => {
    if (!joined) return;
    beating.current = setInterval(async () => {
      const res = await fetch(`${base}/beat`, { method: "POST" }).catch(() => null);
      if (!res) return;
      const body = await res.json();
      if (res.ok) {
        setMinutes(body.minutes);
        setStatus(body.status);
      } else setError(body.error);
    }, ONLINE_BEAT_MS);
    const leave = () => navigator.sendBeacon(`${base}/leave`);
    window.addEventListener("pagehide", leave);
    return () => {
      if (beating.current) clearInterval(beating.current);
      window.removeEventListener("pagehide", leave);
    };
  }, [joined, base]);

  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center gap-4 px-4 py-8">
      <h1 className="text-2xl font-semibold">
        {session.subject} · {session.batchName}
      </h1>
      <p className="text-muted-foreground">
        {session.on} · {session.start}–{session.end}
        {session.teacher ? ` · ${session.teacher.name}` : ""}
      </p>
      {session.status === "cancelled" ? (
        <p className="rounded-md bg-red-50 px-3 py-2 text-red-800">This class was cancelled.</p>
      ) : (
        <Button size="lg" className="h-14 text-lg" onClick={() => void join()}>
          {joined ? "Open the class again" : "Join the class"}
        </Button>
      )}
      {joined && !meetingUrl && (
        <p className="text-sm text-muted-foreground">The teacher has not added the class's meeting link yet.</p>
      )}
      <p role="status" className="rounded-md bg-muted px-3 py-2">
        {KEEP_PAGE_OPEN}
      </p>
      <p className="text-sm text-muted-foreground">
        {minutes} minutes in the class so far
        {/* Absent until the minutes are enough: said only once it turns. */}
        {status && status !== "absent" ? ` · ${STATUS_LABELS[status]}` : ""}
      </p>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      )}
    </main>
  );
}
