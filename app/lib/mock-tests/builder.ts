import { PATTERNS, type PatternId } from "#common/mock-tests/patterns.ts";
import { TIE_BREAK_KINDS, type TieBreak, type TieBreakKind } from "#common/mock-tests/policies.ts";
import type { QuestionType, SectionMarking } from "#common/mock-tests/marking.ts";
import type { ResultRelease } from "#common/mock-tests/test-input.ts";
import { classTimeInput, parseClassTime } from "#common/validation/content.ts";

/**
 * The test builder's draft as the page holds it, and the `POST /api/tests` body it becomes. A
 * pattern fills in the sections (names, how many questions of each type, marking); each section
 * then gets questions picked by hand and rules that draw from the bank.
 */

export type Difficulty = "easy" | "medium" | "hard";

export interface DrawRuleDraft {
  subject: string;
  chapter: string;
  difficulty: Difficulty | "";
  type: QuestionType | "";
  count: number;
}

export interface PickedQuestion {
  _id: string;
  text: string;
  type: QuestionType;
}

export interface SectionDraft {
  name: string;
  subject: string;
  marking: SectionMarking;
  attemptAny?: number;
  /** What the pattern asks for, per type (none for a custom section). */
  counts: Partial<Record<QuestionType, number>>;
  picked: PickedQuestion[];
  rules: DrawRuleDraft[];
}

export interface TestDraft {
  title: string;
  pattern: PatternId;
  businessId: string;
  paid: boolean;
  price: number;
  durationMinutes: number;
  scheduled: boolean;
  /** datetime-local values in India time, the product's zone (as a live class's time). */
  opensAt: string;
  closesAt: string;
  attemptsAllowed: number;
  resultRelease: ResultRelease;
  practice: boolean;
  /** How takers with the same score are ranked, in the order listed (TIE_BREAK_KINDS' order). */
  tieBreaks: TieBreakKind[];
  sections: SectionDraft[];
}

export function sectionsOf(pattern: PatternId): SectionDraft[] {
  return PATTERNS[pattern].sections.map((s) => ({
    name: s.name,
    subject: s.subject,
    marking: s.marking,
    ...(s.attemptAny ? { attemptAny: s.attemptAny } : {}),
    counts: s.counts,
    picked: [],
    rules: [],
  }));
}

export function draftFor(pattern: PatternId, businessId = ""): TestDraft {
  return {
    title: "",
    pattern,
    businessId,
    paid: false,
    price: 0,
    durationMinutes: PATTERNS[pattern].durationMinutes,
    scheduled: false,
    opensAt: "",
    closesAt: "",
    attemptsAllowed: 1,
    resultRelease: "immediate",
    practice: false,
    tieBreaks: [],
    sections: sectionsOf(pattern),
  };
}

/** "N questions per chapter × difficulty": one rule for every chapter and difficulty chosen. */
export function perChapterRules(
  chapters: { subject: string | null; chapter: string }[],
  difficulties: Difficulty[],
  count: number,
  type: QuestionType | "" = "",
): DrawRuleDraft[] {
  const levels: (Difficulty | "")[] = difficulties.length ? difficulties : [""];
  return chapters.flatMap((c) =>
    levels.map((difficulty) => ({ subject: c.subject ?? "", chapter: c.chapter, difficulty, type, count })),
  );
}

/** How many questions a section will hold once its rules have drawn. */
export function sectionTotal(section: SectionDraft): number {
  return section.picked.length + section.rules.reduce((sum, r) => sum + (r.count || 0), 0);
}

export function patternCount(section: SectionDraft): number {
  return Object.values(section.counts).reduce((sum, n) => sum + (n ?? 0), 0);
}

/** A datetime-local value (India time) as an ISO time (the server's input), or null when empty. */
export function isoOrNull(local: string): string | null {
  if (!local) return null;
  return parseClassTime(local)?.toISOString() ?? local;
}

/** The draft as `POST /api/tests`'s body; the server checks all of it. */
export function createTestBody(draft: TestDraft) {
  return {
    title: draft.title,
    pattern: draft.pattern,
    businessId: draft.businessId || null,
    price: draft.paid ? draft.price : 0,
    durationMinutes: draft.durationMinutes,
    opensAt: draft.scheduled ? isoOrNull(draft.opensAt) : null,
    closesAt: draft.scheduled ? isoOrNull(draft.closesAt) : null,
    attemptsAllowed: draft.attemptsAllowed,
    resultRelease: draft.resultRelease,
    practice: draft.practice,
    tieBreaks: TIE_BREAK_KINDS.filter((kind) => (draft.tieBreaks ?? []).includes(kind)),
    sections: draft.sections.map((s) => ({
      name: s.name,
      ...(s.subject ? { subject: s.subject } : {}),
      marking: s.marking,
      ...(s.attemptAny ? { attemptAny: s.attemptAny } : {}),
      questions: s.picked.map((q) => q._id),
      draw: s.rules.map((r) => ({
        ...(r.subject ? { subject: r.subject } : {}),
        ...(r.chapter ? { chapter: r.chapter } : {}),
        ...(r.difficulty ? { difficulty: r.difficulty } : {}),
        ...(r.type ? { type: r.type } : {}),
        count: r.count,
      })),
    })),
  };
}

/** A draft test as the API shows it, and its paper's questions (GET /api/tests/{id}, /paper). */
export interface SavedTest {
  title: string;
  pattern: string;
  businessId: string | null;
  price: number;
  durationMinutes: number;
  opensAt: string | null;
  closesAt: string | null;
  attemptsAllowed: number;
  resultRelease: ResultRelease;
  practice: boolean;
  tieBreaks?: TieBreak[];
  sections: { name: string; subject?: string | null; marking: SectionMarking; attemptAny?: number }[];
}
export interface SavedQuestion {
  section: number;
  sourceId: string | null;
  text: string;
  type: QuestionType;
}

/**
 * The builder's draft of a saved test, to change it: its questions become picked ones (by their
 * bank id; the server keeps the test's own copy of each). A question with no bank id left (its
 * author's account is gone) cannot be named again and is counted in `lost`.
 */
export function draftFromTest(test: SavedTest, paper: SavedQuestion[]): { draft: TestDraft; lost: number } {
  const pattern = (test.pattern in PATTERNS ? test.pattern : "custom") as PatternId;
  const shipped = PATTERNS[pattern].sections;
  const draft: TestDraft = {
    title: test.title,
    pattern,
    businessId: test.businessId ?? "",
    paid: test.price > 0,
    price: test.price,
    durationMinutes: test.durationMinutes,
    scheduled: Boolean(test.opensAt || test.closesAt),
    opensAt: classTimeInput(test.opensAt),
    closesAt: classTimeInput(test.closesAt),
    attemptsAllowed: test.attemptsAllowed,
    resultRelease: test.resultRelease,
    practice: test.practice,
    // The builder offers the named kinds; a subject order set through the API is kept only there.
    tieBreaks: (test.tieBreaks ?? []).filter((t): t is TieBreakKind => typeof t === "string"),
    sections: test.sections.map((section, index) => ({
      name: section.name,
      subject: section.subject ?? shipped[index]?.subject ?? "",
      marking: section.marking,
      ...(section.attemptAny ? { attemptAny: section.attemptAny } : {}),
      counts: pattern === "custom" ? {} : (shipped[index]?.counts ?? {}),
      picked: paper
        .filter((q) => q.section === index && q.sourceId)
        .map((q) => ({ _id: q.sourceId!, text: q.text, type: q.type })),
      rules: [],
    })),
  };
  return { draft, lost: paper.filter((q) => !q.sourceId).length };
}
