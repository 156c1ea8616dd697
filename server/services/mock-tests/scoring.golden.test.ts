import { describe, expect, it } from "vitest";
import { JEE_ADVANCED_MULTIPLE, NTA_MARKING, type MarkingRule } from "#common/mock-tests/marking.ts";
import type { AnswerKey, DecimalRule } from "#common/mock-tests/question.ts";
import { PATTERNS, patternTotals } from "#common/mock-tests/patterns.ts";
import type { KeyPolicy } from "#common/mock-tests/policies.ts";
import { scoreAttempt, scoreQuestion, type Response, type ScorableSection } from "./scoring.ts";
import { standings, type ResolvedTieBreak, type Taker } from "./ranking.ts";

/**
 * The golden scoring suite: literal cases written from the exams' published marking rules
 * (mock-tests.md §1), not computed by the code under test. Options are letters, A = index 0.
 */

const index = (letter: string) => "ABCD".indexOf(letter);
const letters = (chosen: string) => [...chosen].map(index);

type Case = [
  description: string,
  key: AnswerKey,
  response: Response,
  expected: number,
  extra?: { policy?: KeyPolicy; decimals?: DecimalRule },
];

function run(rule: MarkingRule, type: "single" | "multiple" | "numerical", cases: Case[]) {
  it.each(cases)("%s", (_description, answer, response, expected, extra) => {
    expect(scoreQuestion({ id: "q", type, answer, ...extra }, response, rule).marks).toBe(expected);
  });
}

let goldenCases = 0;
const count = <T extends unknown[]>(cases: T[]) => ((goldenCases += cases.length), cases);

describe("JEE Main single-correct: +4 / −1 / 0", () => {
  run(
    NTA_MARKING,
    "single",
    count([
      ["the right option", 2, 2, 4],
      ["a wrong option (A)", 2, 0, -1],
      ["a wrong option (B)", 2, 1, -1],
      ["a wrong option (D)", 2, 3, -1],
      ["no answer", 2, null, 0],
      ["no answer (never saved)", 2, undefined, 0],
      ["dropped, answered wrongly: full marks", 2, 0, 4, { policy: { kind: "dropped" } }],
      ["dropped, unanswered: full marks", 2, null, 4, { policy: { kind: "dropped" } }],
      ["dropped, answered rightly: full marks once", 2, 2, 4, { policy: { kind: "dropped" } }],
      ["B and C both correct, chose B", 2, 1, 4, { policy: { kind: "any-of", answers: [1, 2] } }],
      ["B and C both correct, chose C", 2, 2, 4, { policy: { kind: "any-of", answers: [1, 2] } }],
      ["B and C both correct, chose D", 2, 3, -1, { policy: { kind: "any-of", answers: [1, 2] } }],
      ["B and C both correct, no answer", 2, null, 0, { policy: { kind: "any-of", answers: [1, 2] } }],
      ["key changed C → A, chose A", 2, 0, 4, { policy: { kind: "changed", answer: 0 } }],
      ["key changed C → A, chose C", 2, 2, -1, { policy: { kind: "changed", answer: 0 } }],
    ]),
  );
});

describe("JEE Main numerical value: +4 / −1 / 0 (negative marking since 2025)", () => {
  run(
    NTA_MARKING,
    "numerical",
    count([
      ["the value", 12, "12", 4],
      ["the value with a trailing .0", 12, "12.0", 4],
      ["the value with a leading zero", 12, "012", 4],
      ["the value with a plus sign", 12, "+12", 4],
      ["the value with spaces around", 12, " 12 ", 4],
      ["the value with a trailing point", 12, "12.", 4],
      ["the negative of the value", 12, "-12", -1],
      ["a nearby value", 12, "12.5", -1],
      ["another integer", 12, "13", -1],
      ["nothing typed", 12, "", 0],
      ["only spaces", 12, "   ", 0],
      ["not saved", 12, null, 0],
      ["exponent notation is not a keypad answer", 12, "1.2e1", -1],
      ["letters", 12, "abc", -1],
      ["two points", 12, "1.2.", -1],
      ["a lone minus", 12, "-", -1],
      ["a fraction with no leading digit", 0.5, ".5", 4],
      ["a negative value typed with the keypad's minus sign (U+2212)", -3, "\u22123", 4],
      ["a negative value typed with a hyphen", -3, "-3", 4],
      ["minus zero is zero", 0, "-0", 4],
      ["zero", 0, "0", 4],
      ["dropped, typed wrongly", 7, "8", 4, { policy: { kind: "dropped" } }],
      ["key changed 7 → 8, typed 8", 7, "8", 4, { policy: { kind: "changed", answer: 8 } }],
      ["key changed 7 → 8, typed 7", 7, "7", -1, { policy: { kind: "changed", answer: 8 } }],
    ]),
  );
});

describe("NEET single-correct: +4 / −1 / 0", () => {
  run(
    NTA_MARKING,
    "single",
    count([
      ["the right option", 0, 0, 4],
      ["a wrong option", 0, 3, -1],
      ["no answer", 0, null, 0],
      ["dropped", 0, 3, 4, { policy: { kind: "dropped" } }],
      ["A and D both correct, chose D", 0, 3, 4, { policy: { kind: "any-of", answers: [0, 3] } }],
    ]),
  );
});

/** Every choice of options against seven keys, by the official rule's words (JEE Advanced 2024). */
const JEE_ADVANCED_MULTIPLE_CASES: [key: string, chosen: string, marks: number][] = [
  ["A", "", 0],
  ["A", "A", 4],
  ["A", "B", -2],
  ["A", "C", -2],
  ["A", "D", -2],
  ["A", "AB", -2],
  ["A", "AC", -2],
  ["A", "AD", -2],
  ["A", "BC", -2],
  ["A", "BD", -2],
  ["A", "CD", -2],
  ["A", "ABC", -2],
  ["A", "ABD", -2],
  ["A", "ACD", -2],
  ["A", "BCD", -2],
  ["A", "ABCD", -2],
  ["C", "", 0],
  ["C", "A", -2],
  ["C", "B", -2],
  ["C", "C", 4],
  ["C", "D", -2],
  ["C", "AB", -2],
  ["C", "AC", -2],
  ["C", "AD", -2],
  ["C", "BC", -2],
  ["C", "BD", -2],
  ["C", "CD", -2],
  ["C", "ABC", -2],
  ["C", "ABD", -2],
  ["C", "ACD", -2],
  ["C", "BCD", -2],
  ["C", "ABCD", -2],
  ["AB", "", 0],
  ["AB", "A", 1],
  ["AB", "B", 1],
  ["AB", "C", -2],
  ["AB", "D", -2],
  ["AB", "AB", 4],
  ["AB", "AC", -2],
  ["AB", "AD", -2],
  ["AB", "BC", -2],
  ["AB", "BD", -2],
  ["AB", "CD", -2],
  ["AB", "ABC", -2],
  ["AB", "ABD", -2],
  ["AB", "ACD", -2],
  ["AB", "BCD", -2],
  ["AB", "ABCD", -2],
  ["BD", "", 0],
  ["BD", "A", -2],
  ["BD", "B", 1],
  ["BD", "C", -2],
  ["BD", "D", 1],
  ["BD", "AB", -2],
  ["BD", "AC", -2],
  ["BD", "AD", -2],
  ["BD", "BC", -2],
  ["BD", "BD", 4],
  ["BD", "CD", -2],
  ["BD", "ABC", -2],
  ["BD", "ABD", -2],
  ["BD", "ACD", -2],
  ["BD", "BCD", -2],
  ["BD", "ABCD", -2],
  ["ABC", "", 0],
  ["ABC", "A", 1],
  ["ABC", "B", 1],
  ["ABC", "C", 1],
  ["ABC", "D", -2],
  ["ABC", "AB", 2],
  ["ABC", "AC", 2],
  ["ABC", "AD", -2],
  ["ABC", "BC", 2],
  ["ABC", "BD", -2],
  ["ABC", "CD", -2],
  ["ABC", "ABC", 4],
  ["ABC", "ABD", -2],
  ["ABC", "ACD", -2],
  ["ABC", "BCD", -2],
  ["ABC", "ABCD", -2],
  ["ACD", "", 0],
  ["ACD", "A", 1],
  ["ACD", "B", -2],
  ["ACD", "C", 1],
  ["ACD", "D", 1],
  ["ACD", "AB", -2],
  ["ACD", "AC", 2],
  ["ACD", "AD", 2],
  ["ACD", "BC", -2],
  ["ACD", "BD", -2],
  ["ACD", "CD", 2],
  ["ACD", "ABC", -2],
  ["ACD", "ABD", -2],
  ["ACD", "ACD", 4],
  ["ACD", "BCD", -2],
  ["ACD", "ABCD", -2],
  ["ABCD", "", 0],
  ["ABCD", "A", 1],
  ["ABCD", "B", 1],
  ["ABCD", "C", 1],
  ["ABCD", "D", 1],
  ["ABCD", "AB", 2],
  ["ABCD", "AC", 2],
  ["ABCD", "AD", 2],
  ["ABCD", "BC", 2],
  ["ABCD", "BD", 2],
  ["ABCD", "CD", 2],
  ["ABCD", "ABC", 3],
  ["ABCD", "ABD", 3],
  ["ABCD", "ACD", 3],
  ["ABCD", "BCD", 3],
  ["ABCD", "ABCD", 4],
];

describe("JEE Advanced one-or-more-correct: +4 all, +3/+2/+1 partial, 0 unanswered, −2 otherwise", () => {
  count(JEE_ADVANCED_MULTIPLE_CASES);
  it.each(JEE_ADVANCED_MULTIPLE_CASES)("key %s, chose %s: %d", (key, chosen, expected) => {
    const question = { id: "q", type: "multiple" as const, answer: letters(key) };
    expect(scoreQuestion(question, letters(chosen), JEE_ADVANCED_MULTIPLE).marks).toBe(expected);
  });

  run(
    JEE_ADVANCED_MULTIPLE,
    "multiple",
    count([
      ["options chosen in another order", [0, 1, 2], [2, 0, 1], 4],
      ["dropped, chose a wrong option", [0, 1], [3], 4, { policy: { kind: "dropped" } }],
      ["key changed AB → ABC, chose AB", [0, 1], [0, 1], 2, { policy: { kind: "changed", answer: [0, 1, 2] } }],
      ["key changed AB → B, chose AB", [0, 1], [0, 1], -2, { policy: { kind: "changed", answer: [1] } }],
    ]),
  );
});

const NUMERICAL_4: MarkingRule = { correct: 4, incorrect: 0, unanswered: 0 };

describe("JEE Advanced numerical value: +4 / 0 / 0", () => {
  run(
    NUMERICAL_4,
    "numerical",
    count([
      ["range 2.25–2.35: inside", { min: 2.25, max: 2.35 }, "2.30", 4],
      ["range 2.25–2.35: the lower end", { min: 2.25, max: 2.35 }, "2.25", 4],
      ["range 2.25–2.35: the upper end", { min: 2.25, max: 2.35 }, "2.35", 4],
      ["range 2.25–2.35: just above", { min: 2.25, max: 2.35 }, "2.36", 0],
      ["range 2.25–2.35: below", { min: 2.25, max: 2.35 }, "2.2", 0],
      ["range 2.25–2.35: nothing typed", { min: 2.25, max: 2.35 }, "", 0],
      ["range 0.1–0.3: 0.3 despite binary fractions", { min: 0.1, max: 0.3 }, "0.3", 4],
      ["exact 0.3: 0.30", 0.3, "0.30", 4],
      ["tolerance 9.8 ± 0.05: 9.75", { value: 9.8, tolerance: 0.05 }, "9.75", 4],
      ["tolerance 9.8 ± 0.05: 9.85", { value: 9.8, tolerance: 0.05 }, "9.85", 4],
      ["tolerance 9.8 ± 0.05: 9.86", { value: 9.8, tolerance: 0.05 }, "9.86", 0],
      ["tolerance 9.8 ± 0.05: 9.8", { value: 9.8, tolerance: 0.05 }, "9.8", 4],
      ["tolerance 9.8 ± 0.05: 9.7", { value: 9.8, tolerance: 0.05 }, "9.7", 0],
      ["no tolerance given: exact", { value: 9.8 }, "9.80", 4],
      ["no tolerance given: near", { value: 9.8 }, "9.81", 0],
      ["set {2, 3}: 2", [2, 3], "2", 4],
      ["set {2, 3}: 3", [2, 3], "3.0", 4],
      ["set {2, 3}: 2.5", [2, 3], "2.5", 0],
      ["set {−1, 1}: −1", [-1, 1], "-1", 4],
    ]),
  );

  const round2 = { decimals: { places: 2, mode: "round" } as DecimalRule };
  const truncate2 = { decimals: { places: 2, mode: "truncate" } as DecimalRule };
  const round0 = { decimals: { places: 0, mode: "round" } as DecimalRule };
  const round1 = { decimals: { places: 1, mode: "round" } as DecimalRule };
  run(
    NUMERICAL_4,
    "numerical",
    count([
      ["rounded to 2 places: 1.414 → 1.41", 1.41, "1.414", 4, round2],
      ["rounded to 2 places: 1.4142 → 1.41", 1.41, "1.4142", 4, round2],
      ["rounded to 2 places: 1.415 → 1.42", 1.41, "1.415", 0, round2],
      ["rounded to 2 places: 1.405 → 1.41", 1.41, "1.405", 4, round2],
      ["rounded to 2 places: 1.4049 → 1.40", 1.41, "1.4049", 0, round2],
      ["rounded to 2 places: 1.41 itself", 1.41, "1.41", 4, round2],
      ["rounded to 2 places: 1.4 → 1.40", 1.4, "1.4", 4, round2],
      ["rounded to 2 places: 2.675 → 2.68 (not 2.67 as binary floats give)", 2.68, "2.675", 4, round2],
      ["rounded to 2 places: −1.415 → −1.42 (half away from zero)", -1.42, "-1.415", 4, round2],
      ["truncated to 2 places: 1.419 → 1.41", 1.41, "1.419", 4, truncate2],
      ["truncated to 2 places: 1.4199 → 1.41", 1.41, "1.4199", 4, truncate2],
      ["truncated to 2 places: 1.42", 1.41, "1.42", 0, truncate2],
      ["truncated to 2 places: 1.409 → 1.40", 1.41, "1.409", 0, truncate2],
      ["truncated to 2 places: −1.419 → −1.41", -1.41, "-1.419", 4, truncate2],
      ["rounded to a whole number: 2.5 → 3", 3, "2.5", 4, round0],
      ["rounded to a whole number: 3.49 → 3", 3, "3.49", 4, round0],
      ["rounded to a whole number: 3.5 → 4", 3, "3.5", 0, round0],
      ["rounded to a whole number: −2.5 → −3", -3, "-2.5", 4, round0],
      ["rounded to 1 place: 2.675 → 2.7", 2.7, "2.675", 4, round1],
      ["rounded to 1 place: 2.649 → 2.6", 2.7, "2.649", 0, round1],
      ["rounded to 2 places, range 0.33–0.34: 0.3333 → 0.33", { min: 0.33, max: 0.34 }, "0.3333", 4, round2],
      ["rounded to 2 places, range 0.33–0.34: 0.3449 → 0.34", { min: 0.33, max: 0.34 }, "0.3449", 4, round2],
      ["rounded to 2 places, range 0.33–0.34: 0.345 → 0.35", { min: 0.33, max: 0.34 }, "0.345", 0, round2],
    ]),
  );
});

describe("custom multiple-correct without partial marks: +4 / −2 / 0", () => {
  const rule: MarkingRule = { correct: 4, incorrect: -2, unanswered: 0 };
  run(
    rule,
    "multiple",
    count([
      ["key AB, chose A: incorrect without partial marks", [0, 1], [0], -2],
      ["key AB, chose AB", [0, 1], [0, 1], 4],
      ["key AB, chose ABC", [0, 1], [0, 1, 2], -2],
      ["key AB, chose nothing", [0, 1], [], 0],
    ]),
  );
});

describe("custom marks with fractions: +1 / −0.25 / 0", () => {
  const rule: MarkingRule = { correct: 1, incorrect: -0.25, unanswered: 0 };
  run(
    rule,
    "single",
    count([
      ["right", 1, 1, 1],
      ["wrong", 1, 0, -0.25],
      ["blank", 1, null, 0],
    ]),
  );
});

describe("custom marks for leaving a question: +2 / −0.5 / −0.25", () => {
  const rule: MarkingRule = { correct: 2, incorrect: -0.5, unanswered: -0.25 };
  run(
    rule,
    "single",
    count([
      ["blank costs a quarter", 0, null, -0.25],
      ["wrong costs a half", 0, 1, -0.5],
    ]),
  );
});

/** A JEE Main paper's section built from ids q1…qN with keys given per question. */
function section(
  name: string,
  marking: ScorableSection["marking"],
  questions: ScorableSection["questions"],
  attemptAny?: number,
): ScorableSection {
  return { name, marking, questions, attemptAny };
}

const singles = (prefix: string, keys: number[]) =>
  keys.map((answer, i) => ({ id: `${prefix}${i + 1}`, type: "single" as const, answer }));
const numericals = (prefix: string, keys: number[]) =>
  keys.map((answer, i) => ({ id: `${prefix}${i + 1}`, type: "numerical" as const, answer }));

describe("whole attempts", () => {
  const attemptCases: [string, () => void][] = [
    [
      "a JEE Main paper answered wholly wrong scores −75: totals may be negative",
      () => {
        const sections = ["P", "C", "M"].flatMap((s) => [
          section(`${s} A`, { single: NTA_MARKING }, singles(`${s}a`, Array(20).fill(0))),
          section(`${s} B`, { numerical: NTA_MARKING }, numericals(`${s}b`, Array(5).fill(1))),
        ]);
        const responses = new Map<string, Response>(
          sections.flatMap((s) => s.questions.map((q) => [q.id, q.type === "single" ? 1 : "2"] as const)),
        );
        const result = scoreAttempt(sections, responses);
        expect(result).toMatchObject({
          score: -75,
          maxScore: 300,
          correct: 0,
          incorrect: 75,
          unattempted: 0,
          negative: 75,
          accuracy: 0,
        });
      },
    ],
    [
      "a JEE Main paper: 50 right, 10 wrong, 15 blank → 190 of 300, accuracy 50/60",
      () => {
        const sections = ["P", "C", "M"].flatMap((s) => [
          section(`${s} A`, { single: NTA_MARKING }, singles(`${s}a`, Array(20).fill(2))),
          section(`${s} B`, { numerical: NTA_MARKING }, numericals(`${s}b`, Array(5).fill(7))),
        ]);
        const responses = new Map<string, Response>();
        const all = sections.flatMap((s) => s.questions);
        all.slice(0, 50).forEach((q) => responses.set(q.id, q.type === "single" ? 2 : "7"));
        all.slice(50, 60).forEach((q) => responses.set(q.id, q.type === "single" ? 0 : "8"));
        const result = scoreAttempt(sections, responses);
        expect(result).toMatchObject({
          score: 190,
          maxScore: 300,
          correct: 50,
          incorrect: 10,
          unattempted: 15,
          negative: 10,
        });
        expect(result.accuracy).toBeCloseTo(50 / 60, 12);
        expect(result.sections.map((s) => [s.name, s.score])).toEqual([
          ["P A", 80],
          ["P B", 20],
          ["C A", 80],
          ["C B", 20],
          ["M A", -10],
          ["M B", 0],
        ]);
      },
    ],
    [
      "attempt any 5 of 10: only the first five answered, in paper order, count",
      () => {
        const s = section("B", { numerical: NTA_MARKING }, numericals("b", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 5);
        // q1, q2 right; q4 wrong; q6, q7 right; q9 right (the sixth answered: not evaluated); q10 wrong (seventh).
        const responses = new Map<string, Response>([
          ["b1", "1"],
          ["b2", "2"],
          ["b4", "0"],
          ["b6", "6"],
          ["b7", "7"],
          ["b9", "9"],
          ["b10", "0"],
        ]);
        const result = scoreAttempt([s], responses);
        expect(result).toMatchObject({ score: 15, maxScore: 20, correct: 4, incorrect: 1, unattempted: 5 });
        expect(result.questions.find((q) => q.id === "b9")).toEqual({ id: "b9", marks: 0, outcome: "not-evaluated" });
      },
    ],
    [
      "attempt any 5 of 10 with four answered: all four count, blanks score their rule",
      () => {
        const s = section("B", { numerical: NTA_MARKING }, numericals("b", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 5);
        const responses = new Map<string, Response>([
          ["b3", "3"],
          ["b5", "0"],
          ["b8", "8"],
          ["b10", "10"],
        ]);
        expect(scoreAttempt([s], responses)).toMatchObject({ score: 11, maxScore: 20, correct: 3, incorrect: 1 });
      },
    ],
    [
      "tenths add up exactly: three right at 0.1 each is 0.3",
      () => {
        const s = section("Quiz", { single: { correct: 0.1, incorrect: 0, unanswered: 0 } }, singles("q", [0, 0, 0]));
        const result = scoreAttempt(
          [s],
          new Map([
            ["q1", 0],
            ["q2", 0],
            ["q3", 0],
          ]),
        );
        expect(result.score).toBe(0.3);
        expect(result.maxScore).toBe(0.3);
      },
    ],
    [
      "JEE Advanced partial marks count as neither right nor wrong, and lost marks add up",
      () => {
        const s = section("Physics Section 2", { multiple: JEE_ADVANCED_MULTIPLE }, [
          { id: "m1", type: "multiple", answer: [0, 1, 2, 3] },
          { id: "m2", type: "multiple", answer: [0, 2] },
          { id: "m3", type: "multiple", answer: [1] },
        ]);
        const result = scoreAttempt(
          [s],
          new Map([
            ["m1", [0, 1, 2]],
            ["m2", [0, 3]],
            ["m3", [1]],
          ]),
        );
        expect(result).toMatchObject({ score: 5, maxScore: 12, correct: 1, partial: 1, incorrect: 1, negative: 2 });
      },
    ],
    [
      "a dropped question gives full marks to a student who left it",
      () => {
        const s = section("A", { single: NTA_MARKING }, [
          { id: "d", type: "single", answer: 1, policy: { kind: "dropped" } },
          { id: "k", type: "single", answer: 1 },
        ]);
        expect(scoreAttempt([s], new Map())).toMatchObject({ score: 4, maxScore: 8 });
      },
    ],
    [
      "the shipped patterns' totals: JEE Main 75 questions and 300 marks, NEET 180 and 720, JEE Advanced 51 and 180",
      () => {
        expect(patternTotals(PATTERNS["jee-main-2025"])).toEqual({ questions: 75, marks: 300 });
        expect(patternTotals(PATTERNS["neet-2025"])).toEqual({ questions: 180, marks: 720 });
        expect(patternTotals(PATTERNS["jee-advanced"])).toEqual({ questions: 51, marks: 180 });
        expect(PATTERNS["neet-2025"].mode).toBe("omr");
      },
    ],
  ];
  count(attemptCases);
  it.each(attemptCases)("%s", (_name, check) => check());
});

describe("rank (1, 2, 2, 4) and NTA percentile among the takers", () => {
  const rankCases: [string, Taker[], Record<string, [number, number]>, ResolvedTieBreak[]?][] = [
    ["one taker", [{ id: "a", score: 10 }], { a: [1, 100] }],
    [
      "two ties share rank 2; the next is 4",
      [
        { id: "a", score: 300 },
        { id: "b", score: 250 },
        { id: "c", score: 250 },
        { id: "d", score: 100 },
      ],
      { a: [1, 100], b: [2, 75], c: [2, 75], d: [4, 25] },
    ],
    [
      "everyone tied",
      [
        { id: "a", score: 5 },
        { id: "b", score: 5 },
        { id: "c", score: 5 },
      ],
      { a: [1, 100], b: [1, 100], c: [1, 100] },
    ],
    [
      "negative scores rank below zero",
      [
        { id: "a", score: 0 },
        { id: "b", score: -3 },
        { id: "c", score: -1.5 },
      ],
      { a: [1, 100], b: [3, 100 / 3], c: [2, 200 / 3] },
    ],
    [
      "three takers: percentiles to seven decimals",
      [
        { id: "a", score: 1 },
        { id: "b", score: 2 },
        { id: "c", score: 3 },
      ],
      { a: [3, 33.3333333], b: [2, 66.6666667], c: [1, 100] },
    ],
    [
      "fractional scores that are equal in hundredths tie",
      [
        { id: "a", score: 0.1 + 0.2 },
        { id: "b", score: 0.3 },
      ],
      { a: [1, 100], b: [1, 100] },
    ],
    [
      "the last of seven",
      [1, 2, 3, 4, 5, 6, 7].map((s) => ({ id: `t${s}`, score: s })),
      { t1: [7, 14.2857143], t4: [4, 57.1428571], t7: [1, 100] },
    ],
    [
      "tie-break by fewer negative marks: ranks differ, percentiles do not",
      [
        { id: "a", score: 100, negative: 8 },
        { id: "b", score: 100, negative: 2 },
        { id: "c", score: 90 },
      ],
      { b: [1, 100], a: [2, 100], c: [3, 100 / 3] },
      ["fewer-negative"],
    ],
    [
      "tie-break by more correct, then earlier submission",
      [
        { id: "a", score: 50, correct: 14, submittedAt: 2 },
        { id: "b", score: 50, correct: 14, submittedAt: 1 },
        { id: "c", score: 50, correct: 15, submittedAt: 3 },
      ],
      { c: [1, 100], b: [2, 100], a: [3, 100] },
      ["more-correct", "earlier-submission"],
    ],
    [
      "tie-break by fewer wrong answers, then subject by subject (Mathematics first)",
      [
        { id: "a", score: 4, incorrect: 4, subjects: { Physics: 7, Mathematics: -3 } },
        { id: "b", score: 4, incorrect: 0, subjects: { Physics: 0, Mathematics: 4 } },
        { id: "c", score: 4, incorrect: 0, subjects: { Physics: 4, Mathematics: 0 } },
      ],
      { b: [1, 100], c: [2, 100], a: [3, 100] },
      ["fewer-wrong", { subjectOrder: ["Mathematics", "Physics"] }],
    ],
    [
      "tie-break by less time taken",
      [
        { id: "a", score: 10, seconds: 600 },
        { id: "b", score: 10, seconds: 300 },
        { id: "c", score: 10 },
      ],
      { b: [1, 100], a: [2, 100], c: [3, 100] },
      ["less-time"],
    ],
    [
      "a tie-break that cannot separate leaves the tie",
      [
        { id: "a", score: 50, negative: 1 },
        { id: "b", score: 50, negative: 1 },
        { id: "c", score: 40 },
      ],
      { a: [1, 100], b: [1, 100], c: [3, 100 / 3] },
      ["fewer-negative"],
    ],
  ];
  count(rankCases);
  it.each(rankCases)("%s", (_name, takers, expected, tieBreaks) => {
    const result = standings(takers, tieBreaks);
    for (const [id, [rank, percentile]] of Object.entries(expected)) {
      expect(result.get(id)?.rank, `rank of ${id}`).toBe(rank);
      expect(result.get(id)?.percentile, `percentile of ${id}`).toBeCloseTo(percentile, 6);
      expect(result.get(id)?.takers).toBe(takers.length);
    }
  });
});

it("the golden suite holds at least 200 cases", () => {
  expect(goldenCases).toBeGreaterThanOrEqual(200);
});
