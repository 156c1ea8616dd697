import {
  decodePDFRawStream,
  PDFArray,
  PDFContext,
  PDFName,
  PDFNumber,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
} from "pdf-lib";

/**
 * Checks a PDF before pdf-lib loads it. Loading expands two kinds of streams: object streams
 * (`/Type /ObjStm`, which hold other objects compressed) and cross-reference streams (`/Type
 * /XRef`); pdf-lib inflates them whole, without a ceiling, so a few megabytes of zeros make
 * gigabytes. Every other stream (pages, images, fonts) is copied as it is and never expanded.
 *
 * So: every place an object can start (each `obj` keyword, a superset of where pdf-lib's parser
 * reads one) is parsed with pdf-lib's own object parser; a stream that is, or might be (its
 * `/Type` is not a plain name), one of those two kinds is decoded with pdf-lib's own decoders,
 * 64 KiB at a time, against one budget for the whole file. Objects are counted first, from the
 * bytes, because reading a million tiny pages costs seconds before they can be counted.
 *
 * Throws `PdfLimitError` (too much) or `PdfFormatError` (a stream pdf-lib could not decode either).
 */

export interface PdfLimits {
  /** Indirect objects, counting those inside object streams. */
  maxObjects: number;
  /** Bytes that object and cross-reference streams may expand to, together. */
  maxExpandedBytes: number;
  /** Pages (checked after loading, before stamping). */
  maxPages: number;
}

export class PdfLimitError extends Error {}
export class PdfFormatError extends Error {}

const OBJ = Buffer.from("obj");
const END = Buffer.from("end");
const EXPANDED_KINDS = new Set([PDFName.of("ObjStm"), PDFName.of("XRef")]);
const CHUNK = 64 * 1024;

export function checkPdfStreams(bytes: Uint8Array, limits: PdfLimits): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts: number[] = [];
  for (let at = buffer.indexOf(OBJ); at !== -1; at = buffer.indexOf(OBJ, at + OBJ.length)) {
    if (at >= 3 && buffer.subarray(at - 3, at).equals(END)) continue;
    starts.push(at + OBJ.length);
    if (starts.length > limits.maxObjects) throw new PdfLimitError(`more than ${limits.maxObjects} objects`);
  }

  const context = PDFContext.create();
  let objects = starts.length;
  let budget = limits.maxExpandedBytes;
  for (const start of starts) {
    let object;
    try {
      object = PDFObjectParser.forBytes(bytes.subarray(start), context).parseObject();
    } catch {
      continue; // Not an object here (the keyword inside other data): pdf-lib would not read one either.
    }
    if (!(object instanceof PDFRawStream)) continue;
    // pdf-lib expands a stream whose /Type resolves to one of the two kinds; one given by
    // reference might resolve to either, so it is measured too.
    const type = object.dict.get(PDFName.of("Type"));
    if (type === undefined || (type instanceof PDFName && !EXPANDED_KINDS.has(type))) continue;
    budget -= expandedSize(object, budget);
    const n = object.dict.get(PDFName.of("N"));
    if (n instanceof PDFNumber) objects += Math.max(0, n.asNumber());
    if (objects > limits.maxObjects) throw new PdfLimitError(`more than ${limits.maxObjects} objects`);
  }
}

/** How many bytes the stream decodes to, reading no further than one chunk past `budget`. */
function expandedSize(stream: PDFRawStream, budget: number): number {
  // pdf-lib looks the filters up through the document, which this check does not have: a filter
  // given by reference could be anything, so such a stream is not taken on trust.
  const filter = stream.dict.get(PDFName.of("Filter"));
  const parms = stream.dict.get(PDFName.of("DecodeParms"));
  const direct = (value: unknown) =>
    value === undefined || value instanceof PDFName || (value instanceof PDFArray && value.asArray().every(isDirect));
  if (!direct(filter) || !(parms === undefined || isDirect(parms)))
    throw new PdfLimitError("an object stream's filter is given by reference");
  let size = 0;
  try {
    const decoded = decodePDFRawStream(stream);
    for (;;) {
      const chunk = decoded.getBytes(CHUNK);
      size += chunk.length;
      if (size > budget) throw new PdfLimitError("object streams expand too far");
      if (chunk.length < CHUNK) return size;
    }
  } catch (error) {
    if (error instanceof PdfLimitError) throw error;
    throw new PdfFormatError(`an object stream does not decode: ${(error as Error).message}`);
  }
}

function isDirect(value: unknown): boolean {
  return !(value instanceof PDFRef);
}
