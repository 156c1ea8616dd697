import { INVOICE_TITLES, stateLabel } from "#common/gst.ts";
import { toCsv } from "../formats/csv.ts";
import type { InvoiceRow } from "../db/schema/index.ts";

const amount = (paise: number) => (paise / 100).toFixed(2);
const istDay = (d: Date) => new Date(d.getTime() + 330 * 60_000).toISOString().slice(0, 10);

/** A seller's invoices, bills of supply and credit notes for their accountant, one row each. */
export function invoicesCsv(rows: (InvoiceRow & { against: string | null })[]): string {
  return toCsv([
    [
      "Number",
      "Type",
      "Date",
      "Buyer",
      "Buyer email",
      "Buyer GSTIN",
      "Place of supply",
      "Description",
      "SAC",
      "Rate (%)",
      "Taxable value (INR)",
      "CGST (INR)",
      "SGST (INR)",
      "IGST (INR)",
      "Total (INR)",
      "Against invoice",
      "Payment reference",
    ],
    ...rows.map((r) => [
      r.number,
      INVOICE_TITLES[r.kind],
      istDay(r.issuedAt),
      r.buyerName,
      r.buyerEmail,
      r.buyerGstin ?? "",
      stateLabel(r.placeOfSupply),
      r.description,
      r.sac,
      String(r.rate),
      amount(r.taxable),
      amount(r.cgst),
      amount(r.sgst),
      amount(r.igst),
      amount(r.total),
      r.against ?? "",
      r.paymentId ?? "",
    ]),
  ]);
}
