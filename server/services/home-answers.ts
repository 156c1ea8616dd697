/**
 * Institutes' home page answers as the bytes that follow the status line and the per-request
 * headers: the page's own header lines, the blank line and the body (decision 0010). They are
 * copied into a few large shared buffers, each after a small header and its host's name, and
 * found through a table of numbers, so answering one touches the table and the answer's own
 * bytes. With 100,000 institutes the objects of the other caches (host → center, center →
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
 * Each entry starts with a header of float64 fields, then holds its host's name, the page's
 * header lines and the body. An answer is found through `table` and then read from its own
 * bytes alone: with 100,000 institutes every place looked at is a cache miss, and a separate
 * row of numbers per entry was one more of them on every answer.
 */
const HOST_LENGTH = 0;
const HEAD_LENGTH = 1;
const BODY_LENGTH = 2;
const EXPIRES = 3;
const KIND = 4;
/** The entry's number among all ever kept since the store was emptied: its index in `tenants` and `centers`. */
const SLOT = 5;
const HEADER_BYTES = 6 * 8;
/** Entries start on a multiple of this, so that their header can be read as float64s. */
const ALIGN = 8;

/** The bytes an answer takes in the store: its header, host's name, header lines and body, and padding. */
export function storedSize(hostLength: number, headLength: number, bodyLength: number): number {
  return Math.ceil((HEADER_BYTES + hostLength + headLength + bodyLength) / ALIGN) * ALIGN;
}

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
  /** The same memory as `chunks`, read as float64s for the entries' headers. */
  private headers: Float64Array[] = [];
  /** Bytes taken in all chunks (the last one fills up to chunkBytes, then a new one starts). */
  private used = 0;
  /** Bytes of dropped answers, given back only when the store is emptied. */
  private dropped = 0;
  /**
   * Host and kind → the entry's offset over all chunks, by open addressing: offset + 1,
   * TOMBSTONE for a dropped one, 0 for none. A Map of 100,000 host strings cost a microsecond an
   * answer more than one of 1,000 (its entries and keys sit all over the heap); this table and
   * the entry's own bytes are the only places an answer is looked for.
   */
  private table = new Float64Array(INITIAL_TABLE);
  /** Entries in `table` that are not 0: live ones and tombstones. */
  private taken = 0;
  private live = 0;
  private slots = 0;
  private readonly tenants: string[] = [];
  private readonly centers: string[] = [];

  constructor(capacityBytes: number, chunkBytes = 32 * 1024 * 1024) {
    this.capacity = capacityBytes;
    this.chunkBytes = Math.floor(Math.min(chunkBytes, capacityBytes) / ALIGN) * ALIGN;
  }

  /** The entry for this host, encoding and scheme whose institute is still live at `now`, or -1. */
  find(host: string, encoding: Encoding | null, secure: boolean, now: number): number {
    const at = this.indexOf(host, kindOf(encoding, secure));
    if (at < 0) return -1;
    const entry = this.table[at] - 1;
    return this.field(entry, EXPIRES) <= now ? -1 : entry;
  }

  /** The entry's bytes: head and body, or the head alone. */
  bytes(entry: number, withBody: boolean): Buffer {
    const start = this.hostStart(entry) + this.field(entry, HOST_LENGTH);
    const length = this.field(entry, HEAD_LENGTH) + (withBody ? this.field(entry, BODY_LENGTH) : 0);
    return this.chunkOf(entry).subarray(start, start + length);
  }

  tenant(entry: number): string {
    return this.tenants[this.field(entry, SLOT)];
  }

  /** Keeps a copy of this answer when there is room for it (see the top of this file). */
  put(host: string, encoding: Encoding | null, secure: boolean, answer: StoredAnswer): void {
    const size = storedSize(host.length, answer.head.length, answer.body.length);
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
    if (index === this.chunks.length) {
      const chunk = Buffer.allocUnsafeSlow(this.chunkBytes);
      this.chunks.push(chunk);
      this.headers.push(new Float64Array(chunk.buffer, chunk.byteOffset, this.chunkBytes / 8));
    }
    const entry = this.used;
    const slot = this.slots++;
    const header = this.headers[index];
    const at = offset / 8;
    header[at + HOST_LENGTH] = host.length;
    header[at + HEAD_LENGTH] = answer.head.length;
    header[at + BODY_LENGTH] = answer.body.length;
    header[at + EXPIRES] = answer.expiresAt;
    header[at + KIND] = kind;
    header[at + SLOT] = slot;
    const chunk = this.chunks[index];
    const hostStart = offset + HEADER_BYTES;
    chunk.write(host, hostStart, "latin1");
    answer.head.copy(chunk, hostStart + host.length);
    answer.body.copy(chunk, hostStart + host.length + answer.head.length);
    this.tenants[slot] = answer.tenant;
    this.centers[slot] = answer.centerId;
    this.used += size;
    this.insert(entry, host, kind);
  }

  /** Drops every answer of this institute (its catalog changed). */
  forgetCenter(centerId: string): void {
    for (let at = 0; at < this.table.length; at++) if (this.table[at] > 0 && this.centers[this.field(this.table[at] - 1, SLOT)] === centerId) this.dropAt(at);
  }

  /** Drops every answer and gives the memory back. */
  clear(): void {
    this.table = new Float64Array(INITIAL_TABLE);
    this.taken = this.live = 0;
    this.chunks = [];
    this.headers = [];
    this.used = 0;
    this.dropped = 0;
    this.slots = 0;
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

  private chunkOf(entry: number): Buffer {
    return this.chunks[Math.floor(entry / this.chunkBytes)];
  }

  /** One field of the entry's header. */
  private field(entry: number, field: number): number {
    return this.headers[Math.floor(entry / this.chunkBytes)][(entry % this.chunkBytes) / 8 + field];
  }

  /** Where the entry's host name starts in its chunk (its header comes before). */
  private hostStart(entry: number): number {
    return (entry % this.chunkBytes) + HEADER_BYTES;
  }

  /** The size an entry takes, padding included. */
  private sizeOf(entry: number): number {
    return storedSize(this.field(entry, HOST_LENGTH), this.field(entry, HEAD_LENGTH), this.field(entry, BODY_LENGTH));
  }

  /** The host name an entry was kept for, read back from its bytes. */
  private hostOf(entry: number): string {
    const start = this.hostStart(entry);
    return this.chunkOf(entry).toString("latin1", start, start + this.field(entry, HOST_LENGTH));
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

  /** Whether this entry is the answer for this host and kind: its header and host bytes are compared. */
  private holds(entry: number, host: string, kind: number): boolean {
    if (this.field(entry, KIND) !== kind || this.field(entry, HOST_LENGTH) !== host.length) return false;
    const chunk = this.chunkOf(entry);
    const start = this.hostStart(entry);
    for (let i = 0; i < host.length; i++) if (chunk[start + i] !== host.charCodeAt(i)) return false;
    return true;
  }

  private insert(entry: number, host: string, kind: number): void {
    // At most half full, tombstones included, so that a search soon meets an empty entry.
    if ((this.taken + 1) * 2 > this.table.length) this.rebuild(this.live * 4 > this.table.length ? this.table.length * 2 : this.table.length);
    const mask = this.table.length - 1;
    let at = hashOf(host, kind) & mask;
    while (this.table[at] !== 0 && this.table[at] !== TOMBSTONE) at = (at + 1) & mask;
    if (this.table[at] === 0) this.taken++;
    this.table[at] = entry + 1;
    this.live++;
  }

  /** A new table of `length` entries holding the live ones, without tombstones. */
  private rebuild(length: number): void {
    const old = this.table;
    this.table = new Float64Array(length);
    this.taken = this.live = 0;
    for (const entry of old) if (entry > 0) this.insert(entry - 1, this.hostOf(entry - 1), this.field(entry - 1, KIND));
  }

  /** Drops the live entry at this place in `table`; its bytes stay taken until the store is emptied. */
  private dropAt(at: number): void {
    const entry = this.table[at] - 1;
    this.table[at] = TOMBSTONE;
    this.live--;
    this.dropped += this.sizeOf(entry);
  }
}
