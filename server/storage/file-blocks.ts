import { recordCache } from "../runtime/metrics.ts";
import type { LRUCache } from "lru-cache";
import { byteBoundedCache } from "../caches/byte-cache.ts";

/** The unit files are cached in: a 64 KiB range at any offset touches one or two blocks. */
export const BLOCK_BYTES = 256 * 1024;

interface Block {
  readonly data: Buffer<ArrayBuffer>;
  readonly bytes: number;
}

/** Reads `length` bytes of a file from `start` (fewer only where the file ends). */
export type ReadAt = (start: number, length: number) => Promise<Buffer<ArrayBuffer>>;

/**
 * Recently read parts of stored files, in memory, in fixed blocks. Viewers of one video fetch the
 * same parts of it again and again; from memory a range costs no trip through libuv's thread
 * pool, which on a busy server waits a whole turn of the event loop. Bounded by `maxBytes`
 * (FILE_CACHE_MB). Blocks are keyed by the file's identity (device, inode, modification time),
 * not its name: a file written again or deleted is a different file, and its old blocks are
 * never read again but age out.
 */
export class FileBlocks {
  private readonly blocks: LRUCache<string, Block>;
  /** Blocks being read: a viewer's player often asks for the same part twice at once. */
  private readonly reading = new Map<string, Promise<Buffer<ArrayBuffer>>>();

  constructor(maxBytes: number) {
    this.blocks = byteBoundedCache(maxBytes);
  }

  /** Bytes [start, start + length) of the file `identity` of `size` bytes, from memory where cached. */
  async read(
    identity: string,
    size: number,
    start: number,
    length: number,
    readAt: ReadAt,
  ): Promise<Buffer<ArrayBuffer>> {
    const end = Math.min(size, start + length);
    if (end <= start) return Buffer.alloc(0);
    const first = Math.floor(start / BLOCK_BYTES);
    const last = Math.floor((end - 1) / BLOCK_BYTES);
    const parts: Promise<Buffer<ArrayBuffer>>[] = [];
    for (let index = first; index <= last; index++) parts.push(this.block(identity, size, index, readAt));
    const blocks = await Promise.all(parts);
    const from = start - first * BLOCK_BYTES;
    if (blocks.length === 1) return blocks[0].subarray(from, from + (end - start));
    // Only the asked-for bytes are copied: the first block from `from`, and concat stops at the length.
    blocks[0] = blocks[0].subarray(from);
    return Buffer.concat(blocks, end - start);
  }

  /** Memory held by cached blocks. */
  get bytes(): number {
    return this.blocks.calculatedSize;
  }

  private async block(identity: string, size: number, index: number, readAt: ReadAt): Promise<Buffer<ArrayBuffer>> {
    const key = `${identity}#${index}`;
    const cached = this.blocks.get(key);
    // A miss is a read from disk; joining one already under way is not.
    const pending = cached ? undefined : this.reading.get(key);
    recordCache("file", !!(cached ?? pending));
    if (cached) return cached.data;
    if (pending) return pending;
    const read = readAt(index * BLOCK_BYTES, Math.min(BLOCK_BYTES, size - index * BLOCK_BYTES))
      .then((data) => {
        this.blocks.set(key, { data, bytes: data.byteLength });
        return data;
      })
      .finally(() => this.reading.delete(key));
    this.reading.set(key, read);
    return read;
  }
}
