import { rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { ToWords } from "to-words";
import { printable } from "./pdf-text.ts";

/**
 * What the product's PDF documents (invoices, fee receipts) share: money and dates written the
 * Indian way, and a pen that writes printable text in the two standard fonts.
 */

const words = new ToWords({ localeCode: "en-IN", converterOptions: { currency: true } });

/** "Two Hundred Ninety Nine Rupees Only", as invoices in India write the total. */
export const amountInWords = (paise: number): string => words.convert(paise / 100);

/** 1234.5 rupees as "1,234.50", grouped the Indian way. */
export const rupees = (paise: number): string =>
  (paise / 100).toLocaleString("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "05 Apr 2026", in India's time. */
export const istDate = (d: Date) =>
  d.toLocaleDateString("en-IN", { day: "2-digit", month: "short", year: "numeric", timeZone: "Asia/Kolkata" });

export const INK = rgb(0.1, 0.1, 0.15);
export const MUTED = rgb(0.4, 0.4, 0.45);
export const RULE = rgb(0.85, 0.85, 0.88);

export interface PenStyle {
  size: number;
  bold?: boolean;
  color?: ReturnType<typeof rgb>;
  alignRight?: boolean;
}

/** Text on one page in the two standard fonts, printable characters only. */
export class Pen {
  private readonly page: PDFPage;
  private readonly regular: PDFFont;
  private readonly bold: PDFFont;

  constructor(page: PDFPage, regular: PDFFont, bold: PDFFont) {
    this.page = page;
    this.regular = regular;
    this.bold = bold;
  }

  text(value: string, x: number, y: number, o: PenStyle) {
    const font = o.bold ? this.bold : this.regular;
    const shown = printable(value, font);
    const at = o.alignRight ? x - font.widthOfTextAtSize(shown, o.size) : x;
    this.page.drawText(shown, { x: at, y, size: o.size, font, color: o.color ?? INK });
  }

  /** Writes `value` in lines no wider than `width`; returns where the next line goes. */
  wrap(value: string, x: number, y: number, width: number, o: PenStyle): number {
    const lines = fitLines(value, o.bold ? this.bold : this.regular, o.size, width);
    lines.forEach((line, i) => this.text(line, x, y - i * (o.size + 4), o));
    return y - Math.max(1, lines.length) * (o.size + 4);
  }
}

/** The lines `value` takes in `font` at `size` within `width` (how tall it will be, before it is written). */
export function fitLines(value: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of printable(value, font).split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > width) {
      out.push(line);
      line = word;
    } else line = next;
  }
  if (line) out.push(line);
  return out;
}
