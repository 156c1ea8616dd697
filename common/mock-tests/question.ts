import * as v from "valibot";
import { QUESTION_TYPES, type QuestionType } from "./marking.ts";

/**
 * A numerical question's key: an exact value, a set of values, a value with a tolerance, or a range
 * (both ends included).
 */
export type NumericalKey = number | number[] | { value: number; tolerance?: number } | { min: number; max: number };

/** Single: the right option's index; multiple: the right options' indices; numerical: see NumericalKey. */
export type AnswerKey = number | number[] | NumericalKey;

/** How a typed numerical answer is brought to the key's precision before it is compared. */
export interface DecimalRule {
  places: number;
  mode: "round" | "truncate";
}

export interface QuestionJson {
  type: QuestionType;
  /** Markdown with $…$ and $$…$$ LaTeX. */
  text: string;
  options?: string[];
  answer: AnswerKey;
  decimals?: DecimalRule;
  solution?: string;
  tags?: { subject?: string; chapter?: string; topic?: string; difficulty?: "easy" | "medium" | "hard" };
  hindi?: { text: string; options?: string[] };
}

export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 6;
export const MAX_DECIMAL_PLACES = 6;
const MAX_TEXT = 20_000;

const NUMERICAL_KEY =
  "A numerical answer must be a number, a list of numbers, {value, tolerance} or {min, max} with min ≤ max";

const finite = (message: string) => v.pipe(v.number(message), v.finite(message));

const NumericalKeySchema = v.union(
  [
    finite(""),
    v.pipe(v.array(finite("")), v.minLength(1)),
    v.strictObject({ value: finite(""), tolerance: v.optional(v.pipe(finite(""), v.minValue(0))) }),
    v.pipe(
      v.strictObject({ min: finite(""), max: finite("") }),
      v.check((range) => range.min <= range.max),
    ),
  ],
  NUMERICAL_KEY,
);

const optionIndex = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The answer key must fit the question's type and point at options that exist. */
function keyProblem(question: { type: QuestionType; options?: string[]; answer: unknown }): string | null {
  const count = question.options?.length ?? 0;
  const isIndex = (x: unknown) => v.is(optionIndex, x) && (x as number) < count;
  switch (question.type) {
    case "single":
      return isIndex(question.answer) ? null : "The answer must be the number of one of the options (0 for the first)";
    case "multiple": {
      const answer = question.answer;
      if (!Array.isArray(answer) || answer.length === 0 || !answer.every(isIndex))
        return "The answer must list one or more of the options by number (0 for the first)";
      return new Set(answer).size === answer.length ? null : "The answer lists an option twice";
    }
    case "numerical":
      return v.is(NumericalKeySchema, question.answer) ? null : NUMERICAL_KEY;
  }
}

const text = (label: string, max = MAX_TEXT) =>
  v.pipe(
    v.string(`${label} must be text`),
    v.trim(),
    v.nonEmpty(`${label} is required`),
    v.maxLength(max, `${label} can be at most ${max.toLocaleString("en-IN")} characters`),
  );

const options = v.pipe(
  v.array(text("Each option", 2_000), "Options must be a list of texts"),
  v.minLength(MIN_OPTIONS, `A question needs at least ${MIN_OPTIONS} options`),
  v.maxLength(MAX_OPTIONS, `A question can have at most ${MAX_OPTIONS} options`),
);

const tag = (label: string) =>
  v.optional(
    v.pipe(v.string(`${label} must be text`), v.trim(), v.maxLength(100, `${label} can be at most 100 characters`)),
  );

/** One question as the API and the import formats take it (issue 29's question JSON). */
export const QuestionSchema = v.pipe(
  v.object(
    {
      type: v.picklist(QUESTION_TYPES, 'Type must be "single", "multiple" or "numerical"'),
      text: text("Question text"),
      options: v.optional(options),
      answer: v.unknown(),
      decimals: v.optional(
        v.strictObject(
          {
            places: v.pipe(
              v.number("Decimal places must be a number"),
              v.integer("Decimal places must be a whole number"),
              v.minValue(0, "Decimal places cannot be negative"),
              v.maxValue(MAX_DECIMAL_PLACES, `Decimal places can be at most ${MAX_DECIMAL_PLACES}`),
            ),
            mode: v.picklist(["round", "truncate"], 'The decimal rule must be "round" or "truncate"'),
          },
          "The decimal rule must be {places, mode}",
        ),
      ),
      solution: v.optional(v.pipe(v.string("Solution must be text"), v.trim(), v.maxLength(MAX_TEXT))),
      tags: v.optional(
        v.object({
          subject: tag("Subject"),
          chapter: tag("Chapter"),
          topic: tag("Topic"),
          difficulty: v.optional(
            v.picklist(["easy", "medium", "hard"], 'Difficulty must be "easy", "medium" or "hard"'),
          ),
        }),
      ),
      hindi: v.optional(v.object({ text: text("Hindi text"), options: v.optional(options) })),
    },
    "A question must be an object",
  ),
  v.check(
    (q) => q.type === "numerical" || q.options !== undefined,
    "Single- and multiple-correct questions need options",
  ),
  v.check((q) => q.type !== "numerical" || q.options === undefined, "A numerical question has no options"),
  v.check(
    (q) => q.type === "numerical" || q.decimals === undefined,
    "The decimal rule applies to numerical questions only",
  ),
  v.rawCheck(({ dataset, addIssue }) => {
    // A question whose options do not fit its type is already named above; its key is not judged.
    if (!dataset.typed || (dataset.value.type === "numerical") !== (dataset.value.options === undefined)) return;
    const problem = keyProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
  v.check(
    (q) => !q.hindi?.options || q.hindi.options.length === q.options?.length,
    "The Hindi version must have as many options as the English one",
  ),
  v.transform((q) => q as typeof q & { answer: AnswerKey }),
);
