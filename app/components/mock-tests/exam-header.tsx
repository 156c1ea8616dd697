import { AlarmClock, CloudCheck, CloudOff, LoaderCircle, UserRound, X } from "lucide-react";
import { formatTimeLeft } from "~/lib/mock-tests/clock";
import { saveStatusText, type SaveStatus } from "~/lib/mock-tests/save-queue";
import { cn } from "~/lib/cn";

/** 'Time Left' as HH:MM:SS; red in the last five minutes. */
export function TimeLeft({ msLeft }: { msLeft: number }) {
  const urgent = msLeft <= 5 * 60_000;
  return (
    <div className="flex items-center gap-2 rounded-md bg-slate-900 px-2.5 py-1 text-white sm:px-3 sm:py-1.5 dark:bg-slate-800">
      <span className="text-xs font-medium uppercase tracking-wide text-slate-300">Time Left</span>
      <span
        role="timer"
        aria-label={`Time Left ${formatTimeLeft(msLeft)}`}
        className={cn("font-mono text-base font-semibold tabular-nums sm:text-lg", urgent && "text-red-400")}
      >
        {formatTimeLeft(msLeft)}
      </span>
    </div>
  );
}

/** Whether the answers have reached the server; problems are announced, routine saves are not. */
export function SaveStatusLine({ status }: { status: SaveStatus }) {
  const text = saveStatusText(status);
  const problem = status.kind !== "saved" && status.kind !== "saving";
  const Icon = status.kind === "saved" ? CloudCheck : status.kind === "saving" ? LoaderCircle : CloudOff;
  return (
    <p
      className={cn(
        "order-last flex w-full items-center gap-1.5 text-xs sm:order-none sm:w-auto",
        problem ? "font-medium text-red-700 dark:text-red-400" : "text-muted-foreground",
      )}
    >
      <Icon className={cn("size-4 shrink-0", status.kind === "saving" && "animate-spin")} aria-hidden />
      <span>{text}</span>
      <span className="sr-only" role="status">
        {problem ? text : ""}
      </span>
    </p>
  );
}

/** Test name, candidate, the countdown and the save status across the top (mock-tests.md §2.2). */
export function ExamHeader({
  title,
  candidate,
  msLeft,
  status,
  children,
}: {
  title: string;
  candidate: { name: string; avatarUrl?: string | null };
  msLeft: number;
  status: SaveStatus;
  /** Extra controls (the palette drawer's button on a phone). */
  children?: React.ReactNode;
}) {
  return (
    <header className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b bg-card px-3 py-2 sm:px-4">
      <div className="flex min-w-0 items-center gap-3">
        {candidate.avatarUrl ? (
          <img src={candidate.avatarUrl} alt="" className="hidden size-10 shrink-0 rounded-md object-cover sm:block" />
        ) : (
          <span className="hidden size-10 shrink-0 items-center justify-center rounded-md bg-muted sm:flex">
            <UserRound className="size-5 text-muted-foreground" aria-hidden />
          </span>
        )}
        <div className="min-w-0">
          <h1 className="truncate text-base font-semibold sm:text-lg">{title}</h1>
          <p className="truncate text-xs text-muted-foreground">
            Candidate: <span className="font-medium text-foreground">{candidate.name}</span>
          </p>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 sm:gap-x-4">
        <SaveStatusLine status={status} />
        <TimeLeft msLeft={msLeft} />
        {children}
      </div>
    </header>
  );
}

/** The banner at 30, 15 and 5 minutes left (mock-tests.md §2.7). */
export function TimeAlertBanner({ minutes, onDismiss }: { minutes: number; onDismiss: () => void }) {
  return (
    <div
      role="alert"
      className="flex items-center gap-3 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <AlarmClock className="size-5 shrink-0" aria-hidden />
      <p className="flex-1">
        <strong>
          {minutes} {minutes === 1 ? "minute" : "minutes"} left.
        </strong>{" "}
        The test is submitted automatically when the time is over.
      </p>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss the time alert"
        className="rounded-md p-1 hover:bg-amber-100 dark:hover:bg-amber-900"
      >
        <X className="size-4" aria-hidden />
      </button>
    </div>
  );
}
