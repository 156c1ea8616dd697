import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { makePdf, pageTexts } from "../../tests/helpers/pdf.ts";
import { watermarkLine, watermarkPdf } from "./pdf-watermark.ts";

describe("watermarkPdf", () => {
  it("stamps every page with the buyer's name and e-mail, and keeps the pages", async () => {
    const original = await makePdf(3);
    const stamped = await watermarkPdf(original, { name: "Asha Rao", email: "asha@example.com" });
    const texts = await pageTexts(stamped);
    expect(texts).toHaveLength(3);
    for (const [i, text] of texts.entries()) {
      expect(text).toContain("Licensed to Asha Rao (asha@example.com)");
      expect(text).toContain(`Chapter ${i + 1}`);
    }
    expect((await PDFDocument.load(stamped)).getPageCount()).toBe(3);
  });

  it("is deterministic, so byte ranges of two stampings agree", async () => {
    const original = await makePdf(2);
    const owner = { name: "Ravi", email: "ravi@example.com" };
    expect(
      Buffer.from(await watermarkPdf(original, owner)).equals(Buffer.from(await watermarkPdf(original, owner))),
    ).toBe(true);
  });

  it("prints what the standard font can, and always the e-mail", async () => {
    expect(watermarkLine({ name: "José  Müller", email: "j@example.com" })).toBe(
      "Licensed to Jose Muller (j@example.com)",
    );
    expect(watermarkLine({ name: "राहुल", email: "rahul@example.com" })).toBe("Licensed to rahul@example.com");
    const stamped = await watermarkPdf(await makePdf(1), { name: "राहुल Verma", email: "rahul@example.com" });
    expect((await pageTexts(stamped))[0]).toContain("Licensed to Verma (rahul@example.com)");
  });

  it("refuses what is not a readable PDF", async () => {
    await expect(
      watermarkPdf(new TextEncoder().encode("%PDF-1.7\n    "), { name: "A", email: "a@example.com" }),
    ).rejects.toThrow();
  });
});
