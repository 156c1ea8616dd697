import { describe, expect, it } from "vitest";
import { parseInput } from "../validation/storable.ts";
import { MarkingRuleSchema, SectionMarkingSchema } from "./marking.ts";
import { QuestionSchema } from "./question.ts";

const single = {
  type: "single",
  text: "What is $g$ near the Earth's surface?",
  options: ["9.8 m/s²", "8.9 m/s²"],
  answer: 0,
};
const messages = (input: unknown) => {
  const result = parseInput(QuestionSchema, input);
  return result.success ? [] : result.issues.map((issue) => issue.message);
};

describe("QuestionSchema", () => {
  it("takes the three types as the API documents them", () => {
    expect(messages(single)).toEqual([]);
    expect(messages({ ...single, type: "multiple", options: ["a", "b", "c"], answer: [0, 2] })).toEqual([]);
    expect(messages({ type: "numerical", text: "x?", answer: 12 })).toEqual([]);
    expect(messages({ type: "numerical", text: "x?", answer: [2, 3] })).toEqual([]);
    expect(messages({ type: "numerical", text: "x?", answer: { value: 9.8, tolerance: 0.05 } })).toEqual([]);
    expect(
      messages({
        type: "numerical",
        text: "x?",
        answer: { min: 2.25, max: 2.35 },
        decimals: { places: 2, mode: "round" },
      }),
    ).toEqual([]);
    expect(
      messages({
        ...single,
        tags: { subject: "Physics", chapter: "Gravitation", difficulty: "easy" },
        hindi: { text: "g का मान?", options: ["9.8", "8.9"] },
      }),
    ).toEqual([]);
  });

  it("refuses keys that do not fit, with a message for each", () => {
    expect(messages({ ...single, answer: 2 })).toEqual([
      "The answer must be the number of one of the options (0 for the first)",
    ]);
    expect(messages({ ...single, answer: "A" })).toEqual([
      "The answer must be the number of one of the options (0 for the first)",
    ]);
    expect(messages({ ...single, type: "multiple", answer: [] })).toEqual([
      "The answer must list one or more of the options by number (0 for the first)",
    ]);
    expect(messages({ ...single, type: "multiple", answer: [1, 1] })).toEqual(["The answer lists an option twice"]);
    expect(messages({ type: "numerical", text: "x?", answer: { min: 3, max: 2 } })).toEqual([
      "A numerical answer must be a number, a list of numbers, {value, tolerance} or {min, max} with min ≤ max",
    ]);
    expect(messages({ type: "numerical", text: "x?", answer: 1, options: ["a", "b"] })).toEqual([
      "A numerical question has no options",
    ]);
    expect(messages({ ...single, options: undefined })).toEqual([
      "Single- and multiple-correct questions need options",
    ]);
    expect(messages({ ...single, decimals: { places: 2, mode: "round" } })).toEqual([
      "The decimal rule applies to numerical questions only",
    ]);
    expect(messages({ ...single, options: ["only one"] })).toEqual(["A question needs at least 2 options"]);
    expect(messages({ ...single, text: "  " })).toEqual(["Question text is required"]);
    expect(messages({ ...single, hindi: { text: "प्रश्न", options: ["एक"] } })[0]).toBe(
      "A question needs at least 2 options",
    );
    expect(messages({ ...single, hindi: { text: "प्रश्न", options: ["एक", "दो", "तीन"] } })).toEqual([
      "The Hindi version must have as many options as the English one",
    ]);
    expect(messages({ ...single, text: "a\u0000b" })).toEqual(["text contains characters that cannot be stored."]);
  });
});

describe("marking", () => {
  it("takes the patterns' schemes and refuses nonsense", () => {
    expect(parseInput(SectionMarkingSchema, { multiple: { correct: 4, incorrect: -2, partial: 1 } })).toMatchObject({
      success: true,
      output: { multiple: { correct: 4, incorrect: -2, unanswered: 0, partial: 1 } },
    });
    const problems = (input: unknown) => {
      const result = parseInput(MarkingRuleSchema, input);
      return result.success ? [] : result.issues.map((issue) => issue.message);
    };
    expect(problems({ correct: 0, incorrect: 0 })).toEqual(["Marks for a correct answer must be more than 0"]);
    expect(problems({ correct: 4, incorrect: "-1" })).toEqual(["Marks for an incorrect answer must be a number"]);
    expect(problems({ correct: 4.125, incorrect: -1 })).toEqual([
      "Marks for a correct answer can have at most two decimal places",
    ]);
    expect(parseInput(SectionMarkingSchema, { numerical: { correct: 4, incorrect: 0, partial: 1 } })).toMatchObject({
      success: false,
      issues: [{ message: "Partial marks apply to multiple-correct questions only" }],
    });
  });
});
