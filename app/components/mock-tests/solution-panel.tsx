import { useMemo } from "react";
import { LoaderCircle } from "lucide-react";
import type { AttemptQuestion, PracticeSolution } from "#common/mock-tests/attempt.ts";
import { renderMarkdown } from "#common/mock-tests/render.ts";
import { optionLetter, Rendered } from "./question-content";

export type SolutionState =
  { kind: "loading" } | { kind: "error"; message: string } | { kind: "shown"; solution: PracticeSolution };

/** The correct answer in words: "(B)", "(A), (C)", "4.5", "4.5 ± 0.1", "between 2 and 3", "2 or 3". */
export function describeCorrectAnswer(question: AttemptQuestion, answer: PracticeSolution["correctAnswer"]): string {
  if (answer === null) return "No answer key";
  if (question.type !== "numerical") {
    const indices = Array.isArray(answer) ? answer : typeof answer === "number" ? [answer] : [];
    return indices.map((i) => `(${optionLetter(i)})`).join(", ");
  }
  if (typeof answer === "number" || typeof answer === "string") return String(answer);
  if (Array.isArray(answer)) return answer.join(" or ");
  if ("min" in answer) return `between ${answer.min} and ${answer.max}`;
  return answer.tolerance ? `${answer.value} ± ${answer.tolerance}` : String(answer.value);
}

/** Practice mode: after a save, the correct answer and the solution (mock-tests.md §2, issue 29). */
export function SolutionPanel({ question, state }: { question: AttemptQuestion; state: SolutionState }) {
  const solutionHtml = useMemo(
    () => (state.kind === "shown" && state.solution.solution ? renderMarkdown(state.solution.solution) : null),
    [state],
  );
  return (
    <section
      aria-label="Solution"
      className="grid gap-2 rounded-lg border border-sky-200 bg-sky-50 p-4 dark:border-sky-900 dark:bg-sky-950/40"
    >
      {state.kind === "loading" && (
        <p className="flex items-center gap-2 text-sm" role="status">
          <LoaderCircle className="size-4 animate-spin" aria-hidden /> Checking your answer…
        </p>
      )}
      {state.kind === "error" && (
        <p className="text-sm text-red-700 dark:text-red-400" role="alert">
          {state.message}
        </p>
      )}
      {state.kind === "shown" && (
        <>
          <Verdict question={question} solution={state.solution} />
          <p className="text-sm">
            <span className="font-semibold">Correct answer:</span>{" "}
            {describeCorrectAnswer(question, state.solution.correctAnswer)}
          </p>
          {solutionHtml ? (
            <div>
              <h3 className="text-sm font-semibold">Solution</h3>
              <Rendered html={solutionHtml} className="leading-relaxed" />
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">No written solution for this question.</p>
          )}
        </>
      )}
    </section>
  );
}

export const VERDICTS = {
  correct: "Correct",
  partial: "Partly correct: you chose some of the correct options and no wrong one",
  incorrect: "Wrong",
  dropped: "Dropped: full marks to everyone",
} as const;

/** The student's answer judged: a wrong choice is said to be wrong, in words and not by colour alone. */
function Verdict({ question, solution }: { question: AttemptQuestion; solution: PracticeSolution }) {
  const outcome = solution.outcome;
  if (!outcome || !(outcome in VERDICTS)) return null;
  const verdict = VERDICTS[outcome as keyof typeof VERDICTS];
  const yours =
    solution.answer === null || solution.answer === undefined
      ? null
      : question.type === "numerical"
        ? String(solution.answer)
        : describeCorrectAnswer(question, solution.answer);
  const wrong = outcome === "incorrect";
  return (
    <p
      className={
        wrong
          ? "text-base font-semibold text-red-700 dark:text-red-400"
          : "text-base font-semibold text-green-800 dark:text-green-400"
      }
      data-verdict={outcome}
    >
      {verdict}
      {yours && `: your answer ${yours}${wrong ? " is not correct" : ""}.`}
    </p>
  );
}
