/**
 * One page written as the runs of bytes it shares with another page of its template (the base)
 * and the bytes of its own between them. Two institutes' plain pages of one template differ only
 * where their names, hosts, details and catalogs appear: about a twentieth of the bytes. So the
 * bytes read to answer any institute of a template are mostly its base's, which stay in the
 * processor's caches however many institutes there are (decision 0013).
 */

/** Bytes hashed at each position to find where a run shared with the base may start. */
const WINDOW = 16;
/**
 * Shared runs shorter than this are kept as the page's own bytes: copying a run costs about as
 * much as copying this many bytes more, and each run takes 8 bytes to describe.
 */
export const MIN_RUN = 32;
/** In a run's `from`: the run is the page's own next bytes, not the base's. */
export const OWN = -1;

const MULTIPLIER = 0x01000193;

/** MULTIPLIER ** (WINDOW - 1), modulo 2 ** 32: what the byte leaving the window weighed. */
const LEAVING_WEIGHT = (() => {
  let weight = 1;
  for (let i = 1; i < WINDOW; i++) weight = Math.imul(weight, MULTIPLIER);
  return weight;
})();

function windowHash(bytes: Uint8Array, at: number): number {
  let hash = 0;
  for (let i = at; i < at + WINDOW; i++) hash = (Math.imul(hash, MULTIPLIER) + bytes[i]) | 0;
  return hash;
}

/** The hash of the window one byte further on. */
function rolled(hash: number, leaving: number, entering: number): number {
  return (Math.imul(hash - Math.imul(leaving, LEAVING_WEIGHT), MULTIPLIER) + entering) | 0;
}

/** A page kept as the base of its template's other pages, with where each of its windows starts. */
export class BasePage {
  readonly bytes: Buffer;
  /** Window hash → the first position with it, plus one; 0 for none. */
  private readonly starts: Int32Array;
  private readonly shift: number;

  constructor(bytes: Buffer) {
    this.bytes = bytes;
    const bits = Math.max(4, Math.ceil(Math.log2(Math.max(1, bytes.length) * 2)));
    this.starts = new Int32Array(2 ** bits);
    this.shift = 32 - bits;
    if (bytes.length < WINDOW) return;
    let hash = windowHash(bytes, 0);
    for (let at = 0; ; at++) {
      const slot = this.slotOf(hash);
      if (this.starts[slot] === 0) this.starts[slot] = at + 1;
      if (at + WINDOW >= bytes.length) break;
      hash = rolled(hash, bytes[at], bytes[at + WINDOW]);
    }
  }

  /** Bytes held: the page and its index. */
  get size(): number {
    return this.bytes.length + this.starts.byteLength;
  }

  /** Where a window with this hash may start in the base, or -1. */
  candidate(hash: number): number {
    return this.starts[this.slotOf(hash)] - 1;
  }

  /** The hash's multiplied form spreads its low bits, which depend on the bytes' low bits alone. */
  private slotOf(hash: number): number {
    return Math.imul(hash, 0x9e3779b1) >>> this.shift;
  }
}

export interface PageDelta {
  /** Pairs of (from, length): a run copied from the base at `from`, or the page's own next bytes (from = OWN). */
  runs: number[];
  /** The page's own bytes, in order. */
  own: Buffer;
}

/** `page` as runs shared with `base` and bytes of its own, so that they make `page` again in order. */
export function pageDelta(base: BasePage, page: Buffer): PageDelta {
  const runs: number[] = [];
  const ownRanges: [number, number][] = [];
  let ownBytes = 0;
  const keepOwn = (start: number, end: number) => {
    if (end <= start) return;
    runs.push(OWN, end - start);
    ownRanges.push([start, end]);
    ownBytes += end - start;
  };
  const from = base.bytes;
  let ownStart = 0;
  let at = 0;
  let hash = page.length >= WINDOW ? windowHash(page, 0) : 0;
  while (at + WINDOW <= page.length) {
    const candidate = base.candidate(hash);
    if (candidate >= 0 && from.compare(page, at, at + WINDOW, candidate, candidate + WINDOW) === 0) {
      let start = at;
      let baseStart = candidate;
      while (start > ownStart && baseStart > 0 && page[start - 1] === from[baseStart - 1]) {
        start--;
        baseStart--;
      }
      let end = at + WINDOW;
      let baseEnd = candidate + WINDOW;
      while (end < page.length && baseEnd < from.length && page[end] === from[baseEnd]) {
        end++;
        baseEnd++;
      }
      if (end - start >= MIN_RUN) {
        keepOwn(ownStart, start);
        runs.push(baseStart, end - start);
        ownStart = at = end;
        if (at + WINDOW <= page.length) hash = windowHash(page, at);
        continue;
      }
    }
    if (at + WINDOW < page.length) hash = rolled(hash, page[at], page[at + WINDOW]);
    at++;
  }
  keepOwn(ownStart, page.length);
  const own = Buffer.allocUnsafe(ownBytes);
  let written = 0;
  for (const [start, end] of ownRanges) written += page.copy(own, written, start, end);
  return { runs, own };
}
