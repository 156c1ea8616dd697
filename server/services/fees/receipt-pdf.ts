import { and, asc, eq, type SQL } from "drizzle-orm";
import { PDFDocument, StandardFonts, rgb, type PDFFont } from "pdf-lib";
import {
  centers,
  feeAccounts,
  feeDues,
  feeEntries,
  feeReceiptReversals,
  feeReceipts,
  feeRefunds,
  users,
} from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { notFound } from "../../http/errors.ts";
import { instituteSeller, type Seller } from "../../invoices/service.ts";
import { MUTED, Pen, RULE, amountInWords, fitLines, istDate, rupees, type PenStyle } from "../../formats/pdf-pen.ts";
import { isInterState, placeOfSupply, splitTax, stateLabel, type TaxSplit } from "#common/gst.ts";
import { FEE_RECEIPT_NOT_FOUND, MODE_LABELS } from "#common/validation/fees.ts";
import { FEE_REFUND_NOT_FOUND, REFUND_VOUCHER_TITLE } from "#common/validation/fee-refunds.ts";
import { indiaDate as indiaDateOf } from "#common/india-dates.ts";
import { RECEIPT_VOUCHER_TITLE, REVERSED_STAMP, type ReceiptFormat } from "#common/validation/fee-cheques.ts";

/** Everything a printed receipt shows, in paise: read once, then laid out for A4 or a thermal roll. */
export interface ReceiptVoucher {
  number: string;
  paidOn: string;
  seller: Seller;
  student: { name: string; email: string };
  planName: string;
  placeOfSupply: string | null;
  /** How the tax included is split: within the seller's state, between states, or none (no GSTIN). */
  taxKind: TaxKind;
  mode: string;
  reference: string | null;
  chequeDate: string | null;
  lines: { label: string; gstRate: number; split: TaxSplit }[];
  total: number;
  reversed: { reason: string; at: Date } | null;
  /** The same layout for another document (a refund voucher, decision 0048); a receipt voucher when absent. */
  document?: VoucherWords;
}

/** The words that make the layout a receipt voucher or another voucher. */
export interface VoucherWords {
  title: string;
  party: string;
  linesHeading: string;
  totalLabel: string;
  paidBy: string;
  /** Lines printed above the small print (the reason, the working). */
  notes: string[];
  footer: string;
}

const RECEIPT_WORDS: VoucherWords = {
  title: RECEIPT_VOUCHER_TITLE,
  party: "RECEIVED FROM",
  linesHeading: "Settled",
  totalLabel: "Amount received",
  paidBy: "Paid by",
  notes: [],
  footer: "A receipt voucher for fees received before the supply; the tax invoice follows the supply.",
};

/**
 * Fee receipts as PDF (issue 42 §3): a "Receipt Voucher", as GST asks of money received before the
 * supply, with the institute as its seller profile names it, the student, what each due received,
 * the amount in words and the GST included split out by each due's rate and the place of supply.
 * A4 for the file, or 80 mm wide in one column for a front-desk thermal printer.
 */
export class FeeReceiptPdfs {
  private readonly db: Db;

  constructor(deps: { db: Db }) {
    this.db = deps.db;
  }

  async pdf(receiptId: string, format: ReceiptFormat = "a4"): Promise<{ filename: string; bytes: Uint8Array }> {
    return voucherFile(await this.voucher(receiptId), format);
  }

  async voucher(receiptId: string): Promise<ReceiptVoucher> {
    const [row] = await this.db
      .select({ receipt: feeReceipts, reversal: feeReceiptReversals })
      .from(feeReceipts)
      .leftJoin(feeReceiptReversals, eq(feeReceiptReversals.receiptId, feeReceipts.id))
      .where(eq(feeReceipts.id, receiptId));
    if (!row) throw notFound(FEE_RECEIPT_NOT_FOUND);
    const { receipt } = row;
    const parties = await voucherParties(this.db, receipt.accountId);
    return {
      number: receipt.number,
      paidOn: receipt.paidOn,
      ...parties,
      mode: MODE_LABELS[receipt.mode],
      reference: receipt.reference,
      chequeDate: receipt.chequeDate,
      lines: await voucherLines(
        this.db,
        and(eq(feeEntries.receiptId, receiptId), eq(feeEntries.kind, "payment"))!,
        parties.taxKind,
      ),
      total: receipt.amount,
      reversed: row.reversal ? { reason: row.reversal.reason, at: row.reversal.reversedAt } : null,
    };
  }
}

/**
 * Who a fee voucher is between and how its tax is split: the institute as its seller profile
 * names it, the student, the account's plan, the place of supply (the student's state, else the
 * institute's) and whether GST is intra-state, inter-state or none.
 */
async function voucherParties(db: Db, accountId: string) {
  const [row] = await db
    .select({
      center: centers,
      planName: feeAccounts.planName,
      name: users.name,
      email: users.email,
      state: users.gstState,
    })
    .from(feeAccounts)
    .innerJoin(centers, eq(centers.id, feeAccounts.centerId))
    .innerJoin(users, eq(users.id, feeAccounts.studentId))
    .where(eq(feeAccounts.id, accountId));
  const seller = instituteSeller(row.center);
  const supply = placeOfSupply(row.state, seller.state);
  const taxKind: TaxKind = !seller.gstin
    ? "none"
    : isInterState({ sellerGstin: seller.gstin, sellerState: seller.state, placeOfSupply: supply })
      ? "inter"
      : "intra";
  return {
    seller,
    student: { name: row.name, email: row.email },
    planName: row.planName,
    placeOfSupply: supply,
    taxKind,
  };
}

/** A voucher's lines: the ledger entries `which` selects, per due (oldest first), with the GST included split out. */
async function voucherLines(db: Db, which: SQL, taxKind: TaxKind) {
  const rows = await db
    .select({ label: feeDues.label, gstRate: feeDues.gstRate, amount: feeEntries.amount })
    .from(feeEntries)
    .innerJoin(feeDues, eq(feeDues.id, feeEntries.dueId))
    .where(which)
    .orderBy(asc(feeDues.dueOn), asc(feeDues.position));
  return rows.map((r) => ({ label: r.label, gstRate: r.gstRate, split: splitTax(r.amount, r.gstRate, taxKind) }));
}

type TaxKind = "intra" | "inter" | "none";

/** An India date (YYYY-MM-DD) as the documents print it. */
const dayOf = (date: string) => istDate(new Date(`${date}T12:00:00+05:30`));

/**
 * A refund to a student who left as a Refund Voucher (decision 0048): what GST asks when an
 * advance covered by a receipt voucher is given back before the supply; the same layout as the
 * receipt, with what each due gave back, the GST included in it, the reason and the working.
 */
export class FeeRefundPdfs {
  private readonly db: Db;

  constructor(deps: { db: Db }) {
    this.db = deps.db;
  }

  async pdf(refundId: string, format: ReceiptFormat = "a4"): Promise<{ filename: string; bytes: Uint8Array }> {
    return voucherFile(await this.voucher(refundId), format);
  }

  async voucher(refundId: string): Promise<ReceiptVoucher> {
    const [refund] = await this.db.select().from(feeRefunds).where(eq(feeRefunds.id, refundId));
    if (!refund) throw notFound(FEE_REFUND_NOT_FOUND);
    const parties = await voucherParties(this.db, refund.accountId);
    const w = refund.working;
    const ways = [
      refund.throughGateway > 0
        ? `${rupees(refund.throughGateway)} to the card, UPI or bank account it was paid from`
        : "",
      refund.paidOut > 0
        ? `${rupees(refund.paidOut)} paid out by ${MODE_LABELS[refund.mode ?? "cash"]}${refund.reference ? ` ${refund.reference}` : ""}`
        : "",
    ].filter(Boolean);
    return {
      number: refund.number,
      paidOn: indiaDateOf(refund.createdAt),
      ...parties,
      mode: ways.join("; "),
      reference: null,
      chequeDate: null,
      lines: await voucherLines(
        this.db,
        and(eq(feeEntries.refundId, refundId), eq(feeEntries.kind, "refund"))!,
        parties.taxKind,
      ),
      total: refund.amount,
      reversed: null,
      document: {
        title: REFUND_VOUCHER_TITLE,
        party: "REFUNDED TO",
        linesHeading: "Given back",
        totalLabel: "Amount refunded",
        paidBy: "Refunded:",
        notes: [
          `Left on ${dayOf(refund.leftOn)}. Reason: ${refund.reason}`,
          `Course ${dayOf(w.course.from)} to ${dayOf(w.course.to)}: ${w.days.used} of ${w.days.total} days used. ` +
            `Fee ${rupees(w.fee)}; non-refundable ${rupees(w.nonRefundable.amount)}; used ${rupees(w.usedFee)}; ` +
            `late fees and charges ${rupees(w.penalties)}; paid ${rupees(w.paid)}.`,
        ],
        footer:
          "A refund voucher for fees received in advance and given back before the supply (GST: the tax included is reversed with it).",
      },
    };
  }
}

/** An India date (YYYY-MM-DD) as the documents print it. */
const day = dayOf;

/** The tax lines of a voucher: the taxable value, then CGST and SGST (or IGST) at each rate. */
export function taxLines(v: ReceiptVoucher): { label: string; amount: number }[] {
  if (v.taxKind === "none") return [];
  const rates = [...new Set(v.lines.map((l) => l.gstRate))].filter((r) => r > 0).sort((a, b) => a - b);
  if (rates.length === 0) return [];
  const sum = (pick: (s: TaxSplit) => number, rate?: number) =>
    v.lines.filter((l) => rate === undefined || l.gstRate === rate).reduce((s, l) => s + pick(l.split), 0);
  const out = [{ label: "Taxable value", amount: sum((s) => s.taxable) }];
  for (const rate of rates) {
    if (v.taxKind === "inter") out.push({ label: `IGST ${rate}%`, amount: sum((s) => s.igst, rate) });
    else
      out.push(
        { label: `CGST ${rate / 2}%`, amount: sum((s) => s.cgst, rate) },
        { label: `SGST ${rate / 2}%`, amount: sum((s) => s.sgst, rate) },
      );
  }
  return out;
}

/** One row of the single-column layout both formats print. */
type Row =
  | { kind: "text"; value: string; style: PenStyle }
  | { kind: "pair"; left: string; right: string; style: PenStyle }
  | { kind: "rule" }
  | { kind: "gap"; height: number };

/** The voucher as rows, top to bottom; `s` scales the type (1 for A4, smaller on the roll). */
function rows(v: ReceiptVoucher, s: number): Row[] {
  const size = (n: number) => Math.round(n * s * 10) / 10;
  const text = (value: string, style: Partial<PenStyle> = {}): Row => ({
    kind: "text",
    value,
    style: { size: size(9), ...style, ...(style.size ? { size: size(style.size) } : {}) },
  });
  const pair = (left: string, right: string, style: Partial<PenStyle> = {}): Row => ({
    kind: "pair",
    left,
    right,
    style: { size: size(9), ...style, ...(style.size ? { size: size(style.size) } : {}) },
  });
  const gap = (height = 6): Row => ({ kind: "gap", height: height * s });
  const words = v.document ?? RECEIPT_WORDS;
  const out: Row[] = [
    text(v.seller.name, { size: 13, bold: true }),
    ...(v.seller.address ? [text(v.seller.address, { color: MUTED })] : []),
    text(v.seller.gstin ? `GSTIN ${v.seller.gstin}` : "GSTIN: not registered", { color: MUTED }),
    ...(v.seller.state ? [text(`State ${stateLabel(v.seller.state)}`, { color: MUTED })] : []),
    gap(10),
    text(words.title, { size: 16, bold: true }),
    pair(`No. ${v.number}`, `Date ${day(v.paidOn)}`, { bold: true }),
  ];
  if (v.reversed)
    out.push(
      gap(4),
      text(REVERSED_STAMP, { size: 20, bold: true, color: rgb(0.75, 0.1, 0.1) }),
      text(`Reversed on ${istDate(v.reversed.at)}: ${v.reversed.reason}`, { color: rgb(0.75, 0.1, 0.1) }),
    );
  out.push(
    gap(8),
    text(words.party, { size: 7.5, bold: true, color: MUTED }),
    text(v.student.name, { size: 11, bold: true }),
    text(v.student.email),
    text(`Fee plan: ${v.planName}`),
  );
  if (v.taxKind !== "none") out.push(text(`Place of supply: ${stateLabel(v.placeOfSupply)}`));
  out.push(gap(8), pair(words.linesHeading, "Amount (INR)", { bold: true, size: 8.5 }), { kind: "rule" });
  for (const line of v.lines) out.push(pair(line.label, rupees(line.split.total)));
  out.push({ kind: "rule" }, pair(words.totalLabel, rupees(v.total), { bold: true, size: 11 }));
  const tax = taxLines(v);
  if (tax.length) {
    out.push(text("GST included in the amount:", { color: MUTED, size: 8.5 }));
    for (const t of tax) out.push(pair(t.label, rupees(t.amount), { color: MUTED, size: 8.5 }));
  }
  out.push(gap(6), text(`Amount in words: ${amountInWords(v.total)}`));
  const by = [v.mode, v.reference].filter(Boolean).join(" ");
  const cheque = v.chequeDate ? ` dated ${day(v.chequeDate)} (subject to realisation)` : "";
  out.push(text(`${words.paidBy} ${by}${cheque}`));
  for (const note of words.notes) out.push(text(note, { size: 8.5 }));
  out.push(
    gap(10),
    text(words.footer, {
      size: 7.5,
      color: MUTED,
    }),
    text("This is a computer-generated document and needs no signature.", { size: 7.5, color: MUTED }),
  );
  return out;
}

/** The page of one format: A4 with wide margins, or the 80 mm roll (72 mm printable) as tall as it needs. */
const FORMATS = {
  a4: { width: 595.28, margin: 56, scale: 1.15, minHeight: 841.89 },
  thermal: { width: 226.77, margin: 10, scale: 0.85, minHeight: 0 },
} as const;

export async function receiptPdf(v: ReceiptVoucher, format: ReceiptFormat): Promise<Uint8Array> {
  const f = FORMATS[format];
  const doc = await PDFDocument.create();
  doc.setTitle(`${(v.document ?? RECEIPT_WORDS).title} ${v.number}`);
  doc.setCreator("Pathshala");
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const laid = rows(v, f.scale);
  const inner = f.width - 2 * f.margin;
  const font = (style: PenStyle): PDFFont => (style.bold ? bold : regular);
  const linesOf = (value: string, style: PenStyle, width: number) =>
    Math.max(1, fitLines(value, font(style), style.size, width).length);
  // Measured first: a thermal page is exactly as long as the receipt.
  const heightOf = (row: Row) =>
    row.kind === "text"
      ? linesOf(row.value, row.style, inner) * (row.style.size + 4)
      : row.kind === "pair"
        ? linesOf(row.left, row.style, inner * 0.62) * (row.style.size + 4) + 2
        : row.kind === "rule"
          ? 8
          : row.height;
  const height = Math.max(f.minHeight, laid.reduce((sum, row) => sum + heightOf(row), 0) + 2 * f.margin);
  const page = doc.addPage([f.width, height]);
  const pen = new Pen(page, regular, bold);
  let y = height - f.margin;
  for (const row of laid) {
    if (row.kind === "text") pen.wrap(row.value, f.margin, y - row.style.size, inner, row.style);
    else if (row.kind === "pair") {
      const top = y - row.style.size;
      pen.wrap(row.left, f.margin, top, inner * 0.62, row.style);
      pen.text(row.right, f.width - f.margin, top, { ...row.style, alignRight: true });
    } else if (row.kind === "rule")
      page.drawLine({
        start: { x: f.margin, y: y - 4 },
        end: { x: f.width - f.margin, y: y - 4 },
        thickness: 0.6,
        color: RULE,
      });
    y -= heightOf(row);
  }
  return doc.save();
}

/** A voucher's PDF and its file name (its number, slashes made dashes; "-80mm" for the thermal width). */
async function voucherFile(voucher: ReceiptVoucher, format: ReceiptFormat) {
  const bytes = await receiptPdf(voucher, format);
  return { filename: `${voucher.number.replace(/\//g, "-")}${format === "thermal" ? "-80mm" : ""}.pdf`, bytes };
}
