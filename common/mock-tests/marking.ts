import * as v from "valibot";

/**
 * How a question type is marked in a section (mock-tests.md §1: marking is data, not code).
 * Marks have at most two decimal places so that totals add up exactly (they are summed in
 * hundredths).
 */
export interface MarkingRule {
  /** Every correct option chosen and nothing else (single: the right option; numerical: a right value). */
  correct: number;
  /** Marks for a wrong answer: usually negative. */
  incorrect: number;
  /** Marks for no answer: usually 0. */
  unanswered: number;
  /**
   * Multiple-correct only: marks per correct option chosen when some, not all, of the correct options
   * are chosen and no wrong one (JEE Advanced: 1, so 3 of 4 gives +3, 2 of 3 or more gives +2, 1 of 2
   * or more gives +1). Without it such an answer is marked as incorrect.
   */
  partial?: number;
}

export const QUESTION_TYPES = ["single", "multiple", "numerical"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** A section's marking, per question type. */
export type SectionMarking = Partial<Record<QuestionType, MarkingRule>>;

const MAX_MARKS = 100;

const marks = (label: string) =>
  v.pipe(
    v.number(`${label} must be a number`),
    v.finite(`${label} must be a number`),
    v.check((x) => Math.abs(x) <= MAX_MARKS, `${label} must be between −${MAX_MARKS} and ${MAX_MARKS}`),
    v.check((x) => Math.abs(x * 100 - Math.round(x * 100)) < 1e-6, `${label} can have at most two decimal places`),
  );

export const MarkingRuleSchema = v.pipe(
  v.object(
    {
      correct: marks("Marks for a correct answer"),
      incorrect: marks("Marks for an incorrect answer"),
      unanswered: v.optional(marks("Marks for no answer"), 0),
      partial: v.optional(marks("Marks per correct option")),
    },
    "Marking must be an object with correct and incorrect marks",
  ),
  v.check((rule) => rule.correct > 0, "Marks for a correct answer must be more than 0"),
);

export const SectionMarkingSchema = v.object(
  {
    single: v.optional(MarkingRuleSchema),
    multiple: v.optional(MarkingRuleSchema),
    numerical: v.optional(
      v.pipe(
        MarkingRuleSchema,
        v.check((rule) => rule.partial === undefined, "Partial marks apply to multiple-correct questions only"),
      ),
    ),
  },
  "Marking must be an object",
);

/** +4 / −1 / 0: JEE Main (numerical answers too, since 2025) and NEET. */
export const NTA_MARKING: MarkingRule = { correct: 4, incorrect: -1, unanswered: 0 };

/** JEE Advanced's one-or-more-correct questions: +4 all, +1 per correct option chosen, −2 any wrong. */
export const JEE_ADVANCED_MULTIPLE: MarkingRule = { correct: 4, incorrect: -2, unanswered: 0, partial: 1 };
