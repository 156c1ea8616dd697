import { and, desc, eq, ilike, inArray, isNull, notInArray, sql, type SQL } from "drizzle-orm";
import { questions } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { badRequest, HttpError, notFound, parseWith } from "../../http/errors.ts";
import { QuestionSchema, type QuestionJson } from "#common/mock-tests/question.ts";
import {
  MAX_QUESTIONS_PER_FILE,
  questionFileFormat,
  readQuestionFileInWorker,
  writeQuestionFile,
  type QuestionFileFormat,
} from "./question-files.ts";
import { visibleToTeamOf } from "./team-scope.ts";

export type QuestionRow = typeof questions.$inferSelect;

/** A question as the API answers it: its JSON, its id, author and times. */
export interface StoredQuestionJson extends QuestionJson {
  _id: string;
  authorId: string;
  createdAt: string;
  updatedAt: string;
}

export const QUESTION_TEXTS = {
  notFound: "Question not found",
  unknownFormat: "Upload a .csv, .xlsx or .json file",
  badFile: "Nothing was imported: fix these rows and upload the file again.",
} as const;

export interface QuestionFilter {
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
 * The question bank: creators and owners write questions one by one or import a file (all rows or
 * none); each sees their own and their teams' questions.
 */
export class QuestionBankService {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async create(authorId: string, input: unknown): Promise<StoredQuestionJson> {
    const question = parseWith(QuestionSchema, input) as QuestionJson;
    const [row] = await this.db
      .insert(questions)
      .values({ authorId, ...columnsOf(question) })
      .returning();
    return toStoredQuestionJson(row);
  }

  /** Every row of the file checked; a bad row names itself and nothing is imported. */
  async import(authorId: string, file: { name: string; bytes: Uint8Array }): Promise<StoredQuestionJson[]> {
    const format = questionFileFormat(file.name);
    if (!format) throw badRequest(QUESTION_TEXTS.unknownFormat);
    const read = await readQuestionFileInWorker(format, file.bytes);
    if (!read.ok && "tooLarge" in read) throw new HttpError(413, read.tooLarge);
    if (!read.ok) throw badRequest(QUESTION_TEXTS.badFile, { problems: read.problems });
    const rows = await this.db
      .insert(questions)
      .values(read.questions.map((question) => ({ authorId, ...columnsOf(question) })))
      .returning();
    return rows.map(toStoredQuestionJson);
  }

  private visible(viewerId: string): SQL {
    return and(visibleToTeamOf(questions.authorId, viewerId), isNull(questions.archivedAt))!;
  }

  async list(
    viewerId: string,
    filter: QuestionFilter = {},
  ): Promise<{ questions: StoredQuestionJson[]; total: number }> {
    const like = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const where = and(
      this.visible(viewerId),
      filter.subject ? eq(questions.subject, filter.subject) : undefined,
      filter.chapter ? eq(questions.chapter, filter.chapter) : undefined,
      filter.difficulty ? eq(questions.difficulty, filter.difficulty) : undefined,
      filter.type ? eq(questions.type, filter.type as QuestionRow["type"]) : undefined,
      filter.q ? ilike(sql`${questions.data}->>'text'`, like(filter.q)) : undefined,
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

  /** The questions with these ids the viewer may use, by id (those they may not are missing). */
  async usable(viewerId: string, ids: string[]): Promise<Map<string, QuestionRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select()
      .from(questions)
      .where(and(this.visible(viewerId), inArray(questions.id, ids)));
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Up to `count` visible questions matching the tags, at random, leaving out `exclude`. */
  async draw(
    viewerId: string,
    rule: { subject?: string; chapter?: string; difficulty?: string; type?: string; count: number },
    exclude: string[],
  ): Promise<QuestionRow[]> {
    return this.db
      .select()
      .from(questions)
      .where(
        and(
          this.visible(viewerId),
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

  async get(viewerId: string, id: string): Promise<StoredQuestionJson> {
    const [row] = await this.db
      .select()
      .from(questions)
      .where(and(this.visible(viewerId), eq(questions.id, id)));
    if (!row) throw notFound(QUESTION_TEXTS.notFound);
    return toStoredQuestionJson(row);
  }

  /** Only the author edits or removes a question; tests keep the copy they were built with. */
  async update(authorId: string, id: string, input: unknown): Promise<StoredQuestionJson> {
    const question = parseWith(QuestionSchema, input) as QuestionJson;
    const [row] = await this.db
      .update(questions)
      .set({ ...columnsOf(question), updatedAt: new Date() })
      .where(and(eq(questions.id, id), eq(questions.authorId, authorId), isNull(questions.archivedAt)))
      .returning();
    if (!row) throw notFound(QUESTION_TEXTS.notFound);
    return toStoredQuestionJson(row);
  }

  async remove(authorId: string, id: string): Promise<void> {
    const [row] = await this.db
      .update(questions)
      .set({ archivedAt: new Date() })
      .where(and(eq(questions.id, id), eq(questions.authorId, authorId), isNull(questions.archivedAt)))
      .returning({ id: questions.id });
    if (!row) throw notFound(QUESTION_TEXTS.notFound);
  }

  async export(viewerId: string, format: QuestionFileFormat, filter: QuestionFilter = {}): Promise<Uint8Array> {
    const { questions: found } = await this.list(viewerId, { ...filter, limit: MAX_QUESTIONS_PER_FILE, offset: 0 });
    return writeQuestionFile(
      format,
      found.map(({ _id: _, authorId: __, createdAt: ___, updatedAt: ____, ...question }) => question),
    );
  }
}
