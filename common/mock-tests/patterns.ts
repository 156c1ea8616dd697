import {
  JEE_ADVANCED_MULTIPLE,
  NTA_MARKING,
  type MarkingRule,
  type QuestionType,
  type SectionMarking,
} from "./marking.ts";

/**
 * The exam patterns a test is built from (mock-tests.md §1, 2025 patterns). A pattern fills in the
 * sections, their question counts, marking and the duration; the institute may change any of it.
 */

export const PATTERN_IDS = ["jee-main-2025", "neet-2025", "jee-advanced", "custom"] as const;
export type PatternId = (typeof PATTERN_IDS)[number];

export interface PatternSection {
  name: string;
  subject: string;
  /** How many questions of each type the section holds. */
  counts: Partial<Record<QuestionType, number>>;
  marking: SectionMarking;
  attemptAny?: number;
}

export interface ExamPattern {
  id: PatternId;
  name: string;
  durationMinutes: number;
  /** "cbt": the NTA computer-based screen; "omr": a booklet with a bubble sheet (NEET). */
  mode: "cbt" | "omr";
  sections: PatternSection[];
}

const jeeMainSubject = (subject: string): PatternSection[] => [
  { name: `${subject} Section A`, subject, counts: { single: 20 }, marking: { single: NTA_MARKING } },
  { name: `${subject} Section B`, subject, counts: { numerical: 5 }, marking: { numerical: NTA_MARKING } },
];

const SINGLE_3: MarkingRule = { correct: 3, incorrect: -1, unanswered: 0 };
const NUMERICAL_4: MarkingRule = { correct: 4, incorrect: 0, unanswered: 0 };

/** JEE Advanced Paper 1 as in 2024–25; the papers change yearly, so the institute adjusts it. */
const jeeAdvancedSubject = (subject: string): PatternSection[] => [
  { name: `${subject} Section 1`, subject, counts: { single: 4 }, marking: { single: SINGLE_3 } },
  { name: `${subject} Section 2`, subject, counts: { multiple: 3 }, marking: { multiple: JEE_ADVANCED_MULTIPLE } },
  { name: `${subject} Section 3`, subject, counts: { numerical: 6 }, marking: { numerical: NUMERICAL_4 } },
  { name: `${subject} Section 4`, subject, counts: { single: 4 }, marking: { single: SINGLE_3 } },
];

const neetSubject = (subject: string, count: number): PatternSection => ({
  name: subject,
  subject,
  counts: { single: count },
  marking: { single: NTA_MARKING },
});

export const PATTERNS: Record<PatternId, ExamPattern> = {
  "jee-main-2025": {
    id: "jee-main-2025",
    name: "JEE Main 2025",
    durationMinutes: 180,
    mode: "cbt",
    sections: ["Physics", "Chemistry", "Mathematics"].flatMap(jeeMainSubject),
  },
  "neet-2025": {
    id: "neet-2025",
    name: "NEET 2025 (OMR mode)",
    durationMinutes: 180,
    mode: "omr",
    sections: [
      neetSubject("Physics", 45),
      neetSubject("Chemistry", 45),
      neetSubject("Botany", 45),
      neetSubject("Zoology", 45),
    ],
  },
  "jee-advanced": {
    id: "jee-advanced",
    name: "JEE Advanced",
    durationMinutes: 180,
    mode: "cbt",
    sections: ["Physics", "Chemistry", "Mathematics"].flatMap(jeeAdvancedSubject),
  },
  custom: {
    id: "custom",
    name: "Custom",
    durationMinutes: 60,
    mode: "cbt",
    sections: [
      {
        name: "Section 1",
        subject: "",
        counts: {},
        marking: { single: NTA_MARKING, multiple: JEE_ADVANCED_MULTIPLE, numerical: NUMERICAL_4 },
      },
    ],
  },
};

/** Questions and full marks of a pattern as shipped (JEE Main: 75 and 300; NEET: 180 and 720). */
export function patternTotals(pattern: ExamPattern): { questions: number; marks: number } {
  let questions = 0;
  let marks = 0;
  for (const section of pattern.sections) {
    for (const [type, count = 0] of Object.entries(section.counts) as [QuestionType, number][]) {
      questions += count;
      marks += count * (section.marking[type]?.correct ?? 0);
    }
  }
  return { questions, marks };
}

/**
 * Subjects a bank may file a section's questions under besides its own name: NEET's Botany and
 * Zoology are one subject, Biology, in most institutes' banks.
 */
const SUBJECT_ALSO: Record<string, readonly string[]> = { botany: ["biology"], zoology: ["biology"] };

/** Whether a question tagged `questionSubject` belongs in a section of `sectionSubject` (any, when the section names none). */
export function sectionTakesSubject(sectionSubject: string, questionSubject: string | null | undefined): boolean {
  if (!sectionSubject) return true;
  const section = sectionSubject.trim().toLowerCase();
  const question = (questionSubject ?? "").trim().toLowerCase();
  return question === section || (SUBJECT_ALSO[section] ?? []).includes(question);
}

/** The bank's subject a section's picker starts on: its own, else the one its questions are filed under (Biology for Botany). */
export function pickerSubject(sectionSubject: string, bankSubjects: readonly string[]): string {
  return (
    bankSubjects.find((s) => s.toLowerCase() === sectionSubject.trim().toLowerCase()) ??
    bankSubjects.find((s) => sectionTakesSubject(sectionSubject, s)) ??
    ""
  );
}
