import { parse as parseCsv } from "csv-parse/sync";
import { stringify as stringifyCsv } from "csv-stringify/sync";
import { readSheet } from "read-excel-file/node";
import writeXlsxFile from "write-excel-file/node";
import * as v from "valibot";
import { checkZip, ZipFormatError, ZipLimitError, type ZipEntry } from "../parsing/zip-check.ts";
import { parseInput, type InputIssue } from "#common/validation/storable.ts";
import {
  MAX_DECIMAL_PLACES,
  MAX_OPTIONS,
  QuestionSchema,
  type NumericalKey,
  type QuestionJson,
} from "#common/mock-tests/question.ts";

/**
 * The question bank's files (docs/mock-tests.md, "Question files"): a spreadsheet (CSV or XLSX) with
 * one question per row, or JSON in the API's question format. Import checks every row and imports
 * nothing when any row is bad; export writes the same formats, so a file round-trips.
 */

const LETTERS = "ABCDEF".slice(0, MAX_OPTIONS);
const optionColumns = (prefix: string) => [...LETTERS].map((letter) => `${prefix}${letter.toLowerCase()}`);

export const QUESTION_COLUMNS = [
  "type",
  "text",
  ...optionColumns("option_"),
  "answer",
  "decimals",
  "solution",
  "subject",
  "chapter",
  "topic",
  "difficulty",
  "hindi_text",
  ...optionColumns("hindi_option_"),
] as const;

export type QuestionFileFormat = "csv" | "xlsx" | "json";

export interface RowProblem {
  /** "Row 4" (spreadsheets count the header as row 1) or "Question 3" (JSON). */
  where: string;
  message: string;
}

/** `tooLarge`: the file asks for more than the import's limits (a 413 with that message). */
export type QuestionFileResult =
  /** `where`: each question's row ("Row 4") or number ("Question 3"), for problems found after reading. */
  | { ok: true; questions: QuestionJson[]; where: string[] }
  | { ok: false; problems: RowProblem[] }
  | { ok: false; tooLarge: string };

export const MAX_QUESTIONS_PER_FILE = 2_000;
const MAX_PROBLEMS = 50;

/**
 * What a question file may ask of the import, whatever its format (docs/mock-tests.md, "Question
 * files"; the figures behind them are in docs/performance.md, "Uploaded files").
 */
export const QUESTION_FILE_LIMITS = {
  /** The file as uploaded. */
  maxBytes: 8 * 1024 * 1024,
  /** An .xlsx's parts, and what they expand to together: the text of an 8 MB CSV and its markup. */
  maxEntries: 256,
  maxExpandedBytes: 32 * 1024 * 1024,
  /** Rows read, blank ones included (a file holds at most MAX_QUESTIONS_PER_FILE questions). */
  maxRows: 10_000,
  /** Columns of a row (a question file has QUESTION_COLUMNS.length). */
  maxColumns: 100,
  /** Characters of one CSV row: every text of a question at its longest fits. */
  maxRowChars: 500_000,
  /** Nesting of a JSON file: {"questions": [{"hindi": {"options": [...]}}]} is four deep. */
  maxJsonDepth: 16,
};

const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;
const count = (n: number) => n.toLocaleString("en-IN");
export const QUESTION_FILE_LIMIT_TEXTS = {
  fileTooLarge: `The file is too large (at most ${mb(QUESTION_FILE_LIMITS.maxBytes)}).`,
  unpacksTooFar: `The workbook unpacks to more than ${mb(QUESTION_FILE_LIMITS.maxExpandedBytes)}. Split it into smaller files and import each.`,
  tooManyParts: `The workbook has more than ${count(QUESTION_FILE_LIMITS.maxEntries)} parts. Copy the questions into a new workbook and import that.`,
  tooManyRows: `The file has more than ${count(QUESTION_FILE_LIMITS.maxRows)} rows. A file can hold at most ${count(MAX_QUESTIONS_PER_FILE)} questions.`,
  tooManyColumns: `The file has more than ${count(QUESTION_FILE_LIMITS.maxColumns)} columns. A question file has ${QUESTION_COLUMNS.length}.`,
  rowTooLong: `A row of the file is too long (at most ${count(QUESTION_FILE_LIMITS.maxRowChars)} characters).`,
  tooSlow: "The file takes too long to read. Split it into smaller files and import each.",
  tooBig: "The file needs too much memory to read. Split it into smaller files and import each.",
} as const;

/** What an import takes: a question file, a ZIP of a sheet and its figures, or a Word document. */
export type QuestionImportFormat = QuestionFileFormat | "zip" | "docx";

/** The format a file name says it is in, or null. */
export function questionFileFormat(fileName: string): QuestionImportFormat | null {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return extension === "csv" ||
    extension === "xlsx" ||
    extension === "json" ||
    extension === "zip" ||
    extension === "docx"
    ? extension
    : null;
}

// ---- The answer column: "B", "A, C", "12", "2.25 to 2.35", "9.8 ± 0.05", "2; 3" ----

const NUMBER = String.raw`[-−]?(?:\d+(?:\.\d*)?|\.\d+)`;
const toNumber = (text: string) => Number(text.replace("−", "-"));

export function answerFromCell(type: string, cell: string): unknown {
  const value = cell.trim();
  if (type === "single")
    return LETTERS.includes(value.toUpperCase()) && value.length === 1 ? LETTERS.indexOf(value.toUpperCase()) : value;
  if (type === "multiple") {
    const parts = value.split(/[\s,]+/).filter(Boolean);
    return parts.every((p) => p.length === 1 && LETTERS.includes(p.toUpperCase()))
      ? parts.map((p) => LETTERS.indexOf(p.toUpperCase()))
      : value;
  }
  let match = new RegExp(`^(${NUMBER})$`).exec(value);
  if (match) return toNumber(match[1]);
  match = new RegExp(`^(${NUMBER})\\s*to\\s*(${NUMBER})$`, "i").exec(value);
  if (match) return { min: toNumber(match[1]), max: toNumber(match[2]) };
  match = new RegExp(`^(${NUMBER})\\s*(?:±|\\+-|\\+/-)\\s*(${NUMBER})$`).exec(value);
  if (match) return { value: toNumber(match[1]), tolerance: toNumber(match[2]) };
  if (value.includes(";")) {
    const parts = value.split(";").map((p) => p.trim());
    if (parts.every((p) => new RegExp(`^${NUMBER}$`).test(p))) return parts.map(toNumber);
  }
  return value;
}

function answerToCell(question: QuestionJson): string {
  const { answer } = question;
  if (question.type === "single") return LETTERS[answer as number];
  if (question.type === "multiple") return (answer as number[]).map((i) => LETTERS[i]).join(", ");
  const key = answer as NumericalKey;
  if (typeof key === "number") return String(key);
  if (Array.isArray(key)) return key.join("; ");
  if ("min" in key) return `${key.min} to ${key.max}`;
  return key.tolerance === undefined ? String(key.value) : `${key.value} ± ${key.tolerance}`;
}

// ---- Rows ----

type Row = Partial<Record<(typeof QUESTION_COLUMNS)[number], string>>;

/** A spreadsheet cell that starts like a formula is written with a leading apostrophe; reading removes it. */
const FORMULA_START = /^[=+\-@]/;
const fromCell = (cell: string | undefined) => {
  const text = (cell ?? "").trim();
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
};
const toCell = (text: string | undefined) => (text && FORMULA_START.test(text) ? `'${text}` : (text ?? ""));

function rowToQuestion(row: Row): unknown {
  const cell = (name: (typeof QUESTION_COLUMNS)[number]) => fromCell(row[name]);
  const type = cell("type").toLowerCase();
  const options = optionColumns("option_")
    .map((name) => cell(name as never))
    .filter(Boolean);
  const hindiOptions = optionColumns("hindi_option_")
    .map((name) => cell(name as never))
    .filter(Boolean);
  const decimalsCell = cell("decimals");
  const rule = /^(\d+)\s+(round|truncate)$/i.exec(decimalsCell);
  // An unreadable rule is passed on as it is, for the schema to name.
  const decimals = rule ? { places: Number(rule[1]), mode: rule[2].toLowerCase() } : decimalsCell || undefined;
  const optional = (text: string) => text || undefined;
  const tags = {
    subject: optional(cell("subject")),
    chapter: optional(cell("chapter")),
    topic: optional(cell("topic")),
    difficulty: optional(cell("difficulty").toLowerCase()),
  };
  return {
    type,
    text: cell("text"),
    options: options.length ? options : undefined,
    answer: answerFromCell(type, cell("answer")),
    decimals,
    solution: optional(cell("solution")),
    tags: Object.values(tags).some(Boolean) ? tags : undefined,
    hindi: cell("hindi_text")
      ? { text: cell("hindi_text"), options: hindiOptions.length ? hindiOptions : undefined }
      : undefined,
  };
}

function questionToRow(question: QuestionJson): string[] {
  const row: Row = {
    type: question.type,
    text: question.text,
    answer: answerToCell(question),
    decimals: question.decimals ? `${question.decimals.places} ${question.decimals.mode}` : "",
    solution: question.solution,
    subject: question.tags?.subject,
    chapter: question.tags?.chapter,
    topic: question.tags?.topic,
    difficulty: question.tags?.difficulty,
    hindi_text: question.hindi?.text,
  };
  optionColumns("option_").forEach((name, i) => (row[name as keyof Row] = question.options?.[i]));
  optionColumns("hindi_option_").forEach((name, i) => (row[name as keyof Row] = question.hindi?.options?.[i]));
  // The answer column is written by us ("-3", "2.25 to 2.35") and read back as it is.
  return QUESTION_COLUMNS.map((name) => (name === "answer" ? (row[name] ?? "") : toCell(row[name])));
}

// ---- Whole files ----

/** A schema's field ("options.2", "tags.chapter") as the sheet's column ("option_c", "chapter"). */
function columnOf(field: string): string | undefined {
  const [top, second, third] = field.split(".");
  if (top === "options" && second !== undefined) return `option_${LETTERS[Number(second)]?.toLowerCase() ?? "a"}`;
  if (top === "hindi")
    return second === "options" && third !== undefined
      ? `hindi_option_${LETTERS[Number(third)]?.toLowerCase() ?? "a"}`
      : "hindi_text";
  if (top === "tags") return second;
  if (["type", "text", "answer", "decimals", "solution"].includes(top)) return top;
  return undefined;
}

/**
 * A problem in a spreadsheet's words (a walk finding of issue 38 §6): its columns and the forms its
 * cells take (letters for options, "2.25 to 2.35"), not the API's JSON fields and option numbers.
 */
function inSheetWords(issue: InputIssue, item: unknown): string {
  const type = (item as { type?: unknown }).type;
  const field = issue.field ?? "";
  const top = field.split(".")[0];
  if (top === "answer" || /\(0 for the first\)|\{value, tolerance\}/.test(issue.message)) {
    if (type === "single")
      return "The answer column must be the letter of one filled option column (A for option_a, B for option_b, …)";
    if (type === "multiple")
      return 'The answer column must list the letters of the correct option columns, such as "A, C"';
    return 'The answer column must be a number ("12"), several numbers ("2; 3"), a range ("2.25 to 2.35") or a value with a tolerance ("9.8 ± 0.05")';
  }
  if (/at least 2 options/.test(issue.message)) return "Fill at least two option columns (option_a and option_b)";
  if (/numerical question has no options/i.test(issue.message))
    return "A numerical question leaves the option columns (option_a to option_f) empty";
  if (top === "decimals")
    return `The decimals column must be places and a rule, such as "2 round" or "2 truncate" (at most ${MAX_DECIMAL_PLACES} places)`;
  // "Question text is required", "Type must be …" already speak of what the sheet has.
  const column = columnOf(field);
  return column && !["type", "text", "difficulty"].includes(column)
    ? `Column ${column}: ${issue.message}`
    : issue.message;
}

export function checkAll(
  items: unknown[],
  where: (index: number) => string,
  /** Whether the items are a spreadsheet's rows, whose problems name its columns. */
  sheet = false,
): QuestionFileResult {
  if (items.length === 0) return { ok: false, problems: [{ where: "The file", message: "The file has no questions" }] };
  if (items.length > MAX_QUESTIONS_PER_FILE) {
    return {
      ok: false,
      problems: [
        {
          where: "The file",
          message: `A file can hold at most ${MAX_QUESTIONS_PER_FILE.toLocaleString("en-IN")} questions`,
        },
      ],
    };
  }
  const questions: QuestionJson[] = [];
  const problems: RowProblem[] = [];
  const places = items.map((_, index) => where(index));
  items.forEach((item, index) => {
    const result = parseInput(QuestionSchema, item);
    if (result.success) questions.push(result.output as QuestionJson);
    else if (problems.length < MAX_PROBLEMS) {
      problems.push({
        where: where(index),
        message: [...new Set(result.issues.map((issue) => (sheet ? inSheetWords(issue, item) : issue.message)))].join(
          "; ",
        ),
      });
    }
  });
  return problems.length ? { ok: false, problems } : { ok: true, questions, where: places };
}

function rowsFromTable(table: string[][]): QuestionFileResult {
  const [header = [], ...body] = table;
  const names = header.map((name) =>
    String(name ?? "")
      .trim()
      .toLowerCase(),
  );
  const missing = ["type", "text", "answer"].filter((name) => !names.includes(name));
  if (missing.length) {
    return {
      ok: false,
      problems: [
        {
          where: "Row 1",
          message: `The header must name the columns ${missing.join(", ")} (see the question file format)`,
        },
      ],
    };
  }
  const unknown = names.filter((name) => name && !(QUESTION_COLUMNS as readonly string[]).includes(name));
  if (unknown.length)
    return { ok: false, problems: [{ where: "Row 1", message: `Unknown columns: ${unknown.join(", ")}` }] };
  const rows = body
    .map((cells, index) => ({
      line: index + 2,
      cells: cells.map((cell) => (cell === null || cell === undefined ? "" : String(cell))),
    }))
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ""));
  const items = rows.map(({ cells }) => rowToQuestion(Object.fromEntries(names.map((name, i) => [name, cells[i]]))));
  return checkAll(items, (index) => `Row ${rows[index].line}`, true);
}

const JsonFile = v.union([v.array(v.unknown()), v.object({ questions: v.array(v.unknown()) })]);

const unreadable = (what: string): QuestionFileResult => ({
  ok: false,
  problems: [{ where: "The file", message: what }],
});
const tooLarge = (message: string): QuestionFileResult => ({ ok: false, tooLarge: message });
const NOT_CSV = "The file is not a readable CSV file (UTF-8, comma-separated)";
const NOT_A_WORKBOOK = "The file is not a readable Excel workbook (.xlsx)";

/** A spreadsheet's cells, or why the file was refused before they were read. */
type Table = { table: string[][] } | { refused: QuestionFileResult };

/**
 * Reads a question file; every problem is named by its row or question number, and a file that
 * asks for more than QUESTION_FILE_LIMITS is refused before it is expanded or while it is read.
 * The import runs it on a worker thread (`readQuestionFileInWorker`), with a heap and a time limit.
 */
export async function readQuestionFile(format: QuestionFileFormat, bytes: Uint8Array): Promise<QuestionFileResult> {
  if (bytes.byteLength > QUESTION_FILE_LIMITS.maxBytes) return tooLarge(QUESTION_FILE_LIMIT_TEXTS.fileTooLarge);
  if (format === "json") return readJson(bytes);
  const read = format === "csv" ? csvTable(bytes) : await workbookTable(bytes);
  if ("refused" in read) return read.refused;
  if (read.table.length > QUESTION_FILE_LIMITS.maxRows) return tooLarge(QUESTION_FILE_LIMIT_TEXTS.tooManyRows);
  return rowsFromTable(read.table);
}

function readJson(bytes: Uint8Array): QuestionFileResult {
  let parsed: unknown;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    // A question is a few levels deep; millions of nested brackets take JSON.parse seconds.
    if (jsonDepth(text) > QUESTION_FILE_LIMITS.maxJsonDepth)
      return unreadable("The JSON nests too deeply to be a question file");
    parsed = JSON.parse(text);
  } catch {
    return unreadable("The file is not valid JSON");
  }
  if (!v.is(JsonFile, parsed)) return unreadable('The JSON must be a list of questions or {"questions": [...]}');
  const items = Array.isArray(parsed) ? parsed : parsed.questions;
  return checkAll(items, (index) => `Question ${index + 1}`);
}

function csvTable(bytes: Uint8Array): Table {
  const limits = QUESTION_FILE_LIMITS;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { refused: unreadable(NOT_CSV) };
  }
  // csv-parse has no limit on columns, and a line of seven million commas takes it seconds.
  if (widestCsvRow(text) > limits.maxColumns) return { refused: tooLarge(QUESTION_FILE_LIMIT_TEXTS.tooManyColumns) };
  try {
    const table: string[][] = parseCsv(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: limits.maxRowChars,
      // One row past the limit is enough to know the file has too many.
      to: limits.maxRows + 1,
    });
    return { table };
  } catch (error) {
    const tooLong = (error as { code?: string }).code === "CSV_MAX_RECORD_SIZE";
    return { refused: tooLong ? tooLarge(QUESTION_FILE_LIMIT_TEXTS.rowTooLong) : unreadable(NOT_CSV) };
  }
}

async function workbookTable(bytes: Uint8Array): Promise<Table> {
  const limits = QUESTION_FILE_LIMITS;
  let entries: ZipEntry[];
  try {
    entries = checkZip(bytes, limits, (name) => name.endsWith(".xml"));
  } catch (error) {
    if (error instanceof ZipLimitError) {
      const { tooManyParts, unpacksTooFar } = QUESTION_FILE_LIMIT_TEXTS;
      return { refused: tooLarge(error.limit === "entries" ? tooManyParts : unpacksTooFar) };
    }
    if (error instanceof ZipFormatError) return { refused: unreadable(NOT_A_WORKBOOK) };
    throw error;
  }
  // read-excel-file makes a row for every row number up to the highest and a cell for every
  // column up to the furthest, whatever lies between: a sheet of a few bytes that names row
  // 100,000,000 would fill the memory. Every part is looked at, since any can be a sheet.
  const reach = furthestCell(entries);
  if (reach.row > limits.maxRows) return { refused: tooLarge(QUESTION_FILE_LIMIT_TEXTS.tooManyRows) };
  if (reach.column > limits.maxColumns) return { refused: tooLarge(QUESTION_FILE_LIMIT_TEXTS.tooManyColumns) };
  try {
    return { table: (await readSheet(Buffer.from(bytes), 1)) as unknown as string[][] };
  } catch {
    return { refused: unreadable(NOT_A_WORKBOOK) };
  }
}

/** How deeply a JSON text's arrays and objects nest (brackets outside strings). */
function jsonDepth(text: string): number {
  let deepest = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // The escaped character cannot end the string.
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The most cells any row of a CSV text has: commas outside quotes, counted per line. */
function widestCsvRow(text: string): number {
  let widest = 0;
  let cells = 1;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22)
      quoted = !quoted; // A doubled quote inside quotes flips twice.
    else if (quoted) continue;
    else if (c === 0x2c) cells += 1;
    else if (c === 0x0a) {
      widest = Math.max(widest, cells);
      cells = 1;
    }
  }
  return Math.max(widest, cells);
}

/** The highest row number and column number that any `<row r>` or `<c r>` of the parts names. */
function furthestCell(entries: ZipEntry[]): { row: number; column: number } {
  const reach = { row: 0, column: 0 };
  const reference = /<(?:[\w.-]+:)?(?:row|c)\s[^>]*?\br\s*=\s*["']([A-Za-z]*)(\d+)["']/g;
  for (const { data } of entries) {
    if (!data) continue;
    for (const [, letters, digits] of data.toString("latin1").matchAll(reference)) {
      reach.row = Math.max(reach.row, Number(digits));
      reach.column = Math.max(reach.column, columnNumber(letters));
    }
  }
  return reach;
}

/** "A" → 1, "Z" → 26, "AA" → 27. */
function columnNumber(letters: string): number {
  let n = 0;
  for (const letter of letters.toUpperCase()) n = n * 26 + (letter.charCodeAt(0) - 64);
  return n;
}

/**
 * What an import may take of a parsing thread: a full 32 MB workbook reads in under a second,
 * 2,000 questions in a tenth of one (docs/performance.md, "Uploaded files"); the time is there
 * for a machine under load, since the known bombs are refused by the checks within milliseconds.
 */
/** The bank (or part of it) as a file in the given format. */
export async function writeQuestionFile(format: QuestionFileFormat, questions: QuestionJson[]): Promise<Uint8Array> {
  if (format === "json") return new TextEncoder().encode(JSON.stringify({ questions }, null, 2) + "\n");
  const rows = [[...QUESTION_COLUMNS], ...questions.map(questionToRow)];
  if (format === "csv") return new TextEncoder().encode("\ufeff" + stringifyCsv(rows, { record_delimiter: "\r\n" }));
  return new Uint8Array(
    await writeXlsxFile(
      rows.map((row) => row.map((value) => ({ value, type: String }))),
      { sheet: "Questions" },
    ).toBuffer(),
  );
}
