import { Hono, type Context } from "hono";
import * as v from "valibot";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { errorBody, jsonBody } from "../http/errors.ts";
import { limitBody } from "../middleware/body-limit.ts";
import { input, operation } from "./openapi.ts";
import { idParam } from "./guards.ts";
import { QuestionSchema } from "#common/mock-tests/question.ts";
import { QUESTION_TYPES } from "#common/mock-tests/marking.ts";
import { CopyQuestionsSchema } from "#common/mock-tests/test-input.ts";
import { BankQuery, bankParam, TEAM_ONLY, writers } from "./mock-test-team.ts";
import { deskReader } from "./creator-desk.ts";
import { uploadedFile } from "./uploaded-file.ts";
import { QUESTION_TEXTS } from "../services/mock-tests/question-bank.ts";
import type { QuestionFileFormat } from "../services/mock-tests/question-files.ts";
import { QUESTION_ARCHIVE_LIMITS, QUESTION_ARCHIVE_TEXTS } from "../services/mock-tests/question-archive.ts";

const number = (label: string, min: number, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.toNumber(`${label} must be a number`),
      v.integer(`${label} must be a whole number`),
      v.minValue(min, `${label} must be at least ${min}`),
      v.maxValue(max, `${label} must be at most ${max}`),
    ),
  );

/** ?bank, ?subject, ?chapter, ?difficulty, ?type, ?q (words in the text), ?limit, ?offset of the bank's list. */
export const QuestionQuery = v.object({
  bank: bankParam,
  subject: v.optional(v.pipe(v.string(), v.maxLength(100))),
  chapter: v.optional(v.pipe(v.string(), v.maxLength(100))),
  difficulty: v.optional(v.picklist(["easy", "medium", "hard"], 'Difficulty must be "easy", "medium" or "hard"')),
  type: v.optional(v.picklist(QUESTION_TYPES, 'Type must be "single", "multiple" or "numerical"')),
  q: v.optional(v.pipe(v.string(), v.maxLength(200))),
  limit: number("limit", 1, 200),
  offset: number("offset", 0, 1_000_000),
});

const ExportQuery = v.object({
  ...QuestionQuery.entries,
  format: v.optional(v.picklist(["csv", "xlsx", "json"], 'Format must be "csv", "xlsx" or "json"'), "csv"),
});

const FILE_TYPES: Record<QuestionFileFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  json: "application/json",
};

const QUESTION_NOT_FOUND = { ...TEAM_ONLY, 404: QUESTION_TEXTS.notFound };

/** /api/questions: the question bank of creators and institute owners (issue 29). */
export function questionsRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const guardWriters = writers(services, database.db);
  const bank = services.questionBank;

  api.get(
    "/",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "The question banks the caller may read: their own and those of the institutes they hold a role in (on an institute's domain, its bank), newest first",
      responses: { 200: "{questions: Question[], total}", 400: "Invalid query", ...TEAM_ONLY },
    }),
    guardWriters,
    input("query", QuestionQuery),
    async (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(await bank.list(deskReader(c), c.req.valid("query")));
    },
  );

  api.post(
    "/",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "Write a question into a bank (?bank): single, multiple or numerical; Markdown text with $…$ LaTeX; options, answer, solution, tags, Hindi",
      body: QuestionSchema,
      responses: {
        201: "{success, questions: [Question]}",
        400: "The question's problems, named, or a bank the caller may not write to",
        ...TEAM_ONLY,
      },
    }),
    guardWriters,
    input("query", BankQuery),
    async (c) => {
      const question = await bank.create(deskReader(c), await jsonBody(c), c.req.valid("query").bank);
      return c.json({ success: true, questions: [question] }, 201);
    },
  );

  api.post(
    "/import",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "Import a CSV, XLSX or JSON file of questions into a bank (?bank; docs/mock-tests.md), a .zip of a sheet beside the images it names, or a Word (.docx) file: every row checked, figures stored, nothing imported when any row is bad",
      body: { multipart: { file: "the .csv, .xlsx, .json, .zip or .docx file" } },
      responses: {
        201: "{success, questions: Question[]}",
        400: "Not a question file, {problems: [{where, message}]} naming each bad row, or a bank the caller may not write to",
        ...TEAM_ONLY,
        413: "The file is too large (at most 8 MB; a ZIP 32 MB), or asks for more than the import's limits (docs/mock-tests.md)",
      },
    }),
    guardWriters,
    input("query", BankQuery),
    // A sheet is held to 8 MB by the import itself; a ZIP of a sheet and its images may be larger.
    limitBody(QUESTION_ARCHIVE_LIMITS.maxBytes + 64 * 1024, (c: Context) =>
      c.json(errorBody(QUESTION_ARCHIVE_TEXTS.tooLarge), 413),
    ),
    async (c) => {
      const file = await uploadedFile(c, "file", "Choose a question file to import");
      const imported = await bank.import(
        deskReader(c),
        { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) },
        c.req.valid("query").bank,
      );
      return c.json({ success: true, questions: imported }, 201);
    },
  );

  api.get(
    "/export",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary: "Export the bank (or the questions matching the filters) as CSV, XLSX or JSON, in the import's format",
      responses: {
        200: { description: "The file", content: Object.values(FILE_TYPES).map((type) => type.split(";")[0]) },
        400: "Invalid query",
        ...TEAM_ONLY,
      },
    }),
    guardWriters,
    input("query", ExportQuery),
    async (c) => {
      const { format, ...filter } = c.req.valid("query");
      const bytes = await bank.export(deskReader(c), format, filter);
      c.header("Content-Type", FILE_TYPES[format]);
      c.header("Content-Disposition", `attachment; filename="questions.${format}"`);
      c.header("Cache-Control", "no-store");
      return c.body(bytes as Uint8Array<ArrayBuffer>);
    },
  );

  api.post(
    "/copy",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "Copy questions from banks the caller may read into one they may write to (\"own\" or an institute's id): the one way a question moves from one institute's bank to another's; the copies are the caller's",
      body: CopyQuestionsSchema,
      responses: {
        201: "{success, questions: Question[]} (the copies, in the order asked)",
        400: "Invalid input, or a bank the caller may not write to",
        ...QUESTION_NOT_FOUND,
      },
    }),
    guardWriters,
    async (c) => {
      const copies = await bank.copy(deskReader(c), await jsonBody(c));
      return c.json({ success: true, questions: copies }, 201);
    },
  );

  api.get(
    "/:id",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary: "One question of the bank",
      responses: { 200: "{question}", ...QUESTION_NOT_FOUND },
    }),
    guardWriters,
    async (c) => c.json({ question: await bank.get(deskReader(c), idParam(c, QUESTION_TEXTS.notFound)) }),
  );

  api.put(
    "/:id",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary: "Edit a question (its author only); tests keep the copy they were built with",
      body: QuestionSchema,
      responses: { 200: "{success, question}", 400: "The question's problems, named", ...QUESTION_NOT_FOUND },
    }),
    guardWriters,
    async (c) => {
      const id = idParam(c, QUESTION_TEXTS.notFound);
      return c.json({ success: true, question: await bank.update(deskReader(c), id, await jsonBody(c)) });
    },
  );

  api.delete(
    "/:id",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary: "Remove a question from the bank (its author only); tests keep their copy",
      responses: { 200: "{success}", ...QUESTION_NOT_FOUND },
    }),
    guardWriters,
    async (c) => {
      await bank.remove(deskReader(c), idParam(c, QUESTION_TEXTS.notFound));
      return c.json({ success: true });
    },
  );

  return api;
}
