/** What scoring gives (mock-tests.md §4): the shapes the server stores and the result screen reads. */

export type Outcome = "correct" | "partial" | "incorrect" | "unanswered" | "dropped" | "not-evaluated";

export interface QuestionScore {
  id: string;
  marks: number;
  outcome: Outcome;
}

export interface SectionScore {
  name: string;
  score: number;
  maxScore: number;
  correct: number;
  partial: number;
  incorrect: number;
  unattempted: number;
  /** Marks lost to negative marking (a positive number). */
  negative: number;
}

export interface AttemptScore extends Omit<SectionScore, "name"> {
  /** Correct ÷ attempted, 0–1 (null when nothing was attempted). */
  accuracy: number | null;
  sections: SectionScore[];
  questions: QuestionScore[];
}

/** An attempt's score as stored with it: each question also with the seconds spent on it. */
export interface StoredResult extends Omit<AttemptScore, "questions"> {
  questions: (QuestionScore & { seconds: number })[];
}
