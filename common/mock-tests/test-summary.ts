import type { QuestionType, SectionMarking } from "./marking.ts";
import type { PaperSummary } from "./paper-summary.ts";

/** What the list of tests (`GET /api/tests`) says about a test's paper, before any attempt exists. */
export interface TestOutline {
  title: string;
  mode: "cbt" | "omr";
  practice: boolean;
  durationMinutes: number;
  questionCount: number;
  maxScore: number;
  sections: {
    name: string;
    marking: SectionMarking;
    questions: number;
    counts: Partial<Record<QuestionType, number>>;
  }[];
  hasHindi: boolean;
}

/**
 * The instructions' summary from a test's record, so that they can be read before the clock
 * starts. Totals come from the record (it knows "attempt any N of M").
 */
export function testSummary(test: TestOutline): PaperSummary {
  return {
    title: test.title,
    durationMinutes: test.durationMinutes,
    mode: test.practice ? "practice" : test.mode,
    hasHindi: test.hasHindi,
    totals: { questions: test.questionCount, marks: test.maxScore },
    sections: test.sections.map((section) => ({
      name: section.name,
      marking: section.marking,
      counts: section.counts,
    })),
  };
}
