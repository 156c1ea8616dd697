import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { readQuestionFile, type QuestionFileFormat } from "../services/mock-tests/question-files.ts";
import { stampPdf, type WatermarkOwner } from "../services/pdf-watermark.ts";

/**
 * The parsing worker (./bounded-worker.ts runs one task per worker): whatever parses a file
 * someone uploaded, with limits of its own inside, and the worker's heap and time around it.
 */
const tasks = {
  questionFile: (input: { format: QuestionFileFormat; bytes: Uint8Array }) =>
    readQuestionFile(input.format, input.bytes),
  stampPdf: (input: { bytes: Uint8Array; owner: WatermarkOwner }) => stampPdf(input.bytes, input.owner),
};

export type TaskName = keyof typeof tasks;
export type TaskInput<T extends TaskName> = Parameters<(typeof tasks)[T]>[0];
export type TaskOutput<T extends TaskName> = Awaited<ReturnType<(typeof tasks)[T]>>;

if (!isMainThread && parentPort && workerData?.task in tasks) {
  const { task, input } = workerData as { task: TaskName; input: never };
  const output: unknown = await tasks[task](input);
  const bytes = (output as { bytes?: unknown }).bytes;
  parentPort.postMessage(output, bytes instanceof Uint8Array ? [bytes.buffer as ArrayBuffer] : []);
}
