import { and, desc, eq, ilike, inArray, isNull, notInArray, or, sql, type SQL } from "drizzle-orm";
import { questions } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { containsPattern } from "../../db/like.ts";
import { badRequest, HttpError, notFound, parseWith } from "../../http/errors.ts";
import { QuestionSchema, type QuestionJson } from "#common/mock-tests/question.ts";
import { CopyQuestionsSchema } from "#common/mock-tests/test-input.ts";
import type { Reader } from "../content-access.ts";
import { isUuid } from "#common/validation/ids.ts";
import {
  MAX_QUESTIONS_PER_FILE,
  questionFileFormat,
  writeQuestionFile,
  type QuestionFileFormat,
} from "./question-files.ts";
import { bankFor, examRowsFor } from "./exam-access.ts";
import type { QuestionImageService } from "./question-images.ts";
import type { QuestionArchiveResult } from "./question-archive.ts";
import {
  readQuestionArchiveInWorker,
  readQuestionDocumentInWorker,
  readQuestionFileInWorker,
} from "./question-readers.ts";

export type QuestionRow = typeof questions.$inferSelect;

/** A question as the API answers it: its JSON, its id, author, bank (`businessId`, null: the author's own) and times. */
export interface StoredQuestionJson extends QuestionJson {
  _id: string;
  authorId: string;
  businessId: string | null;
  createdAt: string;
  updatedAt: string;
}

export const QUESTION_TEXTS = {
  notFound: "Question not found",
  unknownFormat: "Upload a .csv, .xlsx or .json file, a .zip of a sheet and its images, or a Word (.docx) file",
  badFile: "Nothing was imported: fix these rows and upload the file again.",
} as const;

/** Which banks a list or a draw reads. */
export interface BankScope {
  /** "own" (the viewer's own bank) or an institute's id; every bank the viewer may read when left out. */
  bank?: string;
  /** The questions a test of this institute (null: a test of no institute) may be built from: its bank and the builder's own. */
  usableIn?: string | null;
}

export interface QuestionFilter extends BankScope {
  subject?: string;
  chapter?: string;
  difficulty?: string;
  type?: string;
  q?: string;
  limit?: number;
  offset?: number;
}

export function toStoredQuestionJson(row: QuestionRow): StoredQuestionJson {
  return {
    ...row.data,
    _id: row.id,
    authorId: row.authorId,
    businessId: row.centerId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function columnsOf(question: QuestionJson) {
  return {
    type: question.type,
    data: question,
    subject: question.tags?.subject || null,
    chapter: question.tags?.chapter || null,
    topic: question.tags?.topic || null,
    difficulty: question.tags?.difficulty || null,
  };
}

/**
 * The viewer's questions in these banks (not removed): an institute's bank to those with a role in
 * it (exam-access.ts), their own bank to its author alone. A test is built from its institute's
 * bank and its builder's own bank; nothing crosses to another institute unless copied (`copy`).
 */
export function questionsIn(viewer: Reader, scope: BankScope = {}): SQL {
  const own = and(isNull(questions.centerId), eq(questions.authorId, viewer.id))!;
  return and(
    examRowsFor(viewer, "read", { institute: questions.centerId, author: questions.authorId }),
    isNull(questions.archivedAt),
    scope.bank === undefined ? undefined : scope.bank === "own" ? own : eq(questions.centerId, scope.bank),
    scope.usableIn === undefined
      ? undefined
      : scope.usableIn === null
        ? own
        : or(own, eq(questions.centerId, scope.usableIn)),
  )!;
}

/**
 * The question bank: creators and owners write questions one by one, import a file (all rows or
 * none) or copy questions between banks they hold a role in.
 */
export class QuestionBankService {
  private readonly db: Db;
  /** Where imported figures are stored (a ZIP's files, URLs in the sheet, a Word file's images). */
  private readonly images?: QuestionImageService;

  constructor(db: Db, images?: QuestionImageService) {
    this.db = db;
    this.images = images;
  }

  /** A question written into a bank: `bank` as `bankFor` takes it (on an institute's domain, that institute's by default). */
  async create(author: Reader, input: unknown, bank?: string): Promise<StoredQuestionJson> {
    const question = parseWith(QuestionSchema, input) as QuestionJson;
    const centerId = await bankFor(this.db, author, bank);
    const [row] = await this.db
      .insert(questions)
      .values({ authorId: author.id, centerId, ...columnsOf(question) })
      .returning();
    return toStoredQuestionJson(row);
  }

  /** Every row of the file checked; a bad row names itself and nothing is imported. */
  async import(
    author: Reader,
    file: { name: string; bytes: Uint8Array },
    bank?: string,
  ): Promise<StoredQuestionJson[]> {
    const centerId = await bankFor(this.db, author, bank);
    const format = questionFileFormat(file.name);
    if (!format) throw badRequest(QUESTION_TEXTS.unknownFormat);
    const read: QuestionArchiveResult =
      format === "zip"
        ? await readQuestionArchiveInWorker(file.bytes)
        : format === "docx"
          ? await readQuestionDocumentInWorker(file.bytes)
          : await readQuestionFileInWorker(format, file.bytes);
    if (!read.ok && "tooLarge" in read) throw new HttpError(413, read.tooLarge);
    if (!read.ok) throw badRequest(QUESTION_TEXTS.badFile, { problems: read.problems });
    let imported = read.questions;
    let figures: string[] = [];
    if (this.images) {
      const withFigures = await this.images.importFigures(centerId, read.questions, read.where, read.files);
      if (!withFigures.ok) throw badRequest(QUESTION_TEXTS.badFile, { problems: withFigures.problems });
      imported = withFigures.questions;
      figures = withFigures.keys;
    }
    let rows: QuestionRow[];
    try {
      rows = await this.db
        .insert(questions)
        .values(imported.map((question) => ({ authorId: author.id, centerId, ...columnsOf(question) })))
        .returning();
    } catch (error) {
      await this.images?.forget(figures);
      throw error;
    }
    return rows.map(toStoredQuestionJson);
  }

  /**
   * Copies of questions the viewer may read, written to a bank they may write to, as theirs (the
   * one way a question crosses from one institute's bank to another's), in the order asked.
   */
  async copy(viewer: Reader, input: unknown): Promise<StoredQuestionJson[]> {
    const body = parseWith(CopyQuestionsSchema, input);
    const centerId = await bankFor(this.db, viewer, body.to);
    const ids = [...new Set(body.questions)];
    const found = new Map(
      (
        await this.db
          .select()
          .from(questions)
          .where(and(questionsIn(viewer), inArray(questions.id, ids)))
      ).map((row) => [row.id, row]),
    );
    if (found.size !== ids.length) throw notFound(QUESTION_TEXTS.notFound);
    const rows = await this.db
      .insert(questions)
      .values(ids.map((id) => ({ authorId: viewer.id, centerId, ...columnsOf(found.get(id)!.data) })))
      .returning();
    return rows.map(toStoredQuestionJson);
  }

  async list(viewer: Reader, filter: QuestionFilter = {}): Promise<{ questions: StoredQuestionJson[]; total: number }> {
    const where = and(
      questionsIn(viewer, filter),
      filter.subject ? eq(questions.subject, filter.subject) : undefined,
      filter.chapter ? eq(questions.chapter, filter.chapter) : undefined,
      filter.difficulty ? eq(questions.difficulty, filter.difficulty) : undefined,
      filter.type ? eq(questions.type, filter.type as QuestionRow["type"]) : undefined,
      filter.q ? ilike(sql`${questions.data}->>'text'`, containsPattern(filter.q)) : undefined,
    );
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(questions)
        .where(where)
        .orderBy(desc(questions.createdAt), desc(questions.id))
        .limit(filter.limit ?? 50)
        .offset(filter.offset ?? 0),
      this.db
        .select({ total: sql<number>`count(*)::int` })
        .from(questions)
        .where(where),
    ]);
    return { questions: rows.map(toStoredQuestionJson), total };
  }

  /** The questions with these ids the viewer may put in a test of `institute`, by id (those they may not are missing). */
  async usable(viewer: Reader, institute: string | null, ids: string[]): Promise<Map<string, QuestionRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select()
      .from(questions)
      .where(and(questionsIn(viewer, { usableIn: institute }), inArray(questions.id, ids)));
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Up to `count` questions usable in a test of `institute` matching the tags, at random, leaving out `exclude`. */
  async draw(
    viewer: Reader,
    institute: string | null,
    rule: { subject?: string; chapter?: string; difficulty?: string; type?: string; count: number },
    exclude: string[],
  ): Promise<QuestionRow[]> {
    return this.db
      .select()
      .from(questions)
      .where(
        and(
          questionsIn(viewer, { usableIn: institute }),
          rule.subject ? eq(questions.subject, rule.subject) : undefined,
          rule.chapter ? eq(questions.chapter, rule.chapter) : undefined,
          rule.difficulty ? eq(questions.difficulty, rule.difficulty) : undefined,
          rule.type ? eq(questions.type, rule.type as QuestionRow["type"]) : undefined,
          exclude.length ? notInArray(questions.id, exclude) : undefined,
        ),
      )
      .orderBy(sql`random()`)
      .limit(rule.count);
  }

  async get(viewer: Reader, id: string): Promise<StoredQuestionJson> {
    if (!isUuid(id)) throw notFound(QUESTION_TEXTS.notFound);
    const [row] = await this.db
      .select()
      .from(questions)
      .where(and(questionsIn(viewer), eq(questions.id, id)));
    if (!row) throw notFound(QUESTION_TEXTS.notFound);
    return toStoredQuestionJson(row);
  }

  /**
   * Only its author edits or removes a question, and only while they may write to its bank;
   * tests keep the copy they were built with.
   */
  private editable(author: Reader, id: string): SQL {
    return and(
      eq(questions.id, id),
      eq(questions.authorId, author.id),
      isNull(questions.archivedAt),
      examRowsFor(author, "write", { institute: questions.centerId, author: questions.authorId }),
    )!;
  }

  async update(author: Reader, id: string, input: unknown): Promise<StoredQuestionJson> {
    const question = parseWith(QuestionSchema, input) as QuestionJson;
    if (!isUuid(id)) throw notFound(QUESTION_TEXTS.notFound);
    const [row] = await this.db
      .update(questions)
      .set({ ...columnsOf(question), updatedAt: new Date() })
      .where(this.editable(author, id))
      .returning();
    if (!row) throw notFound(QUESTION_TEXTS.notFound);
    return toStoredQuestionJson(row);
  }

  async remove(author: Reader, id: string): Promise<void> {
    if (!isUuid(id)) throw notFound(QUESTION_TEXTS.notFound);
    const [row] = await this.db
      .update(questions)
      .set({ archivedAt: new Date() })
      .where(this.editable(author, id))
      .returning({ id: questions.id });
    if (!row) throw notFound(QUESTION_TEXTS.notFound);
  }

  async export(viewer: Reader, format: QuestionFileFormat, filter: QuestionFilter = {}): Promise<Uint8Array> {
    const { questions: found } = await this.list(viewer, { ...filter, limit: MAX_QUESTIONS_PER_FILE, offset: 0 });
    return writeQuestionFile(
      format,
      found.map(
        ({ _id: _, authorId: __, businessId: ___, createdAt: ____, updatedAt: _____, ...question }) => question,
      ),
    );
  }
}
