import { cn } from "~/lib/cn";

export type ExamCommand = "save-next" | "save-mark" | "clear" | "mark-next" | "back" | "next" | "submit" | "check";

// On a phone the four answer actions share two rows, their labels wrapping inside the buttons.
const base =
  "inline-flex min-h-10 items-center justify-center rounded-md border px-2 py-1 text-xs leading-tight font-semibold tracking-wide text-center sm:px-3 sm:text-sm " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50";
const TONES = {
  green: "border-green-800 bg-green-700 text-white hover:bg-green-800",
  orange: "border-orange-600 bg-orange-500 text-slate-950 hover:bg-orange-400",
  plain: "border-slate-400 bg-white text-slate-900 hover:bg-slate-100 dark:bg-slate-900 dark:text-slate-100",
  blue: "border-sky-800 bg-sky-700 text-white hover:bg-sky-800",
};

function ActionButton({
  tone,
  onClick,
  disabled,
  children,
  className,
}: {
  tone: keyof typeof TONES;
  onClick: () => void;
  disabled?: boolean;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <button type="button" className={cn(base, TONES[tone], className)} onClick={onClick} disabled={disabled}>
      {children}
    </button>
  );
}

/**
 * The NTA action bar (mock-tests.md §2.2): the four answer actions above BACK, NEXT and SUBMIT; it
 * wraps on a phone. Practice mode replaces the two save-and-move buttons with one that saves and
 * shows the solution.
 */
export function ActionBar({
  practice,
  onCommand,
  canBack,
  canNext,
  locked,
}: {
  practice: boolean;
  onCommand: (command: ExamCommand) => void;
  canBack: boolean;
  canNext: boolean;
  /** The answer can no longer change (practice mode, solution shown). */
  locked?: boolean;
}) {
  return (
    <div className="grid gap-2 border-t bg-card p-2 sm:p-3" role="group" aria-label="Question actions">
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        {practice ? (
          <ActionButton tone="green" onClick={() => onCommand("check")} disabled={locked}>
            SAVE &amp; CHECK ANSWER
          </ActionButton>
        ) : (
          <>
            <ActionButton tone="green" onClick={() => onCommand("save-next")}>
              SAVE &amp; NEXT
            </ActionButton>
            <ActionButton tone="orange" onClick={() => onCommand("save-mark")}>
              SAVE &amp; MARK FOR REVIEW
            </ActionButton>
          </>
        )}
        <ActionButton tone="plain" onClick={() => onCommand("clear")} disabled={locked}>
          CLEAR RESPONSE
        </ActionButton>
        <ActionButton tone="blue" onClick={() => onCommand("mark-next")}>
          MARK FOR REVIEW &amp; NEXT
        </ActionButton>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <ActionButton tone="plain" onClick={() => onCommand("back")} disabled={!canBack}>
          BACK
        </ActionButton>
        <ActionButton tone="plain" onClick={() => onCommand("next")} disabled={!canNext}>
          NEXT
        </ActionButton>
        <ActionButton tone="green" onClick={() => onCommand("submit")} className="ml-auto">
          SUBMIT
        </ActionButton>
      </div>
    </div>
  );
}
