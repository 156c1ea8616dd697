import { degrees, ParseSpeeds, PDFDocument, rgb, StandardFonts, type PDFFont } from "pdf-lib";
import { checkPdfStreams, PdfLimitError, type PdfLimits } from "./parsing/pdf-check.ts";
import { printable } from "../formats/pdf-text.ts";

/** Whose copy this is: printed on every page so that a leaked copy names its buyer. */
export interface WatermarkOwner {
  name: string;
  email: string;
}

/** The line stamped on each page (also what tests look for). */
export function watermarkLine(owner: WatermarkOwner, font?: PDFFont): string {
  const name = printable(owner.name, font);
  const email = printable(owner.email, font);
  return name ? `Licensed to ${name} (${email})` : `Licensed to ${email}`;
}

/**
 * What a PDF may ask of the stamping (docs/performance.md, "Uploaded files"): a 2,000-page book
 * stamps in about a second, and its object streams expand to under 1 MB; pdf-lib decodes them at
 * about 80 MB/s, so the budget costs at most a fifth of a second.
 */
export const PDF_LIMITS: PdfLimits = {
  maxObjects: 200_000,
  maxExpandedBytes: 16 * 1024 * 1024,
  maxPages: 2_000,
};

/**
 * Stamps every page of a PDF with the buyer's name and e-mail: a large diagonal mark across
 * the page and a line at its foot. Pure and deterministic (same bytes in, same bytes out), so
 * byte ranges of the stamped file agree whichever instance or request produced them.
 * Throws when the file is not a PDF pdf-lib can read, or is encrypted, and `PdfLimitError` when
 * it asks for more than `limits` (checked before pdf-lib expands anything). The server runs it
 * on a worker thread, through `stampPdf` (server/services/parsing/worker.ts): parsing without pauses is
 * then the fastest way and stalls nobody.
 */
export async function watermarkPdf(
  bytes: Uint8Array,
  owner: WatermarkOwner,
  limits: PdfLimits = PDF_LIMITS,
): Promise<Uint8Array> {
  checkPdfStreams(bytes, limits);
  // `updateMetadata: false` keeps pdf-lib from writing today's date (and so the output stable).
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  if (doc.getPageCount() > limits.maxPages) throw new PdfLimitError(`more than ${limits.maxPages} pages`);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const line = watermarkLine(owner, font);
  const foot = `${line} - personal copy, do not share`;
  for (const page of doc.getPages()) {
    const { x, y, width, height } = page.getCropBox();
    const diagonal = Math.hypot(width, height);
    // Big enough to cross the page, small enough to fit along its diagonal.
    const size = Math.max(10, Math.min(40, (diagonal * 0.72) / Math.max(1, font.widthOfTextAtSize(line, 1))));
    const textWidth = font.widthOfTextAtSize(line, size);
    const angle = Math.atan2(height, width);
    page.drawText(line, {
      x: x + width / 2 - (Math.cos(angle) * textWidth) / 2 + (Math.sin(angle) * size) / 2,
      y: y + height / 2 - (Math.sin(angle) * textWidth) / 2 - (Math.cos(angle) * size) / 2,
      size,
      font,
      color: rgb(0.55, 0.55, 0.6),
      opacity: 0.18,
      rotate: degrees((angle * 180) / Math.PI),
    });
    const footSize = Math.max(5, Math.min(8, ((width - 24) / Math.max(1, font.widthOfTextAtSize(foot, 1))) * 0.98));
    page.drawText(foot, { x: x + 12, y: y + 10, size: footSize, font, color: rgb(0.35, 0.35, 0.4), opacity: 0.75 });
  }
  return doc.save({ updateFieldAppearances: false });
}

/** `watermarkPdf`'s answer as data a worker can send back: the stamped bytes, or why not. */
export type StampResult = { ok: true; bytes: Uint8Array } | { ok: false; tooLarge: boolean; reason: string };

export async function stampPdf(bytes: Uint8Array, owner: WatermarkOwner): Promise<StampResult> {
  try {
    return { ok: true, bytes: await watermarkPdf(bytes, owner) };
  } catch (error) {
    return { ok: false, tooLarge: error instanceof PdfLimitError, reason: (error as Error).message };
  }
}
