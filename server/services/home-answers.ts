/**
 * Institutes' home page answers as the bytes that follow the status line and the per-request
 * headers: the page's own header lines, the blank line and the body (decision 0010). They are
 * copied into a few large shared buffers and found by host in a Map (one per encoding and scheme)
 * whose values are small integers, so answering one touches the Map, one row of numbers and the
 * bytes themselves. With
 * 100,000 institutes the objects of the other caches (host → center, center → page, page →
 * headers) sit all over a heap of hundreds of megabytes, and reading them cost more than
 * everything else an answer does.
 *
 * It is derived from those caches and never outlives them: a change to any institute empties it,
 * a catalog change drops that institute's answers, and a center's plan expiry is checked on every
 * answer. Entries are only added while there is room; when the room is mostly taken by dropped
 * answers, it is emptied and fills again from the ordinary path.
 */

import type { Encoding } from "./sites.ts";

/** The kinds of answer a host can have: encoding (none, or one a home page is kept in) × scheme (http, https). */
const ENCODING_INDEX: Record<Encoding, number> = { br: 1, gzip: 2 };
const KINDS = (Object.keys(ENCODING_INDEX).length + 1) * 2;
const kindOf = (encoding: Encoding | null, secure: boolean) => (encoding ? ENCODING_INDEX[encoding] : 0) * 2 + (secure ? 1 : 0);

/** Fields of one entry's row in `rows`: where its bytes are (offsets over all chunks) and until when its center is live. */
const ROW = 4;
const START = 0;
const HEAD_END = 1;
const END = 2;
const EXPIRES = 3;

export interface StoredAnswer {
  /** The page's header lines with the blank line after them. */
  head: Buffer;
  /** The body; a HEAD is answered with the head alone. */
  body: Buffer;
  centerId: string;
  /** The institute's slug, for the access log and metrics. */
  tenant: string;
  /** When the institute's plan ends, in ms since the epoch; Infinity when it does not. */
  expiresAt: number;
}

export class HomeAnswerStore {
  private readonly capacity: number;
  private readonly chunkBytes: number;
  private chunks: Buffer[] = [];
  /** Bytes taken in all chunks (the last one fills up to chunkBytes, then a new one starts). */
  private used = 0;
  /** Bytes of dropped answers, given back only when the store is emptied. */
  private dropped = 0;
  private readonly byKind: Map<string, number>[] = Array.from({ length: KINDS }, () => new Map());
  private rows = new Float64Array(1024 * ROW);
  private slots = 0;
  private readonly tenants: string[] = [];
  private readonly centers: (string | undefined)[] = [];
  private readonly keys: string[] = [];
  private readonly kinds: number[] = [];

  constructor(capacityBytes: number, chunkBytes = 32 * 1024 * 1024) {
    this.capacity = capacityBytes;
    this.chunkBytes = Math.min(chunkBytes, capacityBytes);
  }

  /** The entry for this host, encoding and scheme whose institute is still live at `now`, or -1. */
  find(host: string, encoding: Encoding | null, secure: boolean, now: number): number {
    const slot = this.byKind[kindOf(encoding, secure)].get(host);
    if (slot === undefined || this.rows[slot * ROW + EXPIRES] <= now) return -1;
    return slot;
  }

  /** The entry's bytes: head and body, or the head alone. */
  bytes(slot: number, withBody: boolean): Buffer {
    const row = slot * ROW;
    const start = this.rows[row + START];
    const chunk = this.chunks[Math.floor(start / this.chunkBytes)];
    const offset = start % this.chunkBytes;
    return chunk.subarray(offset, offset + (withBody ? this.rows[row + END] : this.rows[row + HEAD_END]) - start);
  }

  tenant(slot: number): string {
    return this.tenants[slot];
  }

  /** Keeps a copy of this answer when there is room for it (see the top of this file). */
  put(host: string, encoding: Encoding | null, secure: boolean, answer: StoredAnswer): void {
    const size = answer.head.length + answer.body.length;
    if (size > this.chunkBytes) return;
    const map = this.byKind[kindOf(encoding, secure)];
    const known = map.get(host);
    if (known !== undefined) this.drop(known);
    let offset = this.used % this.chunkBytes;
    // An answer never spans two chunks: the rest of a chunk too full for it is left unused.
    const skipped = offset + size > this.chunkBytes ? this.chunkBytes - offset : 0;
    if (this.used + skipped + size > this.capacity) {
      if (this.dropped + skipped < this.capacity / 2) return;
      this.clear();
      return this.put(host, encoding, secure, answer);
    }
    this.used += skipped;
    this.dropped += skipped;
    offset = this.used % this.chunkBytes;
    const index = Math.floor(this.used / this.chunkBytes);
    if (index === this.chunks.length) this.chunks.push(Buffer.allocUnsafeSlow(this.chunkBytes));
    const chunk = this.chunks[index];
    answer.head.copy(chunk, offset);
    answer.body.copy(chunk, offset + answer.head.length);

    const slot = this.slots++;
    if ((slot + 1) * ROW > this.rows.length) {
      const grown = new Float64Array(this.rows.length * 2);
      grown.set(this.rows);
      this.rows = grown;
    }
    const row = slot * ROW;
    this.rows[row + START] = this.used;
    this.rows[row + HEAD_END] = this.used + answer.head.length;
    this.rows[row + END] = this.used + size;
    this.rows[row + EXPIRES] = answer.expiresAt;
    this.tenants[slot] = answer.tenant;
    this.centers[slot] = answer.centerId;
    this.keys[slot] = host;
    this.kinds[slot] = kindOf(encoding, secure);
    this.used += size;
    map.set(host, slot);
  }

  /** Drops every answer of this institute (its catalog changed). */
  forgetCenter(centerId: string): void {
    for (let slot = 0; slot < this.slots; slot++) if (this.centers[slot] === centerId) this.drop(slot);
  }

  /** Drops every answer and gives the memory back. */
  clear(): void {
    for (const map of this.byKind) map.clear();
    this.chunks = [];
    this.used = 0;
    this.dropped = 0;
    this.slots = 0;
    this.rows = new Float64Array(1024 * ROW);
    this.tenants.length = this.centers.length = this.keys.length = this.kinds.length = 0;
  }

  /** Answers held. */
  get size(): number {
    return this.byKind.reduce((n, map) => n + map.size, 0);
  }

  /** Bytes held, dropped answers included until the store is emptied. */
  get bytesUsed(): number {
    return this.used;
  }

  private drop(slot: number): void {
    const map = this.byKind[this.kinds[slot]];
    if (map.get(this.keys[slot]) !== slot) return;
    map.delete(this.keys[slot]);
    const row = slot * ROW;
    this.dropped += this.rows[row + END] - this.rows[row + START];
    this.centers[slot] = undefined;
  }
}
