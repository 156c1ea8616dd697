import { and, asc, eq, isNotNull } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { contents, mockTestQuestions, mockTests } from "../../db/schema/index.ts";
import type { MockTestSection } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/types.ts";
import type { QuestionJson } from "#common/mock-tests/question.ts";
import type { KeyPolicy } from "#common/mock-tests/policies.ts";
import type { ScorableSection } from "./scoring.ts";
import { sectionSubject, type PaperLayoutSection } from "#common/mock-tests/subjects.ts";

export type MockTestRow = typeof mockTests.$inferSelect;

export interface PaperQuestion {
  /** The test's copy (mock_test_questions.id): what attempts save answers against. */
  id: string;
  question: QuestionJson;
}

export interface PaperSection extends MockTestSection {
  questions: PaperQuestion[];
}

/** A test's paper in order, with its title: what the screen shows and what answers are checked against. */
export interface Paper {
  test: MockTestRow;
  title: string;
  creatorId: string;
  sections: PaperSection[];
  /** Question id → its section and copy. */
  byId: Map<string, { section: number; question: QuestionJson }>;
}

/**
 * Papers kept in memory by test: a published paper's questions and options do not change (a key
 * decision does, so keys are always read afresh for scoring: `keysNow`).
 */
export class PaperCache {
  private readonly kept = new LRUCache<string, Paper>({ max: 200 });
  private readonly db: DbOrTx;

  constructor(db: DbOrTx) {
    this.db = db;
  }

  async get(testId: string, db: DbOrTx = this.db): Promise<Paper | null> {
    const held = this.kept.get(testId);
    if (held) return held;
    const paper = await loadPaper(db, testId);
    if (paper && paper.test.status !== "draft") this.kept.set(testId, paper);
    return paper;
  }

  forget(testId: string): void {
    this.kept.delete(testId);
  }
}

export async function loadPaper(db: DbOrTx, testId: string): Promise<Paper | null> {
  const [found] = await db
    .select({ test: mockTests, title: contents.title, creatorId: contents.creatorId })
    .from(mockTests)
    .innerJoin(contents, eq(contents.id, mockTests.contentId))
    .where(eq(mockTests.contentId, testId));
  if (!found) return null;
  const rows = await db
    .select({ id: mockTestQuestions.id, section: mockTestQuestions.section, question: mockTestQuestions.question })
    .from(mockTestQuestions)
    .where(eq(mockTestQuestions.testId, testId))
    .orderBy(asc(mockTestQuestions.section), asc(mockTestQuestions.position));
  const sections: PaperSection[] = found.test.sections.map((section) => ({ ...section, questions: [] }));
  const byId = new Map<string, { section: number; question: QuestionJson }>();
  for (const row of rows) {
    sections[row.section]?.questions.push({ id: row.id, question: row.question });
    byId.set(row.id, { section: row.section, question: row.question });
  }
  return { test: found.test, title: found.title, creatorId: found.creatorId, sections, byId };
}

/** The key decisions of a test as they stand now, by question. */
export async function keysNow(db: DbOrTx, testId: string): Promise<Map<string, KeyPolicy>> {
  const rows = await db
    .select({ id: mockTestQuestions.id, policy: mockTestQuestions.policy })
    .from(mockTestQuestions)
    .where(and(eq(mockTestQuestions.testId, testId), isNotNull(mockTestQuestions.policy)));
  return new Map(rows.map((row) => [row.id, row.policy!]));
}

/** The paper as the scorer takes it, with the key decisions applied. */
export function scorableSections(paper: Paper, policies: Map<string, KeyPolicy>): ScorableSection[] {
  return paper.sections.map((section) => ({
    name: section.name,
    marking: section.marking,
    attemptAny: section.attemptAny,
    questions: section.questions.map(({ id, question }) => ({
      id,
      type: question.type,
      answer: question.answer,
      decimals: question.decimals,
      policy: policies.get(id),
    })),
  }));
}

/** The paper's sections with their subjects and each question's full marks (subjects.ts). */
export function layoutOf(paper: Paper): PaperLayoutSection[] {
  return paper.sections.map((section) => ({
    name: section.name,
    subject: sectionSubject(section, paper.test.pattern),
    questions: section.questions.map(({ id, question }) => ({
      id,
      subject: question.tags?.subject?.trim() || null,
      maxMarks: section.marking[question.type]?.correct ?? 0,
    })),
  }));
}
