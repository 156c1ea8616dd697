import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, type PDFPage } from "pdf-lib";

/** The text drawn on each page of a PDF (strings shown with Tj, hex or literal), for checking stamps. */
export async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => shownStrings(doc, page).join("\n"));
}

function shownStrings(doc: PDFDocument, page: PDFPage): string[] {
  const contents = page.node.Contents();
  const refs = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
  const out: string[] = [];
  for (const ref of refs) {
    const stream = doc.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    const ops = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
    for (const m of ops.matchAll(/<([0-9A-Fa-f\s]*)>\s*Tj/g))
      out.push(Buffer.from(m[1].replace(/\s/g, ""), "hex").toString("latin1"));
    for (const m of ops.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) out.push(m[1].replace(/\\(.)/g, "$1"));
  }
  return out;
}

/** A small real PDF with `pages` pages (pdf-lib can read it, unlike the magic-bytes fixtures). */
export async function makePdf(pages = 3): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`Chapter ${i + 1}`, { x: 50, y: 780, size: 20 });
  return (await doc.save()) as Uint8Array<ArrayBuffer>;
}
