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
    /** Questions by type, when the server states them. */
    counts?: Partial<Record<QuestionType, number>>;
  }[];
}

/**
 * The instructions' summary from a test's record, so that they can be read before the clock
 * starts. A section marked for one type holds only that type; a section marked for several
 * whose split the record does not give shows its number of questions and every rule it marks
 * by. Totals come from the record (it knows "attempt any N of M"). Whether a Hindi version
 * exists is not in the record: the choice of Hindi waits for the screen's 'View in' switch.
 */
export function testSummary(test: TestOutline): PaperSummary {
  return {
    title: test.title,
    durationMinutes: test.durationMinutes,
    mode: test.practice ? "practice" : test.mode,
    hasHindi: false,
    totals: { questions: test.questionCount, marks: test.maxScore },
    sections: test.sections.map((section) => {
      const types = Object.keys(section.marking) as QuestionType[];
      if (section.counts) return { name: section.name, marking: section.marking, counts: section.counts };
      if (types.length === 1)
        return { name: section.name, marking: section.marking, counts: { [types[0]]: section.questions } };
      return { name: section.name, marking: section.marking, counts: {}, questions: section.questions };
    }),
  };
}
