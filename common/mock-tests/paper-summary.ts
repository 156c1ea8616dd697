import type { AttemptMode, AttemptView } from "./attempt.ts";
import type { QuestionType, SectionMarking } from "./marking.ts";

/**
 * What the instructions pages show about a paper, before any question is seen: its sections, how
 * many questions of each type they hold and how they are marked. A test's own record gives the
 * same, so the instructions can be shown before an attempt (and its clock) exists.
 */
export interface PaperSummary {
  title: string;
  durationMinutes: number;
  mode: AttemptMode;
  sections: {
    name: string;
    marking: SectionMarking;
    counts: Partial<Record<QuestionType, number>>;
  }[];
  alertMinutes?: number[];
  /** Questions and full marks as the test's record states them (it knows "attempt any N of M"). */
  totals?: { questions: number; marks: number };
  /** Some question has a Hindi version: Hindi can be the default language. */
  hasHindi: boolean;
}

export function paperSummary(
  view: Pick<AttemptView, "title" | "durationMinutes" | "mode" | "sections" | "alertMinutes">,
): PaperSummary {
  return {
    title: view.title,
    durationMinutes: view.durationMinutes,
    mode: view.mode,
    alertMinutes: view.alertMinutes,
    hasHindi: view.sections.some((s) => s.questions.some((q) => q.hindi)),
    sections: view.sections.map((section) => {
      const counts: Partial<Record<QuestionType, number>> = {};
      for (const question of section.questions) counts[question.type] = (counts[question.type] ?? 0) + 1;
      return { name: section.name, marking: section.marking, counts };
    }),
  };
}

/** Questions and full marks: each question's marks for a correct answer, summed. */
export function paperTotals(paper: Pick<PaperSummary, "sections" | "totals">): { questions: number; marks: number } {
  if (paper.totals) return paper.totals;
  let questions = 0;
  let marks = 0;
  for (const section of paper.sections)
    for (const [type, count = 0] of Object.entries(section.counts) as [QuestionType, number][]) {
      questions += count;
      marks += count * (section.marking[type]?.correct ?? 0);
    }
  return { questions, marks };
}
