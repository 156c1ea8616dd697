import type { MarkingRule, QuestionType, SectionMarking } from "#common/mock-tests/marking.ts";
import type { KeyPolicy } from "#common/mock-tests/policies.ts";
import type { AnswerKey, DecimalRule, NumericalKey } from "#common/mock-tests/question.ts";
import type { AttemptScore, Outcome, QuestionScore, SectionScore } from "#common/mock-tests/score.ts";

/**
 * Scoring (mock-tests.md §1 and §4): a pure function of the questions, their keys as they stand now,
 * the section's marking and the saved answers, so that a key change re-scores every attempt by
 * running it again. Marks are summed in hundredths so totals are exact; a total may be negative.
 */

/** A saved answer: an option index (single), option indices (multiple), typed text (numerical), or none. */
export type Response = number | number[] | string | null | undefined;

export interface ScorableQuestion {
  id: string;
  type: QuestionType;
  answer: AnswerKey;
  decimals?: DecimalRule;
  policy?: KeyPolicy;
}

/** The number a typed numerical answer stands for, or null when it is not one ("", "1.2.3", "abc"). */
export function readTypedNumber(typed: string): string | null {
  const normal = typed.trim().replace(/^[\u2212\u2013]/, "-");
  return /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(normal) ? normal.replace(/^\+/, "") : null;
}

/** A decimal string brought to `places` decimals by rounding half away from zero or truncating, exactly. */
export function applyDecimalRule(decimal: string, rule: DecimalRule): number {
  const negative = decimal.startsWith("-");
  const [whole, fraction = ""] = decimal.replace(/^-/, "").split(".");
  const kept = BigInt((whole || "0") + fraction.slice(0, rule.places).padEnd(rule.places, "0"));
  const roundUp = rule.mode === "round" && (fraction[rule.places] ?? "0") >= "5";
  const scaled = roundUp ? kept + 1n : kept;
  const value = Number(scaled) / 10 ** rule.places;
  return negative && value !== 0 ? -value : value;
}

// Keys are written with few decimals; this absorbs binary representation error only.
const EPSILON = 1e-9;

function numericalMatches(value: number, key: NumericalKey): boolean {
  if (typeof key === "number") return Math.abs(value - key) <= EPSILON;
  if (Array.isArray(key)) return key.some((k) => Math.abs(value - k) <= EPSILON);
  if ("min" in key) return value >= key.min - EPSILON && value <= key.max + EPSILON;
  return Math.abs(value - key.value) <= (key.tolerance ?? 0) + EPSILON;
}

function isAnswered(type: QuestionType, response: Response): boolean {
  if (response === null || response === undefined) return false;
  if (type === "multiple") return Array.isArray(response) && response.length > 0;
  if (type === "numerical") return typeof response === "string" && response.trim() !== "";
  return typeof response === "number";
}

/** The outcome of one answered question against its key (no marks yet). */
function judge(
  question: ScorableQuestion,
  key: AnswerKey,
  response: Response,
): { outcome: Outcome; chosenCorrect?: number } {
  switch (question.type) {
    case "single": {
      const accepted = question.policy?.kind === "any-of" ? question.policy.answers : [key as number];
      return { outcome: accepted.includes(response as number) ? "correct" : "incorrect" };
    }
    case "multiple": {
      const correct = new Set(key as number[]);
      const chosen = new Set(response as number[]);
      if ([...chosen].some((option) => !correct.has(option))) return { outcome: "incorrect" };
      return chosen.size === correct.size ? { outcome: "correct" } : { outcome: "partial", chosenCorrect: chosen.size };
    }
    case "numerical": {
      const typed = readTypedNumber(response as string);
      if (typed === null) return { outcome: "incorrect" };
      const value = question.decimals ? applyDecimalRule(typed, question.decimals) : Number(typed);
      return { outcome: numericalMatches(value, key as NumericalKey) ? "correct" : "incorrect" };
    }
  }
}

/** One question's marks under its section's rule for its type. */
export function scoreQuestion(question: ScorableQuestion, response: Response, rule: MarkingRule): QuestionScore {
  const { id } = question;
  if (question.policy?.kind === "dropped") return { id, marks: rule.correct, outcome: "dropped" };
  if (!isAnswered(question.type, response)) return { id, marks: rule.unanswered, outcome: "unanswered" };
  const key = question.policy?.kind === "changed" ? question.policy.answer : question.answer;
  const { outcome, chosenCorrect = 0 } = judge(question, key, response);
  if (outcome === "correct") return { id, marks: rule.correct, outcome };
  if (outcome === "partial") {
    return rule.partial === undefined
      ? { id, marks: rule.incorrect, outcome: "incorrect" }
      : { id, marks: rule.partial * chosenCorrect, outcome };
  }
  return { id, marks: rule.incorrect, outcome };
}

export interface ScorableSection {
  name: string;
  marking: SectionMarking;
  /** "Attempt any N of M": only the first N answered questions, in the paper's order, are evaluated. */
  attemptAny?: number;
  questions: ScorableQuestion[];
}

const hundredths = (marks: number) => Math.round(marks * 100);

/** The rule a question is marked by; a section without one for the type is a test that cannot be taken. */
export function ruleFor(section: Pick<ScorableSection, "name" | "marking">, type: QuestionType): MarkingRule {
  const rule = section.marking[type];
  if (!rule) throw new Error(`Section ${section.name} has no marking for ${type} questions`);
  return rule;
}

export function scoreSection(
  section: ScorableSection,
  responses: ReadonlyMap<string, Response>,
): { summary: SectionScore; questions: QuestionScore[] } {
  let evaluated = 0;
  const questions = section.questions.map((question) => {
    const rule = ruleFor(section, question.type);
    const response = responses.get(question.id);
    const answered = isAnswered(question.type, response);
    if (answered && section.attemptAny !== undefined && question.policy?.kind !== "dropped") {
      if (evaluated >= section.attemptAny) return { id: question.id, marks: 0, outcome: "not-evaluated" as const };
      evaluated += 1;
    }
    return scoreQuestion(question, response, rule);
  });
  const maxima = section.questions
    .map((question) => hundredths(ruleFor(section, question.type).correct))
    .sort((a, b) => b - a);
  const counted = section.attemptAny === undefined ? maxima : maxima.slice(0, section.attemptAny);
  const count = (outcome: Outcome) => questions.filter((q) => q.outcome === outcome).length;
  const summary: SectionScore = {
    name: section.name,
    score: questions.reduce((sum, q) => sum + hundredths(q.marks), 0) / 100,
    maxScore: counted.reduce((sum, m) => sum + m, 0) / 100,
    correct: count("correct") + count("dropped"),
    partial: count("partial"),
    incorrect: count("incorrect"),
    unattempted: count("unanswered") + count("not-evaluated"),
    negative: -questions.reduce((sum, q) => sum + Math.min(0, hundredths(q.marks)), 0) / 100,
  };
  return { summary, questions };
}

export function scoreAttempt(sections: ScorableSection[], responses: ReadonlyMap<string, Response>): AttemptScore {
  const scored = sections.map((section) => scoreSection(section, responses));
  const total = (pick: (s: SectionScore) => number) =>
    scored.reduce((sum, s) => sum + hundredths(pick(s.summary)), 0) / 100;
  const totalCount = (pick: (s: SectionScore) => number) => scored.reduce((sum, s) => sum + pick(s.summary), 0);
  const correct = totalCount((s) => s.correct);
  const partial = totalCount((s) => s.partial);
  const incorrect = totalCount((s) => s.incorrect);
  const attempted = correct + partial + incorrect;
  return {
    score: total((s) => s.score),
    maxScore: total((s) => s.maxScore),
    correct,
    partial,
    incorrect,
    unattempted: totalCount((s) => s.unattempted),
    negative: total((s) => s.negative),
    accuracy: attempted === 0 ? null : correct / attempted,
    sections: scored.map((s) => s.summary),
    questions: scored.flatMap((s) => s.questions),
  };
}
