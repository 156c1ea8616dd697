import { useEffect, useState } from "react";
import type { Route } from "./+types/attend";
import { requireStudentForScan } from "~/lib/registers.server";
import { markedText, type QrScanJson } from "#common/validation/attendance.ts";

/**
 * Where a student's phone lands from the classroom's QR code (`/attend?c=CODE`): signed in first
 * (the code kept in the address), then the code is sent at once (it lasts seconds) and the answer
 * shown in words. The server sets the phone's device cookie on the way.
 */

export const meta: Route.MetaFunction = () => [{ title: "Attendance | Pathshala" }];

export const loader = ({ context, request }: Route.LoaderArgs) => requireStudentForScan(context, request);

type Outcome = { kind: "sending" } | { kind: "done"; scan: QrScanJson } | { kind: "refused"; message: string };

export default function AttendPage({ loaderData }: Route.ComponentProps) {
  const { code } = loaderData;
  const [outcome, setOutcome] = useState<Outcome>({ kind: "sending" });

  useEffect(() => {
    let live = true;
    void (async () => {
      const res = await fetch("/api/attendance/qr", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code }),
      }).catch(() => null);
      if (!live) return;
      if (!res) return setOutcome({ kind: "refused", message: "You are offline. Connect and scan the code again." });
      const body = await res.json();
      setOutcome(res.ok ? { kind: "done", scan: body } : { kind: "refused", message: body.error });
    })();
    return () => {
      live = false;
    };
  }, [code]);

  return (
    <main
      className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-3 px-4 text-center"
      aria-live="polite"
    >
      {outcome.kind === "sending" && <p role="status">Marking your attendance…</p>}
      {outcome.kind === "done" && (
        <>
          <h1 className="text-3xl font-semibold">
            {outcome.scan.mark === outcome.scan.status
              ? markedText(outcome.scan.status)
              : markedText(outcome.scan.mark)}
          </h1>
          <p className="text-muted-foreground">
            {outcome.scan.session.subject} · {outcome.scan.session.batchName} · {outcome.scan.session.start}–
            {outcome.scan.session.end}
          </p>
          {outcome.scan.mark !== outcome.scan.status && (
            <p className="rounded-md bg-muted px-3 py-2 text-sm">
              Your teacher has already marked you: ask them to correct it if it is wrong.
            </p>
          )}
        </>
      )}
      {outcome.kind === "refused" && (
        <>
          <h1 className="text-2xl font-semibold">Not marked</h1>
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
            {outcome.message}
          </p>
        </>
      )}
    </main>
  );
}
