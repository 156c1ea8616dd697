import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import Busboy from "busboy";
import { HttpError, badRequest } from "../http/errors.ts";
import { SNIFF_BYTES } from "./magic.ts";
import { readableToWeb } from "./web-stream.ts";
import { TooLargeError, type Storage } from "./types.ts";

/** Where one accepted file goes, decided from its first bytes and the fields that came before it. */
export interface FilePlan {
  key: string;
  maxBytes: number;
  contentType: string;
  tooLargeMessage: string;
}

/**
 * Decides about one file field: return a plan to store it, null to skip it, or throw an
 * HttpError (400) to refuse the whole upload before any of its bytes are kept.
 */
export type FileRule = (head: Uint8Array, fields: Readonly<Record<string, string>>) => FilePlan | null;

export interface ReceivedFile {
  key: string;
  size: number;
  contentType: string;
  /** The name the browser gave, cleaned; never used as a storage key. */
  fileName: string;
}

export interface MultipartOptions {
  storage: Storage;
  /** Accepted file fields; any other file field is read past and dropped. */
  files: Record<string, FileRule>;
  /** A declared Content-Length above this is refused (413) before anything is read. */
  maxBodyBytes: number;
  tooLargeMessage: string;
  maxFieldBytes?: number;
}

export const NOT_MULTIPART = "Please send the upload as multipart/form-data.";
export const UNREADABLE = "The upload could not be read. Please try again.";
export const INTERRUPTED = "The upload was interrupted. Please try again.";

/**
 * Streams a multipart/form-data body: text fields are collected, each accepted file goes
 * straight to storage under a server-made key (its type judged by its first bytes, its size
 * capped while it flows). Nothing is buffered whole. If anything fails (a refused type, a file
 * over its limit, a broken or abandoned connection), every file already stored is deleted and
 * the error is thrown: an upload is kept entirely or not at all.
 *
 * `signal` is the request's: aborted when the client's connection closes before the upload is
 * received, which fails it at once (the body stream also breaks then, but only once it is read
 * again, and storage may be holding it back).
 */
export function receiveMultipart(
  input: { body: ReadableStream<Uint8Array> | null; headers: Headers; signal?: AbortSignal },
  options: MultipartOptions,
): Promise<{ fields: Record<string, string>; files: Record<string, ReceivedFile> }> {
  const contentType = input.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !input.body) return Promise.reject(badRequest(NOT_MULTIPART));
  const declared = Number(input.headers.get("content-length") ?? Number.NaN);
  if (declared > options.maxBodyBytes) return Promise.reject(new HttpError(413, options.tooLargeMessage));

  let parser: Busboy.Busboy;
  try {
    parser = Busboy({
      headers: { "content-type": contentType },
      // Browsers send file names as raw UTF-8.
      defParamCharset: "utf8",
      limits: { fieldSize: options.maxFieldBytes ?? 64 * 1024, fields: 30, files: 5, parts: 40, headerPairs: 20 },
    });
  } catch {
    return Promise.reject(badRequest(NOT_MULTIPART));
  }
  const { storage } = options;
  const source = Readable.fromWeb(input.body as NodeReadableStream<Uint8Array>);

  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = Object.create(null);
    const files: Record<string, ReceivedFile> = Object.create(null);
    const pending = new Set<Promise<void>>();
    // A field sent twice is taken once: the first part wins, the others are read past.
    const seen = new Set<string>();
    let failed = false;
    const { signal } = input;
    const interrupted = () => fail(badRequest(INTERRUPTED));

    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      signal?.removeEventListener("abort", interrupted);
      // Stop reading the request (without destroying the connection, so the answer can still be sent)
      // and end the file being written, which makes storage discard its partial bytes.
      source.unpipe(parser);
      source.pause();
      parser.destroy(error instanceof Error ? error : new Error(String(error)));
      void Promise.allSettled([...pending])
        .then(() => Promise.allSettled(Object.values(files).map((f) => storage.delete(f.key))))
        .then(() => reject(error));
    };

    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(badRequest(`The field ${name} is too long.`));
      fields[name] = value;
    });

    parser.on("file", (name, stream, info) => {
      const rule = options.files[name];
      if (failed || !rule || seen.has(name)) {
        stream.resume();
        return;
      }
      seen.add(name);
      const task = (async () => {
        const { head, rest } = await peek(readableToWeb(stream), SNIFF_BYTES);
        // An empty part is what a browser sends for a file input left empty.
        if (head.byteLength === 0) return;
        const plan = rule(head.subarray(0, SNIFF_BYTES), fields);
        if (!plan) {
          await drain(rest);
          return;
        }
        try {
          const { size } = await storage.put(plan.key, rest, {
            maxBytes: plan.maxBytes,
            contentType: plan.contentType,
          });
          files[name] = { key: plan.key, size, contentType: plan.contentType, fileName: cleanFileName(info.filename) };
          if (failed) await storage.delete(plan.key).catch(() => {});
        } catch (error) {
          throw error instanceof TooLargeError ? new HttpError(413, plan.tooLargeMessage) : error;
        }
      })().catch(fail);
      pending.add(task);
      void task.finally(() => pending.delete(task));
    });

    for (const event of ["partsLimit", "filesLimit", "fieldsLimit"] as const) {
      parser.on(event, () => fail(badRequest("The upload has too many parts.")));
    }
    parser.on("error", (error) => fail(error instanceof HttpError ? error : badRequest(UNREADABLE)));
    parser.on("close", () => {
      void Promise.all([...pending]).then(() => {
        if (failed) return;
        // Received whole: from here on the files belong to the caller.
        signal?.removeEventListener("abort", interrupted);
        resolve({ fields: { ...fields }, files: { ...files } });
      });
    });
    source.on("error", interrupted);
    if (signal?.aborted) return interrupted();
    signal?.addEventListener("abort", interrupted, { once: true });
    source.pipe(parser);
  });
}

/** Reads at least `n` bytes (or the whole stream if shorter) and gives them back with a stream of everything. */
async function peek(
  stream: ReadableStream<Uint8Array>,
  n: number,
): Promise<{ head: Uint8Array; rest: ReadableStream<Uint8Array> }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let ended = false;
  while (length < n) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    chunks.push(value);
    length += value.byteLength;
  }
  const head = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length);
  const rest = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (head.byteLength) controller.enqueue(head);
        if (ended) controller.close();
      },
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { head, rest };
}

async function drain(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  while (!(await reader.read()).done);
}

export function cleanFileName(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  // Cut by characters, not UTF-16 units: half an emoji would be stored as "�".
  // eslint-disable-next-line no-control-regex
  const cleaned = Array.from(base.replace(/[\u0000-\u001f\u007f"]/g, "").trim())
    .slice(0, 200)
    .join("");
  return cleaned || "file";
}
