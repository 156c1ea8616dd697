import mammoth from "mammoth";
import { zipSync } from "fflate";
import { checkZip, ZipFormatError, ZipLimitError, type ZipEntry } from "../parsing/zip-check.ts";
import { answerFromCell, checkAll, MAX_QUESTIONS_PER_FILE } from "./question-files.ts";
import { QUESTION_ARCHIVE_LIMITS, QUESTION_ARCHIVE_TEXTS, type QuestionArchiveResult } from "./question-archive.ts";
import { equationsAsLatex } from "./omml-latex.ts";

/**
 * A question bank kept in Word (.docx), as most institutes keep theirs (issue 38 §1;
 * docs/mock-tests.md, "Word files"). The document is checked as any ZIP upload is (zip-check:
 * entries, declared and real sizes), its equations become LaTeX (omml-latex.ts), mammoth reads
 * its text and pictures, and the questions are read from the paragraphs:
 *
 *     1. A ray of light falls on a mirror … (more paragraphs and pictures)
 *     (A) 30°    (B) 45°    (C) 60°    (D) 90°      — or one option a paragraph
 *     Answer: B                                       — "A, C" for several; a number for a numerical
 *     Solution: …                                     — optional, to the next question
 *     Subject: Physics   Chapter: Optics              — optional, each on its own line
 *
 * Pictures are stored as figures (QuestionImageService); equations Word could not give as Office
 * Math come as their pictures, which are refused when they are in a format a browser cannot show.
 */

export const DOCUMENT_TEXTS = {
  unreadable: "The file is not a readable Word document (.docx)",
  noQuestions: 'No questions found. Number each question ("1. …"), letter its options ("(A) …") and give "Answer: …".',
  noAnswer: 'The question has no "Answer:" line',
  tooLarge: `The Word file is too large (at most ${QUESTION_ARCHIVE_LIMITS.maxBytes / 1024 / 1024} MB).`,
} as const;

const QUESTION_START = /^(?:Q(?:uestion)?\.?\s*)?(\d{1,4})\s*[.)]\s*(.*)$/is;
const OPTION = /^\(?([A-F])\)\s*(.*)$|^([A-F])\.\s+(.*)$/s;
const ANSWER = /^(?:Answer|Ans|Correct answer|Key)\s*[:.–-]\s*(.+)$/is;
const SOLUTION = /^(?:Solution|Sol|Explanation|Hint)\s*[:.–-]\s*(.*)$/is;
const TAG = /^(Subject|Chapter|Topic|Difficulty)\s*:\s*(.+)$/i;

interface Draft {
  number: string;
  text: string[];
  options: string[];
  answer?: string;
  solution: string[];
  tags: Record<string, string>;
}

/** Paragraphs of mammoth's HTML as Markdown: pictures as figures, bold and italics, super- and subscripts as LaTeX. */
export function htmlParagraphs(html: string): string[] {
  return html
    .split(/<\/(?:p|li|h[1-6]|td|th|caption)>/)
    .map((block) =>
      decodeEntities(
        block
          .replace(/<img\b[^>]*?\bsrc="([^"]*)"[^>]*>/g, (_, src: string) => `![Figure](${src})`)
          .replace(/<br\s*\/?>/g, "\n")
          .replace(/<sup>([^<]*)<\/sup>/g, (_, x: string) => `$^{${x}}$`)
          .replace(/<sub>([^<]*)<\/sub>/g, (_, x: string) => `$_{${x}}$`)
          .replace(/<\/?strong>/g, "**")
          .replace(/<\/?em>/g, "*")
          .replace(/<[^>]+>/g, ""),
      )
        .replace(/\*\*\s*\*\*/g, "")
        .trim(),
    )
    .filter(Boolean);
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x[0-9a-f]+|#\d+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower === "amp") return "&";
    if (lower === "lt") return "<";
    if (lower === "gt") return ">";
    if (lower === "quot") return '"';
    if (lower === "#39") return "'";
    const code = lower.startsWith("#x") ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** "(A) 30° (B) 45° (C) 60°" on one line as its options. */
function optionsOf(paragraph: string): string[] | null {
  if (!OPTION.test(paragraph)) return null;
  const parts = paragraph.split(/(?:^|\s+)\(([A-F])\)\s*/).slice(1);
  if (parts.length >= 4) {
    const options: string[] = [];
    for (let i = 0; i < parts.length; i += 2) options.push(parts[i + 1].trim());
    return options;
  }
  const match = OPTION.exec(paragraph)!;
  return [(match[2] ?? match[4]).trim()];
}

/** The questions the paragraphs hold, as drafts (before the schema checks them). */
export function draftsOf(paragraphs: string[]): Draft[] {
  const drafts: Draft[] = [];
  let current: Draft | null = null;
  let part: "text" | "options" | "solution" = "text";
  for (const paragraph of paragraphs) {
    const start = QUESTION_START.exec(paragraph);
    // A number starts the next question, not a numbered step of a solution.
    const next = current === null || Number(start?.[1]) === Number(current.number) + 1;
    if (start && next && (current === null || part !== "text" || current.answer !== undefined)) {
      current = { number: start[1], text: [start[2].trim()], options: [], solution: [], tags: {} };
      drafts.push(current);
      part = "text";
      continue;
    }
    if (!current) continue; // A title or instructions before the first question.
    const tag = TAG.exec(paragraph);
    const answer = ANSWER.exec(paragraph);
    const solution = SOLUTION.exec(paragraph);
    const options = part !== "solution" && current.answer === undefined ? optionsOf(paragraph) : null;
    if (tag) current.tags[tag[1].toLowerCase()] = tag[2].trim();
    else if (answer) current.answer = answer[1].trim();
    else if (solution) {
      part = "solution";
      if (solution[1].trim()) current.solution.push(solution[1].trim());
    } else if (options) {
      part = "options";
      current.options.push(...options);
    } else if (part === "solution") current.solution.push(paragraph);
    else if (part === "text") current.text.push(paragraph);
    else current.options[current.options.length - 1] += `\n${paragraph}`;
  }
  return drafts;
}

function questionOf(draft: Draft): unknown {
  const answerCell = draft.answer ?? "";
  const letters = answerCell.split(/[\s,]+/).filter(Boolean);
  const type = draft.options.length === 0 ? "numerical" : letters.length > 1 ? "multiple" : "single";
  const tags = {
    subject: draft.tags.subject,
    chapter: draft.tags.chapter,
    topic: draft.tags.topic,
    difficulty: draft.tags.difficulty?.toLowerCase(),
  };
  return {
    type,
    text: draft.text.filter(Boolean).join("\n\n"),
    options: draft.options.length ? draft.options : undefined,
    answer: draft.answer === undefined ? undefined : answerFromCell(type, answerCell),
    solution: draft.solution.length ? draft.solution.join("\n\n") : undefined,
    tags: Object.values(tags).some(Boolean) ? tags : undefined,
  };
}

/** Reads a Word file's questions and the pictures they show. Runs on a parsing thread. */
export async function readQuestionDocument(bytes: Uint8Array): Promise<QuestionArchiveResult> {
  if (bytes.byteLength > QUESTION_ARCHIVE_LIMITS.maxBytes) return { ok: false, tooLarge: DOCUMENT_TEXTS.tooLarge };
  const unreadable: QuestionArchiveResult = {
    ok: false,
    problems: [{ where: "The file", message: DOCUMENT_TEXTS.unreadable }],
  };
  let entries: ZipEntry[];
  try {
    entries = checkZip(bytes, QUESTION_ARCHIVE_LIMITS, () => true);
  } catch (error) {
    if (error instanceof ZipLimitError) {
      const { tooManyEntries, unpacksTooFar } = QUESTION_ARCHIVE_TEXTS;
      return { ok: false, tooLarge: error.limit === "entries" ? tooManyEntries : unpacksTooFar };
    }
    if (error instanceof ZipFormatError) return unreadable;
    throw error;
  }
  if (!entries.some((entry) => entry.name === "word/document.xml")) return unreadable;
  // The equations are turned to text before mammoth reads the document (it passes them over).
  const parts: Record<string, Uint8Array> = {};
  for (const entry of entries) {
    parts[entry.name] =
      entry.name === "word/document.xml"
        ? new TextEncoder().encode(equationsAsLatex(entry.data!.toString("utf8")))
        : new Uint8Array(entry.data!);
  }
  const files: Record<string, Uint8Array> = {};
  let html: string;
  try {
    const converted = await mammoth.convertToHtml(
      { buffer: Buffer.from(zipSync(parts, { level: 0 })) },
      {
        externalFileAccess: false,
        ignoreEmptyParagraphs: true,
        convertImage: mammoth.images.imgElement(async (image) => {
          const extension = image.contentType.split("/")[1]?.replace(/^x-/, "").replace("jpeg", "jpg") ?? "bin";
          const name = `picture-${Object.keys(files).length + 1}.${extension.replace(/[^a-z0-9+]/gi, "")}`;
          files[name] = new Uint8Array(await image.readAsBuffer());
          return { src: name };
        }),
      },
    );
    html = converted.value;
  } catch {
    return unreadable;
  }
  const drafts = draftsOf(htmlParagraphs(html));
  if (drafts.length === 0) return { ok: false, problems: [{ where: "The file", message: DOCUMENT_TEXTS.noQuestions }] };
  if (drafts.length > MAX_QUESTIONS_PER_FILE) return checkAll(drafts, () => "The file");
  const where = (index: number) => `Question ${drafts[index].number}`;
  const missing = drafts.findIndex((draft) => draft.answer === undefined);
  if (missing >= 0) return { ok: false, problems: [{ where: where(missing), message: DOCUMENT_TEXTS.noAnswer }] };
  const read = checkAll(drafts.map(questionOf), where);
  return read.ok ? { ...read, files } : read;
}
