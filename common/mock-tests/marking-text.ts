import type { MarkingRule, QuestionType } from "./marking.ts";

/**
 * A section's marking written out in words, for the paper-specific instructions (mock-tests.md §2:
 * "marking written out in full") and anywhere else a student reads the rules.
 */

export const QUESTION_TYPE_NAMES: Record<QuestionType, string> = {
  single: "Single correct option",
  multiple: "One or more correct options",
  numerical: "Numerical value",
};

/** Marks as a student reads them: +4, −1 (a real minus sign), 0, +0.5. */
export function formatMarks(marks: number): string {
  if (marks === 0) return "0";
  const size = Number(Math.abs(marks).toFixed(2)).toString();
  return marks > 0 ? `+${size}` : `−${size}`;
}

/** One sentence per rule, e.g. "+4 for a correct answer, −1 for an incorrect answer, 0 if not answered." */
export function describeMarking(type: QuestionType, rule: MarkingRule): string {
  const unanswered = `${formatMarks(rule.unanswered)} if not answered`;
  if (type === "multiple") {
    const parts = [`${formatMarks(rule.correct)} if all the correct options and no wrong option are chosen`];
    if (rule.partial !== undefined)
      parts.push(
        `${formatMarks(rule.partial)} for each correct option chosen when only some of the correct options and no wrong option are chosen`,
      );
    parts.push(`${formatMarks(rule.incorrect)} if any wrong option is chosen`, unanswered);
    return `${parts.join("; ")}.`;
  }
  const correct = type === "numerical" ? "the correct value" : "the correct option";
  return `${formatMarks(rule.correct)} for ${correct}, ${formatMarks(rule.incorrect)} for an incorrect answer, ${unanswered}.`;
}
