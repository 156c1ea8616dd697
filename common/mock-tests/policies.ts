import type { AnswerKey } from "./question.ts";

/**
 * What the institute decided about a question's key after the test (applied to every attempt):
 * dropped (full marks to all), several options correct (marks to anyone who chose any of them),
 * or a changed key.
 */
export type KeyPolicy =
  { kind: "dropped" } | { kind: "any-of"; answers: number[] } | { kind: "changed"; answer: AnswerKey };

/** How takers with the same score are ordered; none by default (they share the rank). */
export type TieBreak = "fewer-negative" | "more-correct" | "earlier-submission";
