import { Check } from "lucide-react";
import type { QuestionState } from "#common/mock-tests/exam-state.ts";
import { cn } from "~/lib/cn";

/**
 * The NTA palette's five shapes (mock-tests.md §2.3): Not Visited a grey square, Not Answered red
 * with its lower corners cut, Answered green with its upper corners cut, Marked for Review a violet
 * circle, Answered & Marked for Review the violet circle with a green tick. The shape carries the
 * state as well as the colour does, for students who do not tell red from green.
 */
const SHAPES: Record<QuestionState, string> = {
  "not-visited": "rounded-sm border border-slate-400 bg-slate-100 text-slate-900",
  "not-answered": "bg-red-600 text-white [clip-path:polygon(0_0,100%_0,100%_72%,78%_100%,22%_100%,0_72%)]",
  answered: "bg-green-700 text-white [clip-path:polygon(22%_0,78%_0,100%_28%,100%_100%,0_100%,0_28%)]",
  marked: "rounded-full bg-violet-700 text-white",
  "answered-marked": "rounded-full bg-violet-700 text-white",
};

export function StateShape({
  state,
  children,
  className,
}: {
  state: QuestionState;
  children?: React.ReactNode;
  className?: string;
}) {
  return (
    <span className={cn("relative inline-flex shrink-0", className)} data-state={state}>
      <span
        className={cn(
          "inline-flex size-full items-center justify-center text-sm font-semibold tabular-nums",
          SHAPES[state],
        )}
      >
        {children}
      </span>
      {state === "answered-marked" && (
        <span className="absolute -bottom-0.5 -right-0.5 flex size-4 items-center justify-center rounded-full bg-green-600 text-white ring-2 ring-white">
          <Check className="size-3" strokeWidth={3} aria-hidden />
        </span>
      )}
    </span>
  );
}
