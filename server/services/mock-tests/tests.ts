import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  centers,
  contents,
  mockTestQuestions,
  mockTests,
  seriesTests,
  type MockTestSection,
} from "../../db/schema/index.ts";
import type { Db, DbOrTx } from "../../db/types.ts";
import { HttpError, badRequest, conflict, notFound, parseWith } from "../../http/errors.ts";
import { PATTERNS } from "#common/mock-tests/patterns.ts";
import type { QuestionType } from "#common/mock-tests/marking.ts";
import type { QuestionJson } from "#common/mock-tests/question.ts";
import type { KeyPolicy } from "#common/mock-tests/policies.ts";
import {
  CreateTestSchema,
  KeyPolicySchema,
  SetTieBreaksSchema,
  TIE_BREAK_TEXTS,
  type CreateTestInput,
} from "#common/mock-tests/test-input.ts";
import type { TieBreak } from "#common/mock-tests/policies.ts";
import { paperSubjects, sectionSubject } from "#common/mock-tests/subjects.ts";
import { QuestionSchema } from "#common/mock-tests/question.ts";
import * as v from "valibot";
import { isUuid } from "#common/validation/ids.ts";
import type { Reader } from "../content-access.ts";
import type { QuestionBankService } from "./question-bank.ts";
import { examRowsFor, instituteFor, type ExamAction } from "./exam-access.ts";
import { layoutOf, type PaperCache, type MockTestRow } from "./papers.ts";

export const TEST_TEXTS = {
  notFound: "Test not found",
  unknownQuestions: "Some questions are not in this institute's bank or your own",
  tooFewToDraw: (wanted: number, found: number, what: string) =>
    `Only ${found} of the ${wanted} questions asked for could be drawn (${what})`,
  emptySection: (name: string) => `Section ${name} has no questions`,
  noMarking: (name: string, type: QuestionType) => `Section ${name} has no marking for ${type} questions`,
  notDraft: "Only a draft can be changed this way; this test is already published",
  notPublished: "This test is not published",
  notInTest: "That question is not in this test",
  inSeries: "This test is in a series; a test stays with its series' institute",
} as const;

/** A test as the API answers it (issue 29): its settings and paper outline, no keys. */
export interface TestJson {
  _id: string;
  title: string;
  description: string;
  price: number;
  businessId: string | null;
  businessName: string | null;
  creatorId: string;
  pattern: string;
  mode: "cbt" | "omr";
  practice: boolean;
  durationMinutes: number;
  sections: {
    name: string;
    /** The subject the section is part of, when known (the pattern's or the one it was given). */
    subject: string | null;
    marking: MockTestSection["marking"];
    attemptAny?: number;
    questions: number;
    /** Questions by type (what the instructions write out before the test). */
    counts: Partial<Record<QuestionType, number>>;
  }[];
  /** Whether any question has a Hindi version (the instructions offer Hindi as the default language). */
  hasHindi: boolean;
  /** How takers with the same score are ranked, first to last. */
  tieBreaks: TieBreak[];
  questionCount: number;
  maxScore: number;
  opensAt: string | null;
  closesAt: string | null;
  attemptsAllowed: number;
  resultRelease: "immediate" | "after-window" | "manual";
  resultsPublishedAt: string | null;
  status: "draft" | "published" | "closed";
  createdAt: string;
}

type TestListRow = {
  test: MockTestRow;
  title: string;
  description: string;
  price: number;
  creatorId: string;
  businessName: string | null;
  counts: { section: number; type: QuestionType; count: number }[] | null;
  hasHindi: boolean;
};

export function toTestJson(row: TestListRow): TestJson {
  const counts = row.counts ?? [];
  const sections = row.test.sections.map((section, index) => {
    const mine = counts.filter((c) => c.section === index);
    return {
      name: section.name,
      subject: sectionSubject(section, row.test.pattern),
      marking: section.marking,
      ...(section.attemptAny ? { attemptAny: section.attemptAny } : {}),
      questions: mine.reduce((sum, c) => sum + c.count, 0),
      counts: Object.fromEntries(mine.map((c) => [c.type, c.count])),
    };
  });
  const maxScore = row.test.sections.reduce((sum, section, index) => {
    const marks = counts
      .filter((c) => c.section === index)
      .flatMap((c) => Array(c.count).fill(section.marking[c.type]?.correct ?? 0) as number[])
      .sort((a, b) => b - a);
    const counted = section.attemptAny ? marks.slice(0, section.attemptAny) : marks;
    return sum + counted.reduce((s, m) => s + Math.round(m * 100), 0);
  }, 0);
  return {
    _id: row.test.contentId,
    title: row.title,
    description: row.description,
    price: row.price / 100,
    businessId: row.test.centerId,
    businessName: row.businessName,
    creatorId: row.creatorId,
    pattern: row.test.pattern,
    mode: row.test.mode,
    practice: row.test.practice,
    durationMinutes: row.test.durationMinutes,
    sections,
    questionCount: sections.reduce((sum, s) => sum + s.questions, 0),
    hasHindi: row.hasHindi,
    tieBreaks: row.test.tieBreaks,
    maxScore: maxScore / 100,
    opensAt: row.test.opensAt?.toISOString() ?? null,
    closesAt: row.test.closesAt?.toISOString() ?? null,
    attemptsAllowed: row.test.attemptsAllowed,
    resultRelease: row.test.resultRelease,
    resultsPublishedAt: row.test.resultsPublishedAt?.toISOString() ?? null,
    status: row.test.status,
    createdAt: row.test.createdAt.toISOString(),
  };
}

/** The columns every list of tests reads: the test, its content row and its paper's counts. */
export const testListColumns = {
  test: mockTests,
  title: contents.title,
  description: contents.description,
  price: contents.price,
  creatorId: contents.creatorId,
  businessName: centers.instituteName,
  counts: sql<
    TestListRow["counts"]
  >`(select json_agg(json_build_object('section', c.section, 'type', c.type, 'count', c.count)) from (select section, question->>'type' as type, count(*)::int as count from ${mockTestQuestions} where ${mockTestQuestions.testId} = ${mockTests.contentId} group by section, question->>'type') c)`,
  hasHindi: sql<boolean>`exists (select 1 from ${mockTestQuestions} where ${mockTestQuestions.testId} = ${mockTests.contentId} and ${mockTestQuestions.question} ? 'hindi')`,
};

export interface MockTestServiceDeps {
  db: Db;
  bank: QuestionBankService;
  papers: PaperCache;
  /** The institutes a creator or owner may put content on (the team rule of content). */
  assignable: (reader: Reader) => Promise<{ _id: string }[]>;
  /** A test's site changed (published, closed): its institute's pages are made again. */
  catalogChanged: (centerId: string | null) => void;
  /** Every attempt of the test scored again and ranked again (after a key decision). */
  rescore: (testId: string) => Promise<void>;
  /** Tells the test's takers their results are out (in the releasing transaction). */
  resultsReleased: (tx: DbOrTx, testId: string) => Promise<void>;
}

interface AssembledSection {
  section: MockTestSection;
  questions: { id: string; data: QuestionJson }[];
}

/** The tests (joined with their content row) the viewer may `action`. */
export function testsFor(viewer: Reader, action: ExamAction) {
  return examRowsFor(viewer, action, { institute: mockTests.centerId, author: contents.creatorId });
}

/** What a test shares with content: its title, description, price and institute. */
function soldAs(body: CreateTestInput, businessId: string | null) {
  return { title: body.title, description: body.description, price: body.price, centerId: businessId };
}

/** The test's own settings as the builder's body gives them. */
function settingsOf(body: CreateTestInput, businessId: string | null, sections: AssembledSection[]) {
  const pattern = PATTERNS[body.pattern];
  return {
    centerId: businessId,
    pattern: body.pattern,
    mode: pattern.mode,
    practice: body.practice,
    durationMinutes: body.durationMinutes ?? pattern.durationMinutes,
    sections: sections.map((s) => s.section),
    opensAt: body.opensAt ?? null,
    closesAt: body.closesAt ?? null,
    attemptsAllowed: body.attemptsAllowed,
    resultRelease: body.resultRelease,
    tieBreaks: body.tieBreaks,
  };
}

/** Subjects named by a tie-break must be the test's own: a misspelt one would never separate anyone. */
function checkTieBreakSubjects(tieBreaks: readonly TieBreak[], subjects: string[]) {
  for (const tieBreak of tieBreaks)
    if (typeof tieBreak === "object")
      for (const subject of tieBreak.subjectOrder)
        if (!subjects.includes(subject)) throw badRequest(TIE_BREAK_TEXTS.notASubject(subject, subjects));
}

/** The subjects of assembled sections, in paper order. */
function assembledSubjects(pattern: CreateTestInput["pattern"], sections: AssembledSection[]): string[] {
  return paperSubjects(
    sections.map(({ section, questions }) => ({
      name: section.name,
      subject: sectionSubject(section, pattern),
      questions: questions.map((q) => ({ id: q.id, subject: q.data.tags?.subject?.trim() || null, maxMarks: 0 })),
    })),
  );
}

/** The paper's questions, copied into the test in section and position order. */
async function insertPaper(tx: DbOrTx, testId: string, sections: AssembledSection[]) {
  const rows = sections.flatMap((s, section) =>
    s.questions.map((q, position) => ({ testId, section, position, sourceId: q.id, question: q.data })),
  );
  if (rows.length) await tx.insert(mockTestQuestions).values(rows);
}

/**
 * The test builder: a test is drafted from a pattern with questions picked from the bank or drawn
 * by rule, published (its content switched on, so it is sold and shown like any content), closed.
 */
export class MockTestService {
  private readonly deps: MockTestServiceDeps;

  constructor(deps: MockTestServiceDeps) {
    this.deps = deps;
  }

  async create(author: Reader, input: unknown): Promise<TestJson> {
    const body = parseWith(CreateTestSchema, input);
    const businessId = await instituteFor(author, body.businessId, this.deps.assignable);
    const sections = await this.assemble(author, body, businessId, new Map());
    checkTieBreakSubjects(body.tieBreaks, assembledSubjects(body.pattern, sections));
    const testId = await this.deps.db.transaction(async (tx) => {
      const [content] = await tx
        .insert(contents)
        .values({
          creatorId: author.id,
          type: "test",
          ...soldAs(body, businessId),
          // A draft is on no list until it is published.
          isActive: false,
        })
        .returning({ id: contents.id });
      await tx.insert(mockTests).values({ contentId: content.id, ...settingsOf(body, businessId, sections) });
      await insertPaper(tx, content.id, sections);
      return content.id;
    });
    return this.get(author, testId);
  }

  /**
   * A draft made again from the builder's body: its settings, sections and questions. Questions it
   * already holds keep the copy it was built with (even one since removed from the bank), unless
   * the draft moves to another institute: then every question must come from that one's bank.
   */
  async update(author: Reader, testId: string, input: unknown): Promise<TestJson> {
    const before = await this.get(author, testId, "write");
    const body = parseWith(CreateTestSchema, input);
    if (before.status !== "draft") throw conflict(TEST_TEXTS.notDraft);
    const businessId = await instituteFor(author, body.businessId, this.deps.assignable);
    const { db } = this.deps;
    if (businessId !== before.businessId) {
      const [bundled] = await db
        .select({ seriesId: seriesTests.seriesId })
        .from(seriesTests)
        .where(eq(seriesTests.testId, testId))
        .limit(1);
      if (bundled) throw conflict(TEST_TEXTS.inSeries);
    }
    const held =
      businessId === before.businessId
        ? await db
            .select({ sourceId: mockTestQuestions.sourceId, question: mockTestQuestions.question })
            .from(mockTestQuestions)
            .where(eq(mockTestQuestions.testId, testId))
        : [];
    const sections = await this.assemble(
      author,
      body,
      businessId,
      new Map(held.flatMap((q) => (q.sourceId ? [[q.sourceId, q.question] as const] : []))),
    );
    checkTieBreakSubjects(body.tieBreaks, assembledSubjects(body.pattern, sections));
    await db.transaction(async (tx) => {
      // The row lock orders this after a publish that came first, which then leaves nothing to change.
      const [still] = await tx
        .update(mockTests)
        .set({ ...settingsOf(body, businessId, sections), updatedAt: new Date() })
        .where(and(eq(mockTests.contentId, testId), eq(mockTests.status, "draft")))
        .returning({ id: mockTests.contentId });
      if (!still) throw conflict(TEST_TEXTS.notDraft);
      await tx
        .update(contents)
        .set({ ...soldAs(body, businessId), updatedAt: new Date() })
        .where(eq(contents.id, testId));
      await tx.delete(mockTestQuestions).where(eq(mockTestQuestions.testId, testId));
      await insertPaper(tx, testId, sections);
    });
    this.deps.papers.forget(testId);
    return this.get(author, testId);
  }

  /** A draft thrown away: it was never sold or sat, so nothing else holds it. */
  async discard(author: Reader, testId: string): Promise<void> {
    const test = await this.get(author, testId, "write");
    if (test.status !== "draft") throw conflict(TEST_TEXTS.notDraft);
    await this.deps.db.transaction(async (tx) => {
      const [still] = await tx
        .select({ id: mockTests.contentId })
        .from(mockTests)
        .where(and(eq(mockTests.contentId, testId), eq(mockTests.status, "draft")))
        .for("update");
      if (!still) throw conflict(TEST_TEXTS.notDraft);
      await tx.delete(seriesTests).where(eq(seriesTests.testId, testId));
      await tx.update(contents).set({ archivedAt: new Date(), updatedAt: new Date() }).where(eq(contents.id, testId));
    });
    this.deps.papers.forget(testId);
  }

  /**
   * The sections of a test from the builder's body: the pattern's when it sends none, questions
   * picked from the institute's bank or the author's own (or already held by the draft, `held`),
   * then drawn by rule from the same banks without repeats.
   */
  private async assemble(
    author: Reader,
    body: CreateTestInput,
    institute: string | null,
    held: ReadonlyMap<string, QuestionJson>,
  ): Promise<AssembledSection[]> {
    const { bank } = this.deps;
    const pattern = PATTERNS[body.pattern];
    const sectionsIn =
      body.sections ??
      pattern.sections.map((s) => ({
        name: s.name,
        subject: s.subject,
        questions: [],
        draw: [],
        marking: s.marking,
        attemptAny: s.attemptAny,
      }));
    const wanted = sectionsIn.flatMap((s) => s.questions);
    const fromBank = await bank.usable(
      author,
      institute,
      wanted.filter((id) => !held.has(id)),
    );
    const picked = new Map<string, QuestionJson>([
      ...[...fromBank].map(([id, row]) => [id, row.data] as const),
      ...[...held].filter(([id]) => wanted.includes(id)),
    ]);
    if (wanted.some((id) => !picked.has(id))) throw badRequest(TEST_TEXTS.unknownQuestions);

    const used = new Set(picked.keys());
    const sections: AssembledSection[] = [];
    for (const [index, input] of sectionsIn.entries()) {
      const fallback = pattern.sections[index]?.marking ?? PATTERNS.custom.sections[0].marking;
      const questions = input.questions.map((id) => ({ id, data: picked.get(id)! }));
      for (const rule of input.draw) {
        const drawn = await bank.draw(author, institute, rule, [...used]);
        if (drawn.length < rule.count) {
          const what = [rule.subject, rule.chapter, rule.difficulty, rule.type].filter(Boolean).join(", ") || "any";
          throw badRequest(TEST_TEXTS.tooFewToDraw(rule.count, drawn.length, what));
        }
        for (const row of drawn) {
          used.add(row.id);
          questions.push({ id: row.id, data: row.data });
        }
      }
      const subject = input.subject || undefined;
      const section: MockTestSection = {
        name: input.name,
        ...(subject ? { subject } : {}),
        marking: input.marking ?? fallback,
        ...(input.attemptAny ? { attemptAny: input.attemptAny } : {}),
      };
      for (const q of questions)
        if (!section.marking[q.data.type]) throw badRequest(TEST_TEXTS.noMarking(section.name, q.data.type));
      sections.push({ section, questions });
    }
    return sections;
  }

  /** A test the viewer may `action` (exam-access.ts: by its institute, never by who wrote it), or 404. */
  async get(viewer: Reader, testId: string, action: ExamAction = "read"): Promise<TestJson> {
    if (!isUuid(testId)) throw notFound(TEST_TEXTS.notFound);
    const [row] = await this.deps.db
      .select(testListColumns)
      .from(mockTests)
      .innerJoin(contents, eq(contents.id, mockTests.contentId))
      .leftJoin(centers, eq(centers.id, mockTests.centerId))
      .where(and(eq(mockTests.contentId, testId), isNull(contents.archivedAt), testsFor(viewer, action)));
    if (!row) throw notFound(TEST_TEXTS.notFound);
    return toTestJson(row);
  }

  /** The tests of the institutes the viewer holds a role in, and their own, newest first. */
  async listForTeam(viewer: Reader): Promise<TestJson[]> {
    const rows = await this.deps.db
      .select(testListColumns)
      .from(mockTests)
      .innerJoin(contents, eq(contents.id, mockTests.contentId))
      .leftJoin(centers, eq(centers.id, mockTests.centerId))
      .where(and(isNull(contents.archivedAt), testsFor(viewer, "read")))
      .orderBy(desc(mockTests.createdAt));
    return rows.map(toTestJson);
  }

  /** The paper with its keys and solutions, for the builder and the key decisions. */
  async paper(viewer: Reader, testId: string) {
    await this.get(viewer, testId);
    const rows = await this.deps.db
      .select()
      .from(mockTestQuestions)
      .where(eq(mockTestQuestions.testId, testId))
      .orderBy(mockTestQuestions.section, mockTestQuestions.position);
    return rows.map((row) => ({
      _id: row.id,
      section: row.section,
      position: row.position,
      sourceId: row.sourceId,
      ...row.question,
      policy: row.policy,
    }));
  }

  /** Checks the paper can be taken, then puts the test on sale and on show. */
  async publish(viewer: Reader, testId: string): Promise<TestJson> {
    const test = await this.get(viewer, testId, "write");
    if (test.status !== "draft") throw conflict(TEST_TEXTS.notDraft);
    for (const section of test.sections)
      if (section.questions === 0) throw badRequest(TEST_TEXTS.emptySection(section.name));
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(mockTests)
        .set({ status: "published", publishedAt: new Date(), updatedAt: new Date() })
        .where(eq(mockTests.contentId, testId));
      await tx.update(contents).set({ isActive: true, updatedAt: new Date() }).where(eq(contents.id, testId));
    });
    this.deps.papers.forget(testId);
    this.deps.catalogChanged(test.businessId);
    return this.get(viewer, testId);
  }

  /** No new attempts; those running finish on their own clock. */
  async close(viewer: Reader, testId: string): Promise<TestJson> {
    const test = await this.get(viewer, testId, "run");
    if (test.status !== "published") throw conflict(TEST_TEXTS.notPublished);
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(mockTests)
        .set({ status: "closed", updatedAt: new Date() })
        .where(eq(mockTests.contentId, testId));
      await tx.update(contents).set({ isActive: false, updatedAt: new Date() }).where(eq(contents.id, testId));
    });
    this.deps.papers.forget(testId);
    this.deps.catalogChanged(test.businessId);
    return this.get(viewer, testId);
  }

  /** Results of a "manual" test become visible to its students. */
  async publishResults(viewer: Reader, testId: string): Promise<TestJson> {
    await this.get(viewer, testId, "run");
    await this.deps.db.transaction(async (tx) => {
      const released = await tx
        .update(mockTests)
        .set({ resultsPublishedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(mockTests.contentId, testId), isNull(mockTests.resultsPublishedAt)))
        .returning({ id: mockTests.contentId });
      // Released once: a second click tells nobody again.
      if (released.length) await this.deps.resultsReleased(tx, testId);
    });
    this.deps.papers.forget(testId);
    return this.get(viewer, testId);
  }

  /**
   * A key decision after the test (dropped, several correct, key changed, or none to undo): every
   * attempt is scored again and ranked again.
   */
  async setPolicy(viewer: Reader, testId: string, questionId: string, input: unknown) {
    await this.get(viewer, testId, "run");
    const policy = parseWith(KeyPolicySchema, input);
    if (!isUuid(questionId)) throw notFound(TEST_TEXTS.notInTest);
    const [row] = await this.deps.db
      .select()
      .from(mockTestQuestions)
      .where(and(eq(mockTestQuestions.id, questionId), eq(mockTestQuestions.testId, testId)));
    if (!row) throw notFound(TEST_TEXTS.notInTest);
    if (policy.kind === "changed") {
      // The new key must be one the question could have had.
      const checked = v.safeParse(QuestionSchema, { ...row.question, answer: policy.answer });
      if (!checked.success) throw new HttpError(400, checked.issues[0].message);
    }
    if (policy.kind === "any-of" && row.question.type !== "single")
      throw badRequest("Several correct options apply to single-correct questions");
    if (policy.kind === "any-of" && policy.answers.some((a) => a >= (row.question.options?.length ?? 0)))
      throw badRequest("The answers must be options of the question");
    await this.deps.db
      .update(mockTestQuestions)
      .set({ policy: policy.kind === "none" ? null : (policy as KeyPolicy) })
      .where(eq(mockTestQuestions.id, questionId));
    await this.deps.rescore(testId);
    return { questionId, policy: policy.kind === "none" ? null : policy };
  }

  /**
   * How takers with the same score are ranked, on a draft or a published test: its sittings are
   * ranked again at once when they have been ranked already.
   */
  async setTieBreaks(viewer: Reader, testId: string, input: unknown): Promise<TestJson> {
    await this.get(viewer, testId, "run");
    const { tieBreaks } = parseWith(SetTieBreaksSchema, input);
    const paper = await this.deps.papers.get(testId);
    if (!paper) throw notFound(TEST_TEXTS.notFound);
    checkTieBreakSubjects(tieBreaks, paperSubjects(layoutOf(paper)));
    await this.deps.db
      .update(mockTests)
      .set({ tieBreaks, updatedAt: new Date() })
      .where(eq(mockTests.contentId, testId));
    this.deps.papers.forget(testId);
    await this.deps.rescore(testId);
    return this.get(viewer, testId);
  }

  /** Tests of these ids that exist, by id (for the student lists). */
  async byIds(ids: string[]): Promise<Map<string, TestJson>> {
    if (!ids.length) return new Map();
    const rows = await this.deps.db
      .select(testListColumns)
      .from(mockTests)
      .innerJoin(contents, eq(contents.id, mockTests.contentId))
      .leftJoin(centers, eq(centers.id, mockTests.centerId))
      .where(inArray(mockTests.contentId, ids));
    return new Map(rows.map((row) => [row.test.contentId, toTestJson(row)]));
  }
}
