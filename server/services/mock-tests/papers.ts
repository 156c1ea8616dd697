import { and, asc, eq, isNotNull } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { contents, mockTestQuestions, mockTests } from "../../db/schema/index.ts";
import type { MockTestSection } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/types.ts";
import type { AttemptSection } from "#common/mock-tests/attempt.ts";
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
 * The paper as every candidate receives it (questions without keys or solutions), prepared once
 * per copy of the test: the same objects for the screens the server renders, and the same JSON
 * bytes for every start and resume through the API (issue 43 §3).
 */
export interface CandidatePaper {
  sections: AttemptSection[];
  /** `sections` as UTF-8 JSON, encoded once. */
  json: Buffer;
}

function candidatePaperOf(paper: Paper): CandidatePaper {
  const sections: AttemptSection[] = paper.sections.map((section) => ({
    name: section.name,
    marking: section.marking,
    questions: section.questions.map(({ id, question }) => ({
      _id: id,
      type: question.type,
      text: question.text,
      ...(question.options ? { options: question.options } : {}),
      ...(question.hindi ? { hindi: question.hindi } : {}),
    })),
  }));
  return { sections, json: Buffer.from(JSON.stringify(sections)) };
}

/**
 * Papers kept in memory by test: a published paper's questions and options do not change (a key
 * decision does, so keys are always read afresh for scoring: `keysNow`). An entry is one version
 * of the test (its `updated_at`): this instance forgets it when it changes the test, and a reader
 * that holds the test's row (a start) passes its `updated_at`, so a change made on another
 * instance is seen too. The candidate's copy is prepared once per entry.
 */
export class PaperCache {
  private readonly kept = new LRUCache<string, Paper>({ max: 200 });
  private readonly candidates = new WeakMap<Paper, CandidatePaper>();
  private readonly db: DbOrTx;

  constructor(db: DbOrTx) {
    this.db = db;
  }

  async get(testId: string, db: DbOrTx = this.db, version?: Date): Promise<Paper | null> {
    const held = this.kept.get(testId);
    if (held && (!version || held.test.updatedAt.getTime() === version.getTime())) return held;
    const paper = await loadPaper(db, testId);
    if (paper && paper.test.status !== "draft") this.kept.set(testId, paper);
    else this.kept.delete(testId);
    return paper;
  }

  /** The candidate's copy of a paper this cache gave: made on first use, then the same one. */
  candidate(paper: Paper): CandidatePaper {
    let prepared = this.candidates.get(paper);
    if (!prepared) this.candidates.set(paper, (prepared = candidatePaperOf(paper)));
    return prepared;
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
