import { once } from "node:events";
import { crc32, createDeflate, createDeflateRaw, deflateRawSync, type Deflate, type DeflateRaw } from "node:zlib";

/**
 * Files that ask a parser for far more than their size: ZIP archives (honest, lying, crowded),
 * workbooks built from them, and PDFs whose object streams or pages multiply. Everything is made
 * in the test, in memory, without ever holding the expanded bytes, so nothing large is committed
 * and the test process's own memory stays small.
 */

export interface ZipPart {
  name: string;
  /** The bytes as stored in the archive (already deflated when `method` is 8). */
  payload: Uint8Array;
  method: 0 | 8;
  /** The real expanded size and CRC. */
  size: number;
  crc: number;
  /** Sizes to write instead of the real one (a lying archive), in the central directory and/or the local header. */
  declare?: { central?: number; local?: number };
}

export const stored = (name: string, data: Uint8Array | string): ZipPart => {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  return { name, payload: bytes, method: 0, size: bytes.length, crc: crc32(bytes) };
};

export const deflated = (name: string, data: Uint8Array | string): ZipPart => {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  return { name, payload: deflateRawSync(bytes, { level: 9 }), method: 8, size: bytes.length, crc: crc32(bytes) };
};

interface Repeated {
  head: string;
  chunk: string;
  times: number;
  tail: string;
}

/**
 * `head`, then `chunk` `times` times, then `tail`, through the deflaters in turn (raw deflate for
 * a ZIP, zlib's format for a PDF, twice for a PDF that deflates twice): the whole is never in
 * memory, only what comes out. Returns the output, and the CRC and size of what went in.
 */
async function deflateRepeated(parts: Repeated, deflaters: (Deflate | DeflateRaw)[]) {
  const [first] = deflaters;
  const last = deflaters[deflaters.length - 1];
  for (let i = 1; i < deflaters.length; i++) deflaters[i - 1].pipe(deflaters[i]);
  const out: Buffer[] = [];
  last.on("data", (b: Buffer) => out.push(b));
  const ended = once(last, "end");
  let crc = 0;
  let size = 0;
  const write = async (bytes: Buffer) => {
    crc = crc32(bytes, crc);
    size += bytes.length;
    if (!first.write(bytes)) await once(first, "drain");
  };
  await write(Buffer.from(parts.head));
  // Many repeats per write: one call per megabyte rather than per row.
  const perWrite = Math.max(1, Math.floor((1024 * 1024) / parts.chunk.length));
  const block = Buffer.from(parts.chunk.repeat(perWrite));
  let left = parts.times;
  for (; left >= perWrite; left -= perWrite) await write(block);
  if (left) await write(Buffer.from(parts.chunk.repeat(left)));
  await write(Buffer.from(parts.tail));
  first.end();
  await ended;
  return { data: Buffer.concat(out), crc, size };
}

/** A ZIP part of `head`, `chunk` × `times` and `tail`, deflated as a stream. */
export async function deflatedRepeat(name: string, parts: Repeated): Promise<ZipPart> {
  const { data, crc, size } = await deflateRepeated(parts, [createDeflateRaw({ level: 9 })]);
  return { name, payload: data, method: 8, size, crc };
}

/** A ZIP archive of the parts, in order; `hidden` bytes go between the entries and the central directory. */
export function zip(parts: ZipPart[], hidden: Uint8Array = new Uint8Array()): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(part.method, 8);
    local.writeUInt32LE(part.crc >>> 0, 14);
    local.writeUInt32LE(part.payload.length, 18);
    local.writeUInt32LE(part.declare?.local ?? part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(part.method, 10);
    central.writeUInt32LE(part.crc >>> 0, 16);
    central.writeUInt32LE(part.payload.length, 20);
    central.writeUInt32LE(part.declare?.central ?? part.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(part.payload));
    centrals.push(central, name);
    offset += 30 + name.length + part.payload.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset + hidden.length, 16);
  return Buffer.concat([...locals, hidden, directory, end]);
}

// ---- Workbooks ----

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  "</Types>";
const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
  "</Relationships>";
const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Questions" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
  "</Relationships>";
export const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
export const SHEET_TAIL = "</sheetData></worksheet>";

/** A cell of inline text (no shared strings needed). */
export const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

/** A workbook whose one sheet is the given part (or these rows), with `extra` parts after it. */
export function workbook(sheet: ZipPart | string, extra: ZipPart[] = []): Uint8Array {
  const sheetPart =
    typeof sheet === "string" ? deflated("xl/worksheets/sheet1.xml", SHEET_HEAD + sheet + SHEET_TAIL) : sheet;
  return zip([
    deflated("[Content_Types].xml", CONTENT_TYPES),
    deflated("_rels/.rels", ROOT_RELS),
    deflated("xl/workbook.xml", WORKBOOK),
    deflated("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
    sheetPart,
    ...extra,
  ]);
}

/** The bomb: a valid workbook whose sheet is `mib` MiB of question rows, deflated to about a thousandth. */
export function sheetBomb(mib: number): Promise<ZipPart> {
  const row = `<row>${cell("A1", "single").replace(' r="A1"', "")}</row>`;
  return deflatedRepeat("xl/worksheets/sheet1.xml", {
    head: SHEET_HEAD,
    chunk: row,
    times: Math.ceil((mib * 1024 * 1024) / row.length),
    tail: SHEET_TAIL,
  });
}

// ---- PDFs ----

/** A one-page PDF around `objects` (numbered from 4), as pdf-lib reads it. */
function pdfAround(objects: (string | Uint8Array)[]): Uint8Array {
  return Buffer.concat(
    [
      "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n",
      "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\n",
      ...objects,
      "trailer\n<< /Root 1 0 R >>\n%%EOF\n",
    ].map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))),
  );
}

/** An object stream's content: one small object, then `mib` MiB of spaces, deflated `layers` times. */
async function objectStreamData(mib: number, layers: number): Promise<Buffer> {
  const parts = { head: "9 0 << /Producer (x) >> ", chunk: " ".repeat(1024), times: mib * 1024, tail: "" };
  const deflaters = Array.from({ length: layers }, () => createDeflate({ level: 9 }));
  return (await deflateRepeated(parts, deflaters)).data;
}

/** An object stream that inflates to `mib` MiB (its /Type given directly, or `typeByReference`). */
export async function objectStreamBomb(mib: number, options: { typeByReference?: boolean } = {}): Promise<Uint8Array> {
  const data = await objectStreamData(mib, 1);
  const type = options.typeByReference ? "8 0 R" : "/ObjStm";
  return pdfAround([
    "8 0 obj\n/ObjStm\nendobj\n",
    `5 0 obj\n<< /Type ${type} /N 1 /First 4 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
    data,
    "\nendstream\nendobj\n",
  ]);
}

/** An object stream deflated twice: each layer multiplies, so a few kilobytes make `mib` MiB. */
export async function doubleDeflateBomb(mib: number): Promise<Uint8Array> {
  const data = await objectStreamData(mib, 2);
  return pdfAround([
    `5 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter [/FlateDecode /FlateDecode] /Length ${data.length} >>\nstream\n`,
    data,
    "\nendstream\nendobj\n",
  ]);
}

/** A PDF of `pages` blank pages, each a few dozen bytes. */
export function manyPages(pages: number): Uint8Array {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(" ");
  const parts = [
    "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n",
    `2 0 obj\n<< /Type /Pages /Count ${pages} /Kids [${kids}] >>\nendobj\n`,
  ];
  for (let i = 0; i < pages; i++)
    parts.push(`${i + 3} 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 99 99] >>\nendobj\n`);
  parts.push("trailer\n<< /Root 1 0 R >>\n%%EOF\n");
  return Buffer.from(parts.join(""));
}

/** A PDF with `count` tiny objects beside its page. */
export function manyObjects(count: number): Uint8Array {
  const objects: string[] = [];
  for (let i = 0; i < count; i++) objects.push(`${i + 10} 0 obj null endobj\n`);
  return pdfAround([objects.join("")]);
}
