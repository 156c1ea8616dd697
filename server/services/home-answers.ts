/**
 * Institutes' home page answers as the bytes that follow the status line and the per-request
 * headers: the page's own header lines, the blank line and the body (decision 0010). They are
 * copied into a few large shared buffers, each after its host's name, and found through a table
 * of small integers, so answering one touches the table, one row of numbers and the bytes
 * themselves. With 100,000 institutes the objects of the other caches (host → center, center →
 * page, page → headers) sit all over a heap of hundreds of megabytes, and reading them cost more
 * than everything else an answer does.
 *
 * It is derived from those caches and never outlives them: a change to any institute empties it,
 * a catalog change drops that institute's answers, and a center's plan expiry is checked on every
 * answer. Entries are only added while there is room; when the room is mostly taken by dropped
 * answers, it is emptied and fills again from the ordinary path.
 */

import type { Encoding } from "./sites.ts";

/** The kinds of answer a host can have: encoding (none, or one a home page is kept in) × scheme (http, https). */
const ENCODING_INDEX: Record<Encoding, number> = { br: 1, gzip: 2 };
const kindOf = (encoding: Encoding | null, secure: boolean) => (encoding ? ENCODING_INDEX[encoding] : 0) * 2 + (secure ? 1 : 0);

/**
 * Fields of one entry's row in `rows`: where its bytes are (offsets over all chunks: the host,
 * then the page's header lines, then the body), its kind, and until when its center is live.
 */
const ROW = 6;
const KEY_START = 0;
const START = 1;
const HEAD_END = 2;
const END = 3;
const KIND = 4;
const EXPIRES = 5;

const INITIAL_TABLE = 1024;
const TOMBSTONE = -1;

/** Hosts are matched as bytes; a host with a character beyond one byte is never stored. */
function isOneByte(host: string): boolean {
  for (let i = 0; i < host.length; i++) if (host.charCodeAt(i) > 0xff) return false;
  return true;
}

/** FNV-1a over the host's characters, with the kind mixed in: the first place to look in `table`. */
function hashOf(host: string, kind: number): number {
  let hash = 0x811c9dc5 ^ kind;
  for (let i = 0; i < host.length; i++) hash = Math.imul(hash ^ host.charCodeAt(i), 0x01000193);
  return (hash ^ (hash >>> 15)) >>> 0;
}

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
  /**
   * Host and kind → slot, by open addressing: slot + 1, TOMBSTONE for a dropped one, 0 for none.
   * A Map of 100,000 host strings cost a microsecond an answer more than one of 1,000 (its
   * entries and keys sit all over the heap); this table and the host bytes beside the answer
   * touch two places, one of which is the answer's own bytes.
   */
  private table = new Int32Array(INITIAL_TABLE);
  /** Entries in `table` that are not 0: live ones and tombstones. */
  private taken = 0;
  private live = 0;
  private rows = new Float64Array(1024 * ROW);
  private slots = 0;
  private readonly tenants: string[] = [];
  private readonly centers: string[] = [];

  constructor(capacityBytes: number, chunkBytes = 32 * 1024 * 1024) {
    this.capacity = capacityBytes;
    this.chunkBytes = Math.min(chunkBytes, capacityBytes);
  }

  /** The entry for this host, encoding and scheme whose institute is still live at `now`, or -1. */
  find(host: string, encoding: Encoding | null, secure: boolean, now: number): number {
    const at = this.indexOf(host, kindOf(encoding, secure));
    if (at < 0) return -1;
    const slot = this.table[at] - 1;
    return this.rows[slot * ROW + EXPIRES] <= now ? -1 : slot;
  }

  /** The entry's bytes: head and body, or the head alone. */
  bytes(slot: number, withBody: boolean): Buffer {
    const row = slot * ROW;
    const start = this.rows[row + START];
    const offset = start % this.chunkBytes;
    return this.chunkOf(row).subarray(offset, offset + (withBody ? this.rows[row + END] : this.rows[row + HEAD_END]) - start);
  }

  tenant(slot: number): string {
    return this.tenants[slot];
  }

  /** Keeps a copy of this answer when there is room for it (see the top of this file). */
  put(host: string, encoding: Encoding | null, secure: boolean, answer: StoredAnswer): void {
    const size = host.length + answer.head.length + answer.body.length;
    if (size > this.chunkBytes || !isOneByte(host)) return;
    const kind = kindOf(encoding, secure);
    const known = this.indexOf(host, kind);
    if (known >= 0) this.dropAt(known);
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
    chunk.write(host, offset, "latin1");
    answer.head.copy(chunk, offset + host.length);
    answer.body.copy(chunk, offset + host.length + answer.head.length);

    const slot = this.slots++;
    if ((slot + 1) * ROW > this.rows.length) {
      const grown = new Float64Array(this.rows.length * 2);
      grown.set(this.rows);
      this.rows = grown;
    }
    const row = slot * ROW;
    const start = this.used + host.length;
    this.rows[row + KEY_START] = this.used;
    this.rows[row + START] = start;
    this.rows[row + HEAD_END] = start + answer.head.length;
    this.rows[row + END] = this.used + size;
    this.rows[row + KIND] = kind;
    this.rows[row + EXPIRES] = answer.expiresAt;
    this.tenants[slot] = answer.tenant;
    this.centers[slot] = answer.centerId;
    this.used += size;
    this.insert(slot, host, kind);
  }

  /** Drops every answer of this institute (its catalog changed). */
  forgetCenter(centerId: string): void {
    for (let at = 0; at < this.table.length; at++) if (this.table[at] > 0 && this.centers[this.table[at] - 1] === centerId) this.dropAt(at);
  }

  /** Drops every answer and gives the memory back. */
  clear(): void {
    this.table = new Int32Array(INITIAL_TABLE);
    this.taken = this.live = 0;
    this.chunks = [];
    this.used = 0;
    this.dropped = 0;
    this.slots = 0;
    this.rows = new Float64Array(1024 * ROW);
    this.tenants.length = this.centers.length = 0;
  }

  /** Answers held. */
  get size(): number {
    return this.live;
  }

  /** Bytes held, dropped answers included until the store is emptied. */
  get bytesUsed(): number {
    return this.used;
  }

  private chunkOf(row: number): Buffer {
    return this.chunks[Math.floor(this.rows[row + KEY_START] / this.chunkBytes)];
  }

  /** The host name an entry was kept for, read back from its bytes. */
  private hostOf(slot: number): string {
    const row = slot * ROW;
    const offset = this.rows[row + KEY_START] % this.chunkBytes;
    return this.chunkOf(row).toString("latin1", offset, offset + this.rows[row + START] - this.rows[row + KEY_START]);
  }

  /** Where `table` holds the live entry for this host and kind, or -1. */
  private indexOf(host: string, kind: number): number {
    const mask = this.table.length - 1;
    for (let at = hashOf(host, kind) & mask; ; at = (at + 1) & mask) {
      const entry = this.table[at];
      if (entry === 0) return -1;
      if (entry !== TOMBSTONE && this.holds(entry - 1, host, kind)) return at;
    }
  }

  /** Whether this slot is the answer for this host and kind: its host bytes are compared, beside the answer. */
  private holds(slot: number, host: string, kind: number): boolean {
    const row = slot * ROW;
    const keyStart = this.rows[row + KEY_START];
    if (this.rows[row + KIND] !== kind || this.rows[row + START] - keyStart !== host.length) return false;
    const chunk = this.chunkOf(row);
    const offset = keyStart % this.chunkBytes;
    for (let i = 0; i < host.length; i++) if (chunk[offset + i] !== host.charCodeAt(i)) return false;
    return true;
  }

  private insert(slot: number, host: string, kind: number): void {
    // At most half full, tombstones included, so that a search soon meets an empty entry.
    if ((this.taken + 1) * 2 > this.table.length) this.rebuild(this.live * 4 > this.table.length ? this.table.length * 2 : this.table.length);
    const mask = this.table.length - 1;
    let at = hashOf(host, kind) & mask;
    while (this.table[at] !== 0 && this.table[at] !== TOMBSTONE) at = (at + 1) & mask;
    if (this.table[at] === 0) this.taken++;
    this.table[at] = slot + 1;
    this.live++;
  }

  /** A new table of `length` entries holding the live ones, without tombstones. */
  private rebuild(length: number): void {
    const old = this.table;
    this.table = new Int32Array(length);
    this.taken = this.live = 0;
    for (const entry of old) if (entry > 0) this.insert(entry - 1, this.hostOf(entry - 1), this.rows[(entry - 1) * ROW + KIND]);
  }

  /** Drops the live entry at this place in `table`; its bytes stay taken until the store is emptied. */
  private dropAt(at: number): void {
    const row = (this.table[at] - 1) * ROW;
    this.table[at] = TOMBSTONE;
    this.live--;
    this.dropped += this.rows[row + END] - this.rows[row + KEY_START];
  }
}
