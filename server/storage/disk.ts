import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { Writable } from "node:stream";
import { readableToWeb } from "./web-stream.ts";
import { limitStream, type ByteRange, type ObjectInfo, type Storage } from "./types.ts";

/** Files under `<root>/<key>`; writes go to a temporary name and are renamed when complete. */
export class DiskStorage implements Storage {
  readonly kind = "disk" as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    const full = resolve(this.root, key);
    if (!full.startsWith(this.root + sep)) throw new Error(`Invalid storage key: ${key}`);
    return full;
  }

  async put(key: string, body: ReadableStream<Uint8Array>, options: { maxBytes: number }): Promise<ObjectInfo> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const temp = join(dirname(target), `.partial-${crypto.randomUUID()}`);
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
      return { size };
    } catch (error) {
      // The file may still be opening: remove it only once the stream is closed, or it could reappear.
      file.destroy();
      await closed;
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange, knownSize?: number) {
    const path = this.pathOf(key);
    const size = knownSize ?? (await this.stat(key))?.size;
    if (size === undefined) return null;
    const stream = createReadStream(path, range ? { start: range.start, end: range.end } : {});
    return { body: readableToWeb(stream), size };
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const s = await stat(this.pathOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
