import { Piscina } from "piscina";
import type { QuestionFileFormat } from "../mock-tests/question-files.ts";
import type { WatermarkOwner } from "../pdf-watermark.ts";

/**
 * The parsing worker (./bounded-worker.ts sends it tasks): whatever parses a file someone
 * uploaded, with limits of its own inside, and the thread's heap and time around it. Each task
 * loads its parser when first asked, so a thread that only reads question files never loads pdf-lib.
 */
const tasks = {
  questionFile: async (input: { format: QuestionFileFormat; bytes: Uint8Array }) =>
    (await import("../mock-tests/question-files.ts")).readQuestionFile(input.format, input.bytes),
  questionArchive: async (input: { bytes: Uint8Array }) =>
    (await import("../mock-tests/question-archive.ts")).readQuestionArchive(input.bytes),
  questionDocument: async (input: { bytes: Uint8Array }) =>
    (await import("../mock-tests/question-document.ts")).readQuestionDocument(input.bytes),
  stampPdf: async (input: { bytes: Uint8Array; owner: WatermarkOwner }) =>
    (await import("../pdf-watermark.ts")).stampPdf(input.bytes, input.owner),
};

export type TaskName = keyof typeof tasks;
export type TaskInput<T extends TaskName> = Parameters<(typeof tasks)[T]>[0];
export type TaskOutput<T extends TaskName> = Awaited<ReturnType<(typeof tasks)[T]>>;

// pdf-lib warns on the console for every object it cannot read, and a crafted file has
// hundreds of thousands: this thread's console is its own, and says nothing.
for (const level of ["log", "info", "warn", "error", "debug"] as const) console[level] = () => {};

export default async function run({ task, input }: { task: TaskName; input: never }): Promise<unknown> {
  const output: unknown = await tasks[task](input);
  const bytes = (output as { bytes?: unknown }).bytes;
  if (!(bytes instanceof Uint8Array)) return output;
  // The stamped copy goes back to the server's thread without being copied (piscina's "movable").
  const movable = { [Piscina.transferableSymbol]: [bytes.buffer], [Piscina.valueSymbol]: output };
  // piscina types its symbols as plain `symbol`, so the object is not seen as its Transferable.
  return Piscina.move(movable as unknown as Parameters<typeof Piscina.move>[0]);
}
