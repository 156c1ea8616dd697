import type { Outcome, SectionScore, StoredResult } from "./score.ts";
import { PATTERNS, type PatternId } from "./patterns.ts";

/**
 * Subjects of a paper (mock-tests.md §4: "per section and subject"). A section may be a part of a
 * subject ("Physics Section A", "Physics Section B"): its subject is the one it was given, else the
 * pattern's for a section of that name, else the subject its questions are tagged with. A section
 * whose questions are of several subjects (a custom test's one section) is split question by
 * question. Totals are added from the stored result in hundredths, as scoring adds them; nothing
 * here scores anything.
 */

export interface PaperLayoutSection {
  name: string;
  /** The subject the whole section belongs to, when known. */
  subject: string | null;
  questions: {
    id: string;
    /** The question's own subject tag. */
    subject: string | null;
    /** Full marks for the question under its section's rule. */
    maxMarks: number;
  }[];
}

export interface SubjectTotal extends Omit<SectionScore, "name"> {
  name: string;
  /** Seconds spent on its questions (from the sitting's events in server time). */
  seconds: number;
  /** The sections it takes in, in paper order. */
  sections: string[];
}

const clean = (s: string | null | undefined) => (s ?? "").trim() || null;

/** The subject a section was given, or the pattern's for a section of that name. */
export function sectionSubject(section: { name: string; subject?: string | null }, pattern: PatternId): string | null {
  return (
    clean(section.subject) ?? clean(PATTERNS[pattern]?.sections.find((s) => s.name === section.name)?.subject) ?? null
  );
}

/** Each question's subject: its section's, else its own tag, else (nothing known) the section's name. */
function questionSubjects(layout: PaperLayoutSection[]): Map<string, string> {
  const subjects = new Map<string, string>();
  for (const section of layout)
    for (const q of section.questions) subjects.set(q.id, section.subject ?? q.subject ?? section.name);
  return subjects;
}

/** The paper's subjects in the order they first appear. */
export function paperSubjects(layout: PaperLayoutSection[]): string[] {
  return [...new Set(questionSubjects(layout).values())];
}

const hundredths = (marks: number) => Math.round(marks * 100);

interface Tally {
  score: number;
  maxScore: number;
  negative: number;
  correct: number;
  partial: number;
  incorrect: number;
  unattempted: number;
  seconds: number;
  sections: Set<string>;
}

const COUNTED: Record<Outcome, "correct" | "partial" | "incorrect" | "unattempted"> = {
  correct: "correct",
  dropped: "correct",
  partial: "partial",
  incorrect: "incorrect",
  unanswered: "unattempted",
  "not-evaluated": "unattempted",
};

/** Subject totals and seconds spent per subject, from a stored result. */
export function subjectTotals(layout: PaperLayoutSection[], result: Pick<StoredResult, "sections" | "questions">) {
  const subjects = questionSubjects(layout);
  const scored = new Map(result.questions.map((q) => [q.id, q]));
  const tallies = new Map<string, Tally>();
  const tallyOf = (name: string) => {
    let tally = tallies.get(name);
    if (!tally) {
      tally = {
        score: 0,
        maxScore: 0,
        negative: 0,
        correct: 0,
        partial: 0,
        incorrect: 0,
        unattempted: 0,
        seconds: 0,
        sections: new Set(),
      };
      tallies.set(name, tally);
    }
    return tally;
  };
  for (const [index, section] of layout.entries()) {
    // Scoring keeps the paper's section order.
    const summary = result.sections[index];
    const names = new Set(section.questions.map((q) => subjects.get(q.id)!));
    for (const q of section.questions) tallyOf(subjects.get(q.id)!).seconds += scored.get(q.id)?.seconds ?? 0;
    if (names.size === 1 && summary) {
      // One subject: the section's own totals, which know "attempt any N of M".
      const tally = tallyOf([...names][0]);
      tally.sections.add(section.name);
      tally.score += hundredths(summary.score);
      tally.maxScore += hundredths(summary.maxScore);
      tally.negative += hundredths(summary.negative);
      tally.correct += summary.correct;
      tally.partial += summary.partial;
      tally.incorrect += summary.incorrect;
      tally.unattempted += summary.unattempted;
      continue;
    }
    for (const q of section.questions) {
      const tally = tallyOf(subjects.get(q.id)!);
      tally.sections.add(section.name);
      const own = scored.get(q.id);
      const marks = hundredths(own?.marks ?? 0);
      tally.score += marks;
      tally.maxScore += hundredths(q.maxMarks);
      tally.negative += -Math.min(0, marks);
      tally[COUNTED[own?.outcome ?? "unanswered"]] += 1;
    }
  }
  return [...tallies].map(([name, t]): SubjectTotal => ({
    name,
    score: t.score / 100,
    maxScore: t.maxScore / 100,
    correct: t.correct,
    partial: t.partial,
    incorrect: t.incorrect,
    unattempted: t.unattempted,
    negative: t.negative / 100,
    seconds: t.seconds,
    sections: [...t.sections],
  }));
}

/** Seconds spent on each section, in paper order. */
export function sectionSeconds(layout: PaperLayoutSection[], result: Pick<StoredResult, "questions">): number[] {
  const seconds = new Map(result.questions.map((q) => [q.id, q.seconds]));
  return layout.map((s) => s.questions.reduce((sum, q) => sum + (seconds.get(q.id) ?? 0), 0));
}
