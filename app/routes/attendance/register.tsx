import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { QrCode } from "lucide-react";
import type { Route } from "./+types/register";
import { loadRegister } from "~/lib/registers.server";
import {
  RollCallQueue,
  shownMarks,
  type QueuedMark,
  type QueuedSave,
  type ShownMark,
} from "~/lib/attendance/roll-call-queue";
import { Button, ButtonLink } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import {
  ALL_SENT,
  ATTENDANCE_STATUSES,
  SAVED_ON_PHONE,
  SOURCE_LABELS,
  STATUS_LABELS,
  type AttendanceStatus,
  type MarkChangeJson,
  type RegisterJson,
} from "#common/validation/attendance.ts";

/**
 * The roll-call register (issue 41 §3), phone first: a class of 60 in under 30 seconds. Everyone
 * not yet marked shows Present; one tap makes a student Absent (and back), a long press Late, the
 * small menu any status; one Save. Saves are kept on the phone and sent in order when it is online
 * (RollCallQueue). After the close, a mark changes only by a correction with a reason.
 */

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Register · ${loaderData?.register.session.subject ?? "Class"} | Pathshala` },
];

export const loader = ({ context, request, params }: Route.LoaderArgs) => loadRegister(context, request, params.id);

const LONG_PRESS_MS = 500;

const send: typeof fetch = (input, init) => fetch(input, init);

function parsePending(kept: string): QueuedSave[] {
  try {
    const queue = JSON.parse(kept) as unknown;
    return Array.isArray(queue) ? (queue as QueuedSave[]) : [];
  } catch {
    return [];
  }
}

const TONE: Record<AttendanceStatus, string> = {
  present: "border-emerald-600 bg-emerald-50 text-emerald-900",
  absent: "border-red-600 bg-red-50 text-red-900",
  late: "border-amber-600 bg-amber-50 text-amber-900",
  excused: "border-sky-600 bg-sky-50 text-sky-900",
};

export default function RegisterPage({ loaderData }: Route.ComponentProps) {
  const sessionId = loaderData.register.session._id;
  const [register, setRegister] = useState<RegisterJson>(loaderData.register);
  const [changes, setChanges] = useState<MarkChangeJson[]>(loaderData.changes);
  const queue = useMemo(
    () => new RollCallQueue(sessionId, typeof window === "undefined" ? null : window.localStorage, send),
    [sessionId],
  );
  // The queue is the phone's (localStorage): the server renders it empty, the phone fills it in.
  const kept = useSyncExternalStore(queue.subscribe, queue.snapshot, () => "[]");
  const pending = useMemo(() => parsePending(kept), [kept]);
  /** Taps since the last Save (studentId → mark). */
  const [taps, setTaps] = useState<Map<string, QueuedMark>>(new Map());
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const closed = register.closedAt !== null;
  const line = pending.length > 0 ? SAVED_ON_PHONE : sent;

  const refresh = useCallback(async () => {
    const [r, h] = await Promise.all([
      fetch(`/api/sessions/${sessionId}/attendance`),
      fetch(`/api/sessions/${sessionId}/attendance/history`),
    ]);
    if (r.ok) setRegister((await r.json()).register);
    if (h.ok) setChanges((await h.json()).changes);
  }, [sessionId]);

  const drain = useCallback(async () => {
    if (queue.pending().length === 0) return;
    const result = await queue.drain();
    if (result.register) setRegister(result.register);
    if (result.kind === "sent") {
      setSent(ALL_SENT);
      void refresh();
    } else if (result.kind !== "offline") setError(result.message);
  }, [queue, refresh]);

  // Sent on load and whenever the phone is back online.
  useEffect(() => {
    // The queue's answers come back from the network, after this effect has run.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void drain();
    const online = () => void drain();
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [drain]);

  const shown = useMemo(
    () =>
      shownMarks(register, pending).map((s) => {
        const tap = taps.get(s.studentId);
        return tap ? { ...s, status: tap.status, minutesLate: tap.minutesLate ?? null, assumed: false } : s;
      }),
    [register, pending, taps],
  );

  const counts = useMemo(() => {
    const c: Record<AttendanceStatus, number> = { present: 0, absent: 0, late: 0, excused: 0 };
    for (const s of shown) c[s.status] += 1;
    return c;
  }, [shown]);

  const setStatus = (studentId: string, status: AttendanceStatus) =>
    setTaps((before) => new Map(before).set(studentId, { studentId, status }));

  const save = () => {
    setError(null);
    // What this phone decided: every tap, and the students nobody has marked yet (Present by default).
    const marks: QueuedMark[] = shown
      .filter((s) => taps.has(s.studentId) || s.assumed)
      .map((s) => ({ studentId: s.studentId, status: s.status }));
    if (marks.length === 0) return;
    queue.enqueue(marks);
    setTaps(new Map());
    void drain();
  };

  const closeRegister = async () => {
    setError(null);
    const res = await fetch(`/api/sessions/${sessionId}/attendance/close`, { method: "POST" }).catch(() => null);
    if (!res) return setError("You are offline: the register can be closed once you are back online.");
    const body = await res.json();
    if (!res.ok) return setError(body.error);
    setRegister(body.register);
  };

  const { session } = register;
  return (
    <main className="mx-auto min-h-dvh max-w-xl bg-background px-3 pb-28 pt-4">
      <header className="space-y-1">
        <h1 className="text-xl font-semibold">
          {session.subject} · {session.batchName}
        </h1>
        <p className="text-sm text-muted-foreground">
          {session.on} · {session.start}–{session.end}
          {session.room ? ` · ${session.room}` : ""}
          {session.online ? " · Online" : ""} · Late after {register.lateAfterMinutes} minutes
        </p>
        {session.status === "cancelled" && (
          <p className="font-medium text-red-700">
            This class was cancelled{session.changeNote ? `: ${session.changeNote}` : "."}
          </p>
        )}
      </header>

      <div className="sticky top-0 z-10 mt-3 flex items-center justify-between gap-2 border-b bg-background py-2">
        <p className="text-base font-semibold" aria-live="polite" data-testid="register-counter">
          Present {counts.present + counts.late} · Absent {counts.absent}
          {counts.late > 0 && <span className="font-normal text-muted-foreground"> · Late {counts.late}</span>}
          {counts.excused > 0 && <span className="font-normal text-muted-foreground"> · Excused {counts.excused}</span>}
        </p>
        <ButtonLink to={`/sessions/${sessionId}/qr`} variant="outline" size="sm">
          <QrCode className="size-4" aria-hidden /> QR code
        </ButtonLink>
      </div>

      {line && (
        <p role="status" className="mt-2 rounded-md bg-muted px-3 py-2 text-sm">
          {line}
        </p>
      )}
      {error && (
        <p role="alert" className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      {closed && (
        <p className="mt-2 rounded-md bg-muted px-3 py-2 text-sm">
          This register is closed: correct a mark with a reason.
        </p>
      )}

      <ul className="mt-3 space-y-2" aria-label="Students">
        {shown.map((s) =>
          closed ? (
            <ClosedRow key={s.studentId} mark={s} sessionId={sessionId} onCorrected={refresh} />
          ) : (
            <StudentRow key={s.studentId} mark={s} onSet={(status) => setStatus(s.studentId, status)} />
          ),
        )}
      </ul>
      {shown.length === 0 && (
        <p className="mt-6 text-center text-muted-foreground">No students are admitted in this batch.</p>
      )}

      {changes.length > 0 && <History changes={changes} />}

      <div className="fixed inset-x-0 bottom-0 border-t bg-background/95 px-3 py-3 backdrop-blur">
        <div className="mx-auto flex max-w-xl gap-2">
          {!closed && (
            <Button size="lg" className="h-14 flex-1 text-lg" onClick={save} disabled={session.status === "cancelled"}>
              Save
            </Button>
          )}
          {!closed && (
            <Button size="lg" variant="outline" className="h-14" onClick={() => void closeRegister()}>
              Close register
            </Button>
          )}
          {closed && (
            <p className="mx-auto py-3 text-sm text-muted-foreground">
              Closed {new Date(register.closedAt!).toLocaleString("en-IN", { timeZone: "Asia/Kolkata" })}
            </p>
          )}
        </div>
      </div>
    </main>
  );
}

/** One tap: Present ↔ Absent; a long press: Late; the menu: any status. */
function StudentRow({ mark, onSet }: { mark: ShownMark; onSet: (status: AttendanceStatus) => void }) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pressedLong = useRef(false);
  const start = () => {
    pressedLong.current = false;
    timer.current = setTimeout(() => {
      pressedLong.current = true;
      onSet("late");
    }, LONG_PRESS_MS);
  };
  const stop = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  return (
    <li className="flex items-stretch gap-2">
      <button
        type="button"
        className={cn(
          "flex min-h-14 flex-1 items-center justify-between rounded-lg border-2 px-4 text-left text-base select-none",
          TONE[mark.status],
          mark.assumed && "border-dashed",
        )}
        aria-label={`${mark.name}: ${STATUS_LABELS[mark.status]}`}
        onPointerDown={start}
        onPointerUp={stop}
        onPointerLeave={stop}
        onContextMenu={(e) => e.preventDefault()}
        onClick={() => {
          if (pressedLong.current) return;
          onSet(mark.status === "absent" ? "present" : "absent");
        }}
      >
        <span className="font-medium">{mark.name}</span>
        <span className="text-sm font-semibold">
          {STATUS_LABELS[mark.status]}
          {mark.unsent && <span className="ml-1 font-normal">(on this phone)</span>}
        </span>
      </button>
      <select
        aria-label={`More for ${mark.name}`}
        className="w-14 rounded-lg border bg-background text-center text-sm"
        value=""
        onChange={(e) => e.target.value && onSet(e.target.value as AttendanceStatus)}
      >
        <option value="">⋯</option>
        {ATTENDANCE_STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_LABELS[s]}
          </option>
        ))}
      </select>
    </li>
  );
}

/** After the close: the mark, and a correction with a reason. */
function ClosedRow({
  mark,
  sessionId,
  onCorrected,
}: {
  mark: ShownMark;
  sessionId: string;
  onCorrected: () => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<AttendanceStatus>(mark.status);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const res = await fetch(`/api/sessions/${sessionId}/attendance/${mark.studentId}/correction`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status, reason }),
    }).catch(() => null);
    if (!res) return setError("You are offline: send the correction once you are back online.");
    if (!res.ok) return setError((await res.json()).error);
    setOpen(false);
    setReason("");
    await onCorrected();
  };
  return (
    <li className={cn("rounded-lg border-2 px-4 py-3", TONE[mark.status], mark.assumed && "border-dashed")}>
      <div className="flex items-center justify-between gap-2">
        <span className="font-medium">{mark.name}</span>
        <span className="flex items-center gap-2 text-sm font-semibold">
          {mark.assumed ? "Not marked" : STATUS_LABELS[mark.status]}
          <Button size="sm" variant="outline" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            Correct
          </Button>
        </span>
      </div>
      {open && (
        <form onSubmit={(e) => void submit(e)} className="mt-3 space-y-2 text-foreground">
          <label className="block text-sm">
            Status
            <select
              className="mt-1 block h-10 w-full rounded-md border bg-background px-2"
              value={status}
              onChange={(e) => setStatus(e.target.value as AttendanceStatus)}
            >
              {ATTENDANCE_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <label className="block text-sm">
            Reason
            <input
              className="mt-1 block h-10 w-full rounded-md border bg-background px-2"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={300}
              required
            />
          </label>
          {error && (
            <p role="alert" className="text-sm text-red-800">
              {error}
            </p>
          )}
          <Button type="submit" size="sm">
            Save correction
          </Button>
        </form>
      )}
    </li>
  );
}

function History({ changes }: { changes: MarkChangeJson[] }) {
  return (
    <section className="mt-8" aria-labelledby="history">
      <h2 id="history" className="text-base font-semibold">
        History
      </h2>
      <ol className="mt-2 space-y-2 text-sm">
        {changes.map((c) => (
          <li key={c._id} className="rounded-md border px-3 py-2">
            <p>
              <span className="font-medium">{c.student}</span>: {c.from ? STATUS_LABELS[c.from] : "Not marked"} →{" "}
              {STATUS_LABELS[c.to]} ({SOURCE_LABELS[c.source]})
            </p>
            <p className="text-muted-foreground">
              {c.by ? `${c.by.name}, ` : ""}
              {new Date(c.at).toLocaleString("en-IN", { timeZone: "Asia/Kolkata" })}
              {c.reason ? ` · ${c.reason}` : ""}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
