import { checkZip, ZipFormatError, ZipLimitError, type ZipEntry } from "../parsing/zip-check.ts";
import { readQuestionFile, type QuestionFileResult, type RowProblem } from "./question-files.ts";
import { figureTargets, isRemoteFigure, isStoredFigure } from "./question-figures.ts";

/**
 * A question sheet (CSV or XLSX) in a ZIP beside its figures (issue 38 §1): the sheet's Markdown
 * names them (`![Figure](ray-diagram.png)`, or a path inside the ZIP). The archive is checked by
 * server/services/parsing/zip-check.ts before anything expands (entries, declared and real sizes) and read
 * on a parsing thread with a heap and a time limit, as a workbook is (decision 0031).
 */

export const QUESTION_ARCHIVE_LIMITS = {
  /** The ZIP as uploaded. */
  maxBytes: 32 * 1024 * 1024,
  /** The sheet and up to a few hundred figures (a file holds at most 2,000 questions). */
  maxEntries: 1_000,
  /** What the entries expand to together: an 8 MB sheet and its figures at their 5 MB limit. */
  maxExpandedBytes: 96 * 1024 * 1024,
};

const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;
export const QUESTION_ARCHIVE_TEXTS = {
  tooLarge: `The ZIP file is too large (at most ${mb(QUESTION_ARCHIVE_LIMITS.maxBytes)}).`,
  unpacksTooFar: `The ZIP unpacks to more than ${mb(QUESTION_ARCHIVE_LIMITS.maxExpandedBytes)}. Split the questions into smaller files and import each.`,
  tooManyEntries: `The ZIP holds more than ${QUESTION_ARCHIVE_LIMITS.maxEntries.toLocaleString("en-IN")} files. Split the questions into smaller files and import each.`,
  unreadable: "The file is not a readable ZIP archive",
  oneSheet: "The ZIP must hold one question sheet (.csv or .xlsx) beside its images",
  missing: (name: string) => `The image "${name}" is not in the ZIP`,
} as const;

/** A sheet's result, with the bytes of the ZIP's files its questions name (by the name they use). */
export type QuestionArchiveResult = QuestionFileResult & { files?: Record<string, Uint8Array> };

const SHEET = /\.(csv|xlsx)$/i;
const ignored = (name: string) =>
  name.endsWith("/") || name.startsWith("__MACOSX/") || /(^|\/)\.[^/]*$/.test(name) || /(^|\/)Thumbs\.db$/i.test(name);

/** Reads the ZIP: its one sheet, and the files the sheet's questions name. Runs on a parsing thread. */
export async function readQuestionArchive(bytes: Uint8Array): Promise<QuestionArchiveResult> {
  const texts = QUESTION_ARCHIVE_TEXTS;
  if (bytes.byteLength > QUESTION_ARCHIVE_LIMITS.maxBytes) return { ok: false, tooLarge: texts.tooLarge };
  let entries: ZipEntry[];
  try {
    entries = checkZip(bytes, QUESTION_ARCHIVE_LIMITS, () => true);
  } catch (error) {
    if (error instanceof ZipLimitError)
      return { ok: false, tooLarge: error.limit === "entries" ? texts.tooManyEntries : texts.unpacksTooFar };
    if (error instanceof ZipFormatError)
      return { ok: false, problems: [{ where: "The file", message: texts.unreadable }] };
    throw error;
  }
  const files = entries.filter((entry) => !ignored(entry.name));
  const sheets = files.filter((entry) => SHEET.test(entry.name));
  if (sheets.length !== 1) return { ok: false, problems: [{ where: "The file", message: texts.oneSheet }] };
  const [sheet] = sheets;
  const read = await readQuestionFile(sheet.name.toLowerCase().endsWith(".csv") ? "csv" : "xlsx", sheet.data!);
  if (!read.ok) return read;

  const folder = sheet.name.includes("/") ? sheet.name.slice(0, sheet.name.lastIndexOf("/") + 1) : "";
  const byName = new Map(files.map((entry) => [entry.name, entry]));
  const byLowerName = new Map(files.map((entry) => [entry.name.toLowerCase(), entry]));
  /** A name as the sheet writes it: a path in the ZIP, or one beside the sheet; letter case aside. */
  const find = (target: string) => {
    const name = decodeURIComponent(target.replace(/^\.\//, ""));
    for (const candidate of [name, folder + name])
      if (byName.has(candidate) || byLowerName.has(candidate.toLowerCase()))
        return byName.get(candidate) ?? byLowerName.get(candidate.toLowerCase());
    return undefined;
  };
  const named: Record<string, Uint8Array> = {};
  const problems: RowProblem[] = [];
  read.questions.forEach((question, index) => {
    for (const target of figureTargets(question)) {
      if (isRemoteFigure(target) || isStoredFigure(target) || target in named) continue;
      let entry: ZipEntry | undefined;
      try {
        entry = find(target);
      } catch {
        entry = undefined; // A malformed %-escape names no file.
      }
      if (entry?.data) named[target] = new Uint8Array(entry.data);
      else if (problems.length < 50) problems.push({ where: read.where[index], message: texts.missing(target) });
    }
  });
  return problems.length ? { ok: false, problems } : { ...read, files: named };
}
