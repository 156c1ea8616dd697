import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { doubleDeflateBomb, manyObjects, manyPages, objectStreamBomb } from "../../../tests/helpers/bombs.ts";
import { stampPdf, watermarkPdf } from "../pdf-watermark.ts";
import { checkPdfStreams, PdfLimitError } from "./pdf-check.ts";

const LIMITS = { maxObjects: 10_000, maxExpandedBytes: 4 * 1024 * 1024, maxPages: 50 };
const owner = { name: "Asha Rao", email: "asha@example.com" };
const refusal = (run: () => unknown) => {
  try {
    run();
    return "passed";
  } catch (error) {
    return error instanceof PdfLimitError ? error.message : error;
  }
};

async function bookWithObjectStreams(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`Page ${i + 1}`);
  return doc.save({ useObjectStreams: true });
}

describe("checkPdfStreams", () => {
  it("passes a real document with object and cross-reference streams", async () => {
    const book = await bookWithObjectStreams(40);
    expect(Buffer.from(book).includes("/ObjStm")).toBe(true);
    expect(refusal(() => checkPdfStreams(book, LIMITS))).toBe("passed");
    await expect(watermarkPdf(book, owner, LIMITS)).resolves.toBeInstanceOf(Uint8Array);
  });

  it("refuses object streams that expand past the budget, however they say what they are", async () => {
    const tooFar = "object streams expand too far";
    const [direct, byReference, twice, small] = await Promise.all([
      objectStreamBomb(8),
      objectStreamBomb(8, { typeByReference: true }),
      // Deflated twice: each layer is decoded with pdf-lib's own decoders, against the same budget.
      doubleDeflateBomb(64),
      objectStreamBomb(3),
    ]);
    expect(refusal(() => checkPdfStreams(direct, LIMITS))).toBe(tooFar);
    expect(refusal(() => checkPdfStreams(byReference, LIMITS))).toBe(tooFar);
    expect(refusal(() => checkPdfStreams(twice, LIMITS))).toBe(tooFar);
    expect(twice.length).toBeLessThan(4096);
    expect(refusal(() => checkPdfStreams(small, LIMITS))).toBe("passed");
  });

  it("counts objects from the bytes, before anything is parsed", () => {
    expect(refusal(() => checkPdfStreams(manyObjects(10_001), LIMITS))).toBe("more than 10000 objects");
    expect(refusal(() => checkPdfStreams(manyObjects(9_000), LIMITS))).toBe("passed");
  });

  it("stamps at most maxPages pages", async () => {
    await expect(watermarkPdf(manyPages(51), owner, LIMITS)).rejects.toThrow("more than 50 pages");
    await expect(watermarkPdf(manyPages(50), owner, LIMITS)).resolves.toBeInstanceOf(Uint8Array);
  });

  it("answers a worker's stamping as data: too large, or unreadable", async () => {
    expect(await stampPdf(await objectStreamBomb(64), owner)).toEqual({
      ok: false,
      tooLarge: true,
      reason: "object streams expand too far",
    });
    const broken = await stampPdf(Buffer.from("%PDF-1.7\n    "), owner);
    expect(broken.ok || broken.tooLarge).toBe(false);
  });
});
