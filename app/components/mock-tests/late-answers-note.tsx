import { CloudOff } from "lucide-react";
import { lateAnswersSummary, type LateDecision } from "#common/mock-tests/late-answers.ts";
import { cn } from "~/lib/cn";

export interface LateAnswerNoteItem {
  _id: string;
  questionNumber: number;
  decision: LateDecision;
  /** The server's sentence: when it was made, when it arrived, what was decided and why. */
  text: string;
}

const TAG: Record<LateDecision, { label: string; tone: string }> = {
  counted: { label: "Counted", tone: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-100" },
  held: { label: "Under review", tone: "bg-amber-100 text-amber-950 dark:bg-amber-900 dark:text-amber-100" },
  "not-counted": { label: "Not counted", tone: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100" },
  refused: { label: "Not counted", tone: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100" },
};

/**
 * Answers that reached the server after the deadline (issue 38 §2): each one, whether it counted,
 * and why, so that nothing made offline is dropped without a word. Shown on the result and on the
 * submit confirmation.
 */
export function LateAnswersNote({ lateAnswers, className }: { lateAnswers: LateAnswerNoteItem[]; className?: string }) {
  if (!lateAnswers.length) return null;
  return (
    <section
      aria-labelledby="late-answers-title"
      className={cn(
        "grid gap-2 rounded-xl border border-amber-300 bg-amber-50 p-4 text-left text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100",
        className,
      )}
    >
      <h2 id="late-answers-title" className="flex items-center gap-2 font-semibold">
        <CloudOff className="size-4 shrink-0" aria-hidden /> Answers made offline
      </h2>
      <p>{lateAnswersSummary(lateAnswers)}</p>
      <ul className="grid gap-1.5">
        {lateAnswers.map((late) => (
          <li
            key={late._id}
            aria-label={`Question ${late.questionNumber}`}
            className="flex flex-wrap items-baseline gap-x-2"
          >
            <span className="font-medium">Question {late.questionNumber}</span>
            <span className={cn("rounded px-1.5 py-0.5 text-xs font-medium", TAG[late.decision].tone)}>
              {TAG[late.decision].label}
            </span>
            <span>{late.text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
