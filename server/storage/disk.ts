import { createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { Writable, finished } from "node:stream";
import { FileBlocks } from "./file-blocks.ts";
import { OpenFiles, type OpenFileLease } from "./open-files.ts";
import { readableToWeb } from "./web-stream.ts";
import { limitStream, type ByteRange, type ObjectInfo, type Storage, type StoredObject } from "./types.ts";

/** Ranges up to this size are read whole into memory and sent as one buffer; larger ones stream. */
const WHOLE_READ_BYTES = 1024 * 1024;
/** What a streamed read asks the file for at a time. */
const STREAM_CHUNK_BYTES = 256 * 1024;

/** Where unfinished writes go, under the root: one folder per process (`.partial/<pid>/`). */
export const PARTIAL_DIR = ".partial";

/**
 * Files under `<root>/<key>`; writes go to a temporary file in this process's own folder under
 * `<root>/.partial/` and are renamed into place when complete (so a key's file is always whole).
 * A write cut short is removed at once; one cut short by a crash is removed by
 * `removeLeftovers()` when the server starts. Reads
 * go through files kept open (OpenFiles), and ranges up to 1 MiB through blocks kept in memory
 * (FileBlocks, `cacheBytes`; none when 0): a video's ranges cost one read each, or none.
 */
export class DiskStorage implements Storage {
  readonly kind = "disk" as const;
  private readonly root: string;
  private readonly openFiles: OpenFiles;
  private readonly blocks: FileBlocks | null;
  /** This process's unfinished writes. */
  private readonly partials: string;

  constructor(root: string, options: { openFiles?: OpenFiles; cacheBytes?: number } = {}) {
    this.root = resolve(root);
    this.partials = join(this.root, PARTIAL_DIR, String(process.pid));
    this.openFiles = options.openFiles ?? new OpenFiles();
    this.blocks = options.cacheBytes ? new FileBlocks(options.cacheBytes) : null;
  }

  private pathOf(key: string): string {
    const full = resolve(this.root, key);
    if (!full.startsWith(this.root + sep) || full.startsWith(join(this.root, PARTIAL_DIR) + sep))
      throw new Error(`Invalid storage key: ${key}`);
    return full;
  }

  async put(key: string, body: ReadableStream<Uint8Array>, options: { maxBytes: number }): Promise<ObjectInfo> {
    const target = this.pathOf(key);
    await Promise.all([mkdir(dirname(target), { recursive: true }), mkdir(this.partials, { recursive: true })]);
    const temp = join(this.partials, crypto.randomUUID());
    let size = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const file = createWriteStream(temp);
    const closed = new Promise<void>((resolve) => file.once("close", () => resolve()));
    try {
      await body
        .pipeThrough(limitStream(options.maxBytes))
        .pipeThrough(counter)
        .pipeTo(Writable.toWeb(file) as WritableStream<Uint8Array>);
      await rename(temp, target);
      this.openFiles.forget(target);
      return { size };
    } catch (error) {
      // The file may still be opening: remove it only once the stream is closed, or it could reappear.
      file.destroy();
      await closed;
      await rm(temp, { force: true });
      throw error;
    }
  }

  /**
   * Removes the unfinished writes of processes that are gone (a crash, a kill -9), and any left
   * under this process's id by an earlier process that had it (a container's server is often
   * pid 1 every time): call it before this process stores anything. Folders of other running
   * processes sharing the root (cluster workers) are left alone. Reads one small folder, never
   * the stored files. Answers how many files were removed.
   */
  async removeLeftovers(isRunning: (pid: number) => boolean = processRunning): Promise<number> {
    const base = join(this.root, PARTIAL_DIR);
    const folders = await readdir(base, { withFileTypes: true }).catch(() => []);
    let removed = 0;
    for (const folder of folders) {
      const pid = Number(folder.name);
      if (folder.isDirectory() && pid !== process.pid && Number.isSafeInteger(pid) && pid > 0 && isRunning(pid))
        continue;
      const path = join(base, folder.name);
      removed += folder.isDirectory() ? (await readdir(path).catch(() => [])).length : 1;
      await rm(path, { recursive: true, force: true });
    }
    return removed;
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    const file = await this.openFiles.acquire(this.pathOf(key));
    if (!file) return null;
    const start = range?.start ?? 0;
    const length = range ? range.end - range.start + 1 : file.size;
    if (length > WHOLE_READ_BYTES) return { body: streamFrom(file, start, length), size: file.size };
    try {
      const readAt = (from: number, bytes: number) => readFully(file, from, bytes);
      const body = this.blocks
        ? await this.blocks.read(file.identity, file.size, start, length, readAt)
        : await readAt(start, length);
      return { body, size: file.size };
    } finally {
      file.release();
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const file = await this.openFiles.acquire(this.pathOf(key));
    if (!file) return null;
    file.release();
    return { size: file.size };
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    this.openFiles.forget(path);
    await rm(path, { force: true });
  }
}

/** Whether a process with this id exists (EPERM: it does, and belongs to another user). */
function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** `length` bytes from `start`; fewer only if the file ends first. */
async function readFully(file: OpenFileLease, start: number, length: number): Promise<Buffer<ArrayBuffer>> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.handle.read(buffer, filled, length - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}

/** `length` bytes from `start` as a stream, read as the reader pulls; the lease ends with the stream. */
function streamFrom(file: OpenFileLease, start: number, length: number): ReadableStream<Uint8Array> {
  // The handle is shared with other reads: the stream reads at its own positions and leaves it open.
  const stream = file.handle.createReadStream({
    start,
    end: start + length - 1,
    autoClose: false,
    highWaterMark: STREAM_CHUNK_BYTES,
  });
  // autoClose: false also means no close event after the end: `finished` sees the end, an error or a cancel.
  finished(stream, () => file.release());
  return readableToWeb(stream);
}
