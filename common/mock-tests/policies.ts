import type { AnswerKey } from "./question.ts";

/**
 * What the institute decided about a question's key after the test (applied to every attempt):
 * dropped (full marks to all), several options correct (marks to anyone who chose any of them),
 * or a changed key.
 */
export type KeyPolicy =
  { kind: "dropped" } | { kind: "any-of"; answers: number[] } | { kind: "changed"; answer: AnswerKey };

/**
 * How takers with the same score are ordered, in the order given; none by default (they share the
 * rank). "subject-order" puts the higher score in the paper's first subject ahead, then its second…;
 * `{subjectOrder: [...]}` names the subjects' order (NTA's JEE Main: Mathematics, Physics, Chemistry).
 */
export const TIE_BREAK_KINDS = [
  "fewer-wrong",
  "fewer-negative",
  "more-correct",
  "subject-order",
  "less-time",
  "earlier-submission",
] as const;
export type TieBreakKind = (typeof TIE_BREAK_KINDS)[number];
export type TieBreak = TieBreakKind | { subjectOrder: string[] };

/** What each tie-break means, in the words the builder and the refusals use. */
export const TIE_BREAK_LABELS: Record<TieBreakKind, string> = {
  "fewer-wrong": "fewer wrong answers",
  "fewer-negative": "fewer marks lost to negative marking",
  "more-correct": "more correct answers",
  "subject-order": "higher marks subject by subject, in the paper's order",
  "less-time": "less time taken",
  "earlier-submission": "earlier submission",
};
