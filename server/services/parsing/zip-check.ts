import { constants, inflateRawSync } from "node:zlib";

/**
 * Checks a ZIP archive (an .xlsx) before any library expands it: a few hundred bytes that say
 * "1 GiB" must not be believed, and neither must ones that say "1 KiB". What is checked is what
 * a streaming reader (read-excel-file reads the local headers one after another) and a reader of
 * the central directory would both see:
 *
 * - the central directory: at most `maxEntries` entries, each stored or deflated, no ZIP64, no
 *   encryption, declared sizes adding up to at most `maxExpandedBytes`;
 * - every entry's local header agrees with its central record (name, method, sizes), and the
 *   entries lie one after another from the first byte to the central directory, so nothing is
 *   hidden between them for a streaming reader to find;
 * - every entry really expands to its declared size, inflated with `maxOutputLength` set to that
 *   size, so a lying entry stops at its declared size instead of filling memory.
 *
 * Returns the entries, with the expanded bytes of those `keep` names (for a caller that checks
 * what is inside before a library reads it). Throws `ZipLimitError` (too much) or
 * `ZipFormatError` (not a ZIP this product reads).
 */

export interface ZipLimits {
  maxEntries: number;
  maxExpandedBytes: number;
}

export interface ZipEntry {
  name: string;
  size: number;
  /** The expanded bytes, for the entries the caller asked to keep. */
  data?: Buffer;
}

/** The archive asks for more than the limits allow: too many entries, or too many bytes. */
export class ZipLimitError extends Error {
  readonly limit: "entries" | "bytes";
  constructor(limit: "entries" | "bytes", message: string) {
    super(message);
    this.limit = limit;
  }
}
/** Not a well-formed ZIP archive of the kind an office program writes. */
export class ZipFormatError extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED = 0x1;
const HAS_DESCRIPTOR = 0x8;

export function checkZip(
  bytes: Uint8Array,
  limits: ZipLimits,
  keep: (name: string) => boolean = () => false,
): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => (at + 2 <= bytes.length ? view.getUint16(at, true) : bad("truncated"));
  const u32 = (at: number) => (at + 4 <= bytes.length ? view.getUint32(at, true) : bad("truncated"));

  const end = findEndOfCentralDirectory(bytes, view);
  const count = u16(end + 10);
  const directorySize = u32(end + 12);
  const directoryStart = u32(end + 16);
  if (u16(end + 4) !== 0 || u16(end + 6) !== 0 || u16(end + 8) !== count) bad("split archive");
  if (count === 0xffff || directoryStart === 0xffffffff) bad("ZIP64");
  if (count > limits.maxEntries) throw new ZipLimitError("entries", `more than ${limits.maxEntries} entries`);
  if (directoryStart + directorySize !== end) bad("central directory out of place");

  interface Record {
    name: string;
    method: number;
    flags: number;
    compressed: number;
    size: number;
    offset: number;
  }
  const records: Record[] = [];
  let declared = 0;
  for (let at = directoryStart, i = 0; i < count; i++) {
    if (u32(at) !== CENTRAL) bad("central record");
    const record = {
      flags: u16(at + 8),
      method: u16(at + 10),
      compressed: u32(at + 20),
      size: u32(at + 24),
      offset: u32(at + 42),
      name: latin1(bytes, at + 46, u16(at + 28)),
    };
    if (record.flags & ENCRYPTED) bad("encrypted entry");
    if (record.method !== STORED && record.method !== DEFLATED) bad("compression method");
    if (record.size === 0xffffffff || record.compressed === 0xffffffff || record.offset === 0xffffffff) bad("ZIP64");
    declared += record.size;
    if (declared > limits.maxExpandedBytes)
      throw new ZipLimitError("bytes", `entries declare more than ${limits.maxExpandedBytes} bytes`);
    records.push(record);
    at += 46 + u16(at + 28) + u16(at + 30) + u16(at + 32);
    if (i === count - 1 && at !== end) bad("central directory size");
  }

  // The entries, in the order a streaming reader meets them, must tile the archive up to the directory.
  records.sort((a, b) => a.offset - b.offset);
  const entries: ZipEntry[] = [];
  let next = 0;
  for (const record of records) {
    const at = record.offset;
    if (at !== next || u32(at) !== LOCAL) bad("local header out of place");
    const flags = u16(at + 6);
    const nameLength = u16(at + 26);
    if (u16(at + 8) !== record.method || latin1(bytes, at + 30, nameLength) !== record.name) bad("local header");
    const describedLater = (flags & HAS_DESCRIPTOR) !== 0;
    const localCompressed = u32(at + 18);
    const localSize = u32(at + 22);
    const sizesAgree = localCompressed === record.compressed && localSize === record.size;
    if (!sizesAgree && !(describedLater && localCompressed === 0 && localSize === 0)) bad("local sizes");
    const dataStart = at + 30 + nameLength + u16(at + 28);
    const dataEnd = dataStart + record.compressed;
    if (dataEnd > directoryStart) bad("entry overruns the directory");
    const data = expandsTo(bytes.subarray(dataStart, dataEnd), record.method, record.size);
    entries.push(
      keep(record.name) ? { name: record.name, size: record.size, data } : { name: record.name, size: record.size },
    );
    next = dataEnd;
    if (describedLater) {
      const signed = u32(next) === DESCRIPTOR ? 4 : 0;
      if (u32(next + signed + 4) !== record.compressed || u32(next + signed + 8) !== record.size)
        bad("data descriptor");
      next += signed + 12;
    }
  }
  if (next !== directoryStart) bad("bytes between the entries and the directory");
  return entries;
}

function findEndOfCentralDirectory(bytes: Uint8Array, view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD && at + 22 + view.getUint16(at + 20, true) === bytes.length) return at;
  }
  return bad("no end of central directory");
}

/** Inflates an entry with its declared size as the ceiling, and checks it comes to exactly that. */
function expandsTo(data: Uint8Array, method: number, size: number): Buffer {
  if (method === STORED) {
    if (data.length !== size) bad("stored size");
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }
  let out: Buffer;
  try {
    // One byte over the declared size is enough to know it lies; maxOutputLength stops inflating there.
    out = inflateRawSync(data, { maxOutputLength: size + 1, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") bad("entry expands past its declared size");
    return bad("entry does not inflate");
  }
  if (out.length !== size) bad("entry expands to another size than declared");
  return out;
}

function latin1(bytes: Uint8Array, at: number, length: number): string {
  if (at + length > bytes.length) bad("truncated");
  return Buffer.from(bytes.buffer, bytes.byteOffset + at, length).toString("latin1");
}

function bad(why: string): never {
  throw new ZipFormatError(why);
}
