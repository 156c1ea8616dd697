import type { InvoiceKind } from "./gst.ts";

/** An invoice, bill of supply or credit note as billing histories list it. */
export interface InvoiceJson {
  id: string;
  kind: InvoiceKind;
  number: string;
  issuedAt: string;
  description: string;
  sellerName: string;
  /** Paise. */
  total: number;
  currency: string;
  /** The order paid for (a credit note: the order refunded). */
  orderId: string | null;
  /** For a credit note: the number of the invoice it reverses. */
  against: string | null;
  /** Where its PDF downloads. */
  pdf: string;
}

export const INVOICE_TEXTS = {
  notFound: "Invoice not found",
  range: "Dates must be written as YYYY-MM-DD, the first before the second",
  billingSaved: "Billing details saved",
  stateSaved: "Your state is saved: it is the place of supply on your next invoices.",
} as const;
