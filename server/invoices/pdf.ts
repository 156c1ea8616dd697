import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { INVOICE_TITLES, isInterState, stateLabel } from "#common/gst.ts";
import { MUTED, Pen, RULE, amountInWords, istDate, rupees } from "../formats/pdf-pen.ts";
import type { InvoiceRow } from "../db/schema/index.ts";

/** The document's file name: its number with the slashes a file name cannot hold. */
export const invoiceFileName = (row: Pick<InvoiceRow, "number">): string => `${row.number.replace(/\//g, "-")}.pdf`;

/**
 * An A4 PDF of an invoice, bill of supply or credit note with what GST rules ask printed on it:
 * seller and buyer with GSTINs and states, number and date, place of supply, SAC, taxable value,
 * CGST + SGST or IGST, the total in figures and in words.
 */
export async function invoicePdf(
  row: InvoiceRow,
  original: { number: string; issuedAt: Date } | null,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${INVOICE_TITLES[row.kind]} ${row.number}`);
  doc.setCreator("Pathshala");
  doc.setCreationDate(row.issuedAt);
  doc.setModificationDate(row.issuedAt);
  const page = doc.addPage([595.28, 841.89]);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const pen = new Pen(page, regular, bold);
  const left = 48;
  const right = 547;

  pen.text(INVOICE_TITLES[row.kind], left, 790, { size: 20, bold: true });
  pen.text(`No. ${row.number}`, right, 792, { size: 11, bold: true, alignRight: true });
  pen.text(`Date ${istDate(row.issuedAt)}`, right, 776, { size: 10, alignRight: true });
  if (row.kind === "bill_of_supply")
    pen.text("Supplier not registered under GST: no tax is charged.", left, 770, { size: 9, color: MUTED });
  if (original)
    pen.text(`Against invoice ${original.number} dated ${istDate(original.issuedAt)}`, left, 770, {
      size: 9,
      color: MUTED,
    });

  let y = 735;
  const party = (x: number, heading: string, lines: (string | null)[]) => {
    let at = y;
    pen.text(heading, x, at, { size: 8, bold: true, color: MUTED });
    at -= 15;
    for (const [i, line] of lines.entries()) {
      if (!line) continue;
      at = pen.wrap(line, x, at, 230, { size: i === 0 ? 11 : 9, bold: i === 0 });
    }
    return at;
  };
  const sellerEnd = party(left, "SOLD BY", [
    row.sellerName,
    row.sellerAddress,
    row.sellerGstin ? `GSTIN ${row.sellerGstin}` : "GSTIN: not registered",
    row.sellerState ? `State ${stateLabel(row.sellerState)}` : null,
  ]);
  const buyerEnd = party(310, "BILLED TO", [
    row.buyerName,
    row.buyerEmail,
    row.buyerGstin ? `GSTIN ${row.buyerGstin}` : null,
    `State ${row.buyerState ? stateLabel(row.buyerState) : "not given"}`,
  ]);
  y = Math.min(sellerEnd, buyerEnd) - 12;
  pen.text(`Place of supply: ${stateLabel(row.placeOfSupply)}`, left, y, { size: 9 });
  y -= 24;

  // The line: description, SAC, taxable value, then the tax columns that apply.
  const taxed = row.sellerGstin !== null;
  const inter = isInterState(row);
  const columns = taxed
    ? inter
      ? [
          { label: "Taxable value", value: rupees(row.taxable) },
          { label: `IGST ${row.rate}%`, value: rupees(row.igst) },
        ]
      : [
          { label: "Taxable value", value: rupees(row.taxable) },
          { label: `CGST ${row.rate / 2}%`, value: rupees(row.cgst) },
          { label: `SGST ${row.rate / 2}%`, value: rupees(row.sgst) },
        ]
    : [{ label: "Value", value: rupees(row.taxable) }];
  const colWidth = 72;
  const firstCol = right - colWidth * columns.length;
  page.drawRectangle({ x: left, y: y - 6, width: right - left, height: 20, color: rgb(0.95, 0.95, 0.97) });
  pen.text("Description", left + 6, y, { size: 9, bold: true });
  pen.text("SAC", firstCol - 60, y, { size: 9, bold: true });
  columns.forEach((c, i) =>
    pen.text(c.label, firstCol + colWidth * (i + 1) - 6, y, { size: 9, bold: true, alignRight: true }),
  );
  y -= 22;
  const lineEnd = pen.wrap(row.description, left + 6, y, firstCol - 80 - left, { size: 10 });
  pen.text(row.sac, firstCol - 60, y, { size: 10 });
  columns.forEach((c, i) => pen.text(c.value, firstCol + colWidth * (i + 1) - 6, y, { size: 10, alignRight: true }));
  y = lineEnd - 8;
  page.drawLine({ start: { x: left, y }, end: { x: right, y }, thickness: 0.8, color: RULE });
  y -= 22;

  const total = row.kind === "credit_note" ? "Total credited" : "Total";
  pen.text(`${total} (${row.currency})`, right - 150, y, { size: 11, bold: true, alignRight: true });
  pen.text(rupees(row.total), right - 6, y, { size: 13, bold: true, alignRight: true });
  y -= 20;
  if (taxed) {
    pen.text(`of which tax ${rupees(row.cgst + row.sgst + row.igst)}`, right - 6, y, {
      size: 9,
      color: MUTED,
      alignRight: true,
    });
    y -= 20;
  }
  if (row.currency === "INR")
    y = pen.wrap(`Amount in words: ${amountInWords(row.total)}`, left, y, right - left, { size: 10 }) - 10;
  if (row.paymentId)
    pen.text(`${row.kind === "credit_note" ? "Refund" : "Payment"} reference: ${row.paymentId}`, left, y, {
      size: 9,
      color: MUTED,
    });

  pen.text("This is a computer-generated document and needs no signature.", left, 60, { size: 8, color: MUTED });
  return doc.save();
}
