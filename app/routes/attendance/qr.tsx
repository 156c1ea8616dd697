import { useEffect, useState } from "react";
import { Link } from "react-router";
import QRCode from "qrcode";
import type { Route } from "./+types/qr";
import { loadQr } from "~/lib/registers.server";
import type { QrCodeJson } from "#common/validation/attendance.ts";

/**
 * The teacher's QR screen (issue 41 §3): the code for now, large, fetched again as each one
 * expires (every 20 seconds), with a countdown. The code marks only the student signed in on the
 * phone that scans it, only for this class and only while it runs.
 */

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `QR code · ${loaderData?.session.subject ?? "Class"} | Pathshala` },
];

export const loader = ({ context, request, params }: Route.LoaderArgs) => loadQr(context, request, params.id);

export default function QrPage({ loaderData }: Route.ComponentProps) {
  const { session } = loaderData;
  const [qr, setQr] = useState<QrCodeJson | null>(loaderData.qr);
  const [refusal, setRefusal] = useState<string | null>(loaderData.refusal);
  const [drawn, setImage] = useState<{ url: string; data: string } | null>(null);
  // The last code drawn stays up while the next one is drawn (a few milliseconds), so the screen never blinks.
  const image = qr && drawn ? drawn.data : null;
  const [now, setNow] = useState(() => Date.now());

  // A fresh code as the shown one expires (a moment after, so the server's window has turned).
  useEffect(() => {
    const wait = qr ? Math.max(500, Date.parse(qr.expiresAt) - Date.now() + 300) : 20_000;
    const timer = setTimeout(async () => {
      const res = await fetch(`/api/sessions/${session._id}/qr`).catch(() => null);
      if (!res) return setNow(Date.now());
      const body = await res.json();
      if (res.ok) {
        setQr(body);
        setRefusal(null);
      } else {
        setQr(null);
        setRefusal(body.error);
      }
    }, wait);
    return () => clearTimeout(timer);
  }, [qr, session._id, now]);

  useEffect(() => {
    if (!qr) return;
    let live = true;
    void QRCode.toDataURL(qr.url, { width: 640, margin: 2, errorCorrectionLevel: "M" }).then((data) => {
      if (live) setImage({ url: qr.url, data });
    });
    return () => {
      live = false;
    };
  }, [qr]);

  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(tick);
  }, []);

  const left = qr ? Math.max(0, Math.ceil((Date.parse(qr.expiresAt) - now) / 1_000)) : 0;
  return (
    <main className="mx-auto flex min-h-dvh max-w-3xl flex-col items-center justify-center gap-4 px-4 py-6 text-center">
      <h1 className="text-2xl font-semibold">
        {session.subject} · {session.batchName}
      </h1>
      <p className="text-muted-foreground">
        {session.start}–{session.end} · Scan with your phone, signed in to your account
      </p>
      {image && qr ? (
        <>
          <img src={image} alt="Attendance QR code" className="aspect-square w-full max-w-[min(80vh,640px)]" />
          <p className="text-lg" aria-live="off">
            New code in <span className="font-semibold tabular-nums">{left}</span> s
          </p>
        </>
      ) : (
        <p role="status" className="max-w-md rounded-md bg-muted px-4 py-3">
          {refusal ?? "Loading the code…"}
        </p>
      )}
      <Link
        to={`/sessions/${session._id}/register`}
        className="text-sm text-primary underline-offset-4 hover:underline"
      >
        Back to the register
      </Link>
    </main>
  );
}
