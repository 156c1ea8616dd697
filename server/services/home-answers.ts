/**
 * Institutes' home page answers as the bytes that follow the status line and the per-request
 * headers: the page's own header lines, the blank line and the body (decision 0010). They are
 * copied into a few large shared buffers, each after a small header and its host's name, and
 * found through a table of numbers, so answering one touches the table and the answer's own
 * bytes. With 100,000 institutes the objects of the other caches (host → center, center →
 * page, page → headers) sit all over a heap of hundreds of megabytes, and reading them cost more
 * than everything else an answer does. A plain answer is kept as the runs it shares with the
 * first plain answer of its template and its own bytes between them (decision 0013), so what an
 * answer reads is mostly that base's bytes, which stay in the processor's caches.
 *
 * It is derived from those caches and never outlives them: a change to any institute empties it,
 * a catalog change drops that institute's answers, and a center's plan expiry is checked on every
 * answer. Entries are only added while there is room; when the room is mostly taken by dropped
 * answers, it is emptied and fills again from the ordinary path.
 */

import type { Encoding } from "./sites.ts";
import { BasePage, OWN, pageDelta } from "./page-delta.ts";

/** The kinds of answer a host can have: encoding (none, or one a home page is kept in) × scheme (http, https). */
const ENCODING_INDEX: Record<Encoding, number> = { br: 1, gzip: 2 };
const kindOf = (encoding: Encoding | null, secure: boolean) => (encoding ? ENCODING_INDEX[encoding] : 0) * 2 + (secure ? 1 : 0);

/**
 * Each entry starts with a header of float64 fields, then the runs it is made of (when it is
 * kept against a base: pairs of int32, see page-delta.ts), its host's name, and its own bytes
 * (the page's header lines and body, or the bytes between the runs shared with the base). An
 * answer is found through `table` and then read from its own bytes and its base alone: with
 * 100,000 institutes every place looked at is a cache miss, and a separate row of numbers per
 * entry was one more of them on every answer.
 */
const HOST_LENGTH = 0;
const HEAD_LENGTH = 1;
const BODY_LENGTH = 2;
const EXPIRES = 3;
const KIND = 4;
/** The entry's number among all ever kept since the store was emptied: its index in `tenants` and `centers`. */
const SLOT = 5;
/** The bytes the entry takes, padding included. */
const SIZE = 6;
/** The base page the entry's runs copy from, as an index in `bases`; -1 when the entry holds all its bytes. */
const BASE = 7;
/** How many runs the entry is made of (0 without a base). */
const RUNS = 8;
const HEADER_BYTES = 9 * 8;
const RUN_BYTES = 2 * 4;
/** Entries start on a multiple of this, so that their header can be read as float64s. */
const ALIGN = 8;

/** The bytes an entry takes in the store: its header, runs, host's name, own bytes, and padding. */
export function storedSize(hostLength: number, ownLength: number, runs = 0): number {
  return Math.ceil((HEADER_BYTES + runs * RUN_BYTES + hostLength + ownLength) / ALIGN) * ALIGN;
}

/** The answers composed for a connection are written here first; it grows for a larger one. */
const INITIAL_SCRATCH = 64 * 1024;

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
  /**
   * What the page is made from besides the institute's own details (its template): plain
   * answers of one family and kind are kept against the first of them. Compressed bodies share
   * nothing byte for byte, and are kept whole.
   */
  family?: string;
}

/** What an answer is written to: a socket, whose queue holds on to the bytes it could not send at once. */
export interface AnswerSocket {
  write(bytes: Buffer): unknown;
  readonly writableLength: number;
}

export class HomeAnswerStore {
  private readonly capacity: number;
  private readonly chunkBytes: number;
  private chunks: Buffer[] = [];
  /** The same memory as `chunks`, read as float64s for the entries' headers and as int32s for their runs. */
  private headers: Float64Array[] = [];
  private runs: Int32Array[] = [];
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
  /** The first plain answer of each family and kind, which the others' runs copy from. */
  private bases: BasePage[] = [];
  private readonly baseOf = new Map<string, number>();
  private baseBytes = 0;
  /** Where answers are composed; replaced when what it holds is still being sent (see writeAnswer). */
  private scratch = Buffer.allocUnsafeSlow(INITIAL_SCRATCH);
  /** Where a plain answer's head and body are put together to be compared with its base. */
  private pages = Buffer.allocUnsafeSlow(INITIAL_SCRATCH);

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

  /**
   * Writes the whole answer to `socket` at once: `start` (the status line and this answer's own
   * headers, one byte per character), then the entry's header lines and, with `withBody`, its
   * body. It is composed in one buffer that the next answer reuses, unless the socket could not
   * send it at once and still holds on to it (the client is behind on reading its answers).
   */
  writeAnswer(entry: number, start: string, withBody: boolean, socket: AnswerSocket): void {
    socket.write(this.compose(entry, start, withBody));
    if (socket.writableLength > 0) this.scratch = Buffer.allocUnsafeSlow(this.scratch.length);
  }

  tenant(entry: number): string {
    return this.tenants[this.field(entry, SLOT)];
  }

  /** The whole answer in the scratch buffer (see writeAnswer). */
  private compose(entry: number, start: string, withBody: boolean): Buffer {
    const length = start.length + this.field(entry, HEAD_LENGTH) + (withBody ? this.field(entry, BODY_LENGTH) : 0);
    if (length > this.scratch.length) this.scratch = Buffer.allocUnsafeSlow(Math.max(length, INITIAL_SCRATCH));
    const into = this.scratch;
    let at = into.write(start, 0, "latin1");
    const chunk = this.chunkOf(entry);
    let own = this.hostStart(entry) + this.field(entry, HOST_LENGTH);
    const base = this.field(entry, BASE);
    if (base < 0) {
      chunk.copy(into, at, own, own + length - at);
      return into.subarray(0, length);
    }
    const from = this.bases[base].bytes;
    const runs = this.runs[Math.floor(entry / this.chunkBytes)];
    const first = ((entry % this.chunkBytes) + HEADER_BYTES) / 4;
    const last = first + this.field(entry, RUNS) * 2;
    for (let run = first; run < last && at < length; run += 2) {
      const runLength = Math.min(runs[run + 1], length - at);
      if (runs[run] === OWN) {
        chunk.copy(into, at, own, own + runLength);
        own += runLength;
      } else from.copy(into, at, runs[run], runs[run] + runLength);
      at += runLength;
    }
    return into.subarray(0, length);
  }

  /** Keeps a copy of this answer when there is room for it (see the top of this file). */
  put(host: string, encoding: Encoding | null, secure: boolean, answer: StoredAnswer): void {
    if (!isOneByte(host)) return;
    const kind = kindOf(encoding, secure);
    const shared = answer.family !== undefined && !encoding ? this.againstBase(`${answer.family}|${kind}`, answer, host.length) : undefined;
    const { base, runs, own } = shared ?? { base: -1, runs: [], own: [answer.head, answer.body] };
    const size = storedSize(host.length, own.reduce((sum, bytes) => sum + bytes.length, 0), runs.length / 2);
    if (size > this.chunkBytes) return;
    const known = this.indexOf(host, kind);
    if (known >= 0) this.dropAt(known);
    let offset = this.used % this.chunkBytes;
    // An answer never spans two chunks: the rest of a chunk too full for it is left unused.
    const skipped = offset + size > this.chunkBytes ? this.chunkBytes - offset : 0;
    if (this.used + skipped + size + this.baseBytes > this.capacity) {
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
      this.runs.push(new Int32Array(chunk.buffer, chunk.byteOffset, this.chunkBytes / 4));
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
    header[at + SIZE] = size;
    header[at + BASE] = base;
    header[at + RUNS] = runs.length / 2;
    this.runs[index].set(runs, (offset + HEADER_BYTES) / 4);
    const chunk = this.chunks[index];
    const hostStart = this.hostStart(entry);
    let ownAt = hostStart + chunk.write(host, hostStart, "latin1");
    for (const bytes of own) ownAt += bytes.copy(chunk, ownAt);
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
    this.runs = [];
    this.used = 0;
    this.dropped = 0;
    this.slots = 0;
    this.tenants.length = this.centers.length = 0;
    this.bases = [];
    this.baseOf.clear();
    this.baseBytes = 0;
  }

  /** Answers held. */
  get size(): number {
    return this.live;
  }

  /** Bytes held, dropped answers included until the store is emptied, and the base pages. */
  get bytesUsed(): number {
    return this.used + this.baseBytes;
  }

  /**
   * The answer as runs of its family's base page and bytes of its own; undefined when that would
   * not be smaller than the answer whole (a page that shares little with its base).
   */
  private againstBase(family: string, answer: StoredAnswer, hostLength: number): { base: number; runs: number[]; own: Buffer[] } | undefined {
    // Into memory the store keeps for this: a new 16 KB buffer for every page stored was garbage
    // that left the process's memory fragmented after 100,000 pages.
    const length = answer.head.length + answer.body.length;
    if (length > this.pages.length) this.pages = Buffer.allocUnsafeSlow(length);
    answer.head.copy(this.pages);
    answer.body.copy(this.pages, answer.head.length);
    const page = this.pages.subarray(0, length);
    const base = this.baseFor(family, page);
    if (base < 0) return undefined;
    const { runs, own } = pageDelta(this.bases[base], page);
    const smaller = storedSize(hostLength, own.length, runs.length / 2) < storedSize(hostLength, page.length);
    return smaller ? { base, runs, own: [own] } : undefined;
  }

  /** The base page of this family and kind: `page` itself when it is the first, while there is room. */
  private baseFor(family: string, page: Buffer): number {
    const known = this.baseOf.get(family);
    if (known !== undefined) return known;
    const base = new BasePage(Buffer.from(page));
    if (this.used + this.baseBytes + base.size > this.capacity) return -1;
    this.bases.push(base);
    this.baseBytes += base.size;
    this.baseOf.set(family, this.bases.length - 1);
    return this.bases.length - 1;
  }

  private chunkOf(entry: number): Buffer {
    return this.chunks[Math.floor(entry / this.chunkBytes)];
  }

  /** One field of the entry's header. */
  private field(entry: number, field: number): number {
    return this.headers[Math.floor(entry / this.chunkBytes)][(entry % this.chunkBytes) / 8 + field];
  }

  /** Where the entry's host name starts in its chunk (its header and runs come before). */
  private hostStart(entry: number): number {
    return (entry % this.chunkBytes) + HEADER_BYTES + this.field(entry, RUNS) * RUN_BYTES;
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
    this.dropped += this.field(entry, SIZE);
  }
}
