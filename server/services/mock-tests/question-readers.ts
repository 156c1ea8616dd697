import pLimit from "p-limit";
import { runInWorker, WorkerLimitError, type WorkerLimits } from "../parsing/bounded-worker.ts";
import { QUESTION_FILE_LIMIT_TEXTS, type QuestionFileFormat, type QuestionFileResult } from "./question-files.ts";
import type { QuestionArchiveResult } from "./question-archive.ts";

/**
 * The question bank's file readers (a sheet, a ZIP with figures, a Word document), each on a
 * parsing thread of its own (server/services/parsing/bounded-worker.ts): a file that would need more heap
 * or time than its reader's limits is refused as too large, and the server goes on answering
 * while it is read. The readers themselves run only on those threads.
 */
type Reader = "questionFile" | "questionArchive" | "questionDocument";

/** A workbook's cells are parsed; an archive's figures are only copied out; a document's XML is the largest. */
const LIMITS: Record<Reader, WorkerLimits> = {
  questionFile: { timeMs: 15_000, heapMb: 256, threads: 2 },
  questionArchive: { timeMs: 20_000, heapMb: 256, threads: 1 },
  questionDocument: { timeMs: 20_000, heapMb: 384, threads: 1 },
};

/** Files read at the same time, per reader: each holds a thread and its heap. */
const slots: Record<Reader, ReturnType<typeof pLimit>> = {
  questionFile: pLimit(LIMITS.questionFile.threads),
  questionArchive: pLimit(LIMITS.questionArchive.threads),
  questionDocument: pLimit(LIMITS.questionDocument.threads),
};

/** `run` in its reader's slot; a thread that ran out of heap or time is the file's "too large". */
function guarded<T>(
  reader: Reader,
  run: (limits: WorkerLimits) => Promise<T>,
): Promise<T | { ok: false; tooLarge: string }> {
  return slots[reader](async () => {
    try {
      return await run(LIMITS[reader]);
    } catch (error) {
      if (!(error instanceof WorkerLimitError)) throw error;
      return {
        ok: false as const,
        tooLarge: error.limit === "time" ? QUESTION_FILE_LIMIT_TEXTS.tooSlow : QUESTION_FILE_LIMIT_TEXTS.tooBig,
      };
    }
  });
}

export const readQuestionFileInWorker = (format: QuestionFileFormat, bytes: Uint8Array): Promise<QuestionFileResult> =>
  guarded("questionFile", (limits) => runInWorker("questionFile", { format, bytes }, limits));

export const readQuestionArchiveInWorker = (bytes: Uint8Array): Promise<QuestionArchiveResult> =>
  guarded("questionArchive", (limits) => runInWorker("questionArchive", { bytes }, limits));

export const readQuestionDocumentInWorker = (bytes: Uint8Array): Promise<QuestionArchiveResult> =>
  guarded("questionDocument", (limits) => runInWorker("questionDocument", { bytes }, limits));
