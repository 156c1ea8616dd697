/**
 * GST rules for invoices (issue 30 §6): India's states with their GST codes, the GSTIN check
 * character, how a tax-inclusive price splits into taxable value and tax, financial years and
 * document numbers. Pure, so the browser's forms and the server's invoices agree.
 */

/** The GST state codes (the first two digits of a GSTIN) and their names. */
export const GST_STATES = {
  "01": "Jammu and Kashmir",
  "02": "Himachal Pradesh",
  "03": "Punjab",
  "04": "Chandigarh",
  "05": "Uttarakhand",
  "06": "Haryana",
  "07": "Delhi",
  "08": "Rajasthan",
  "09": "Uttar Pradesh",
  "10": "Bihar",
  "11": "Sikkim",
  "12": "Arunachal Pradesh",
  "13": "Nagaland",
  "14": "Manipur",
  "15": "Mizoram",
  "16": "Tripura",
  "17": "Meghalaya",
  "18": "Assam",
  "19": "West Bengal",
  "20": "Jharkhand",
  "21": "Odisha",
  "22": "Chhattisgarh",
  "23": "Madhya Pradesh",
  "24": "Gujarat",
  "26": "Dadra and Nagar Haveli and Daman and Diu",
  "27": "Maharashtra",
  "29": "Karnataka",
  "30": "Goa",
  "31": "Lakshadweep",
  "32": "Kerala",
  "33": "Tamil Nadu",
  "34": "Puducherry",
  "35": "Andaman and Nicobar Islands",
  "36": "Telangana",
  "37": "Andhra Pradesh",
  "38": "Ladakh",
  "97": "Other Territory",
} as const satisfies Record<string, string>;

export type StateCode = keyof typeof GST_STATES;
export const STATE_CODES = Object.keys(GST_STATES) as StateCode[];

export const isStateCode = (code: unknown): code is StateCode =>
  typeof code === "string" && Object.hasOwn(GST_STATES, code);

/** "19 West Bengal", as invoices print a place of supply. */
export const stateLabel = (code: string | null | undefined): string =>
  code && isStateCode(code) ? `${code} ${GST_STATES[code]}` : "—";

/** SAC 999293 (commercial training and coaching) at 18 %: the defaults admins can change. */
export const DEFAULT_SAC = "999293";
export const DEFAULT_GST_RATE = 18;

const GSTIN_SHAPE = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * Whether `gstin` is a GSTIN: its shape, a real state code, and the check character (the GSTN's
 * base-36 weighted checksum), so a mistyped one is refused before it is printed on an invoice.
 */
export function isGstin(gstin: string): boolean {
  if (!GSTIN_SHAPE.test(gstin) || !isStateCode(gstin.slice(0, 2))) return false;
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = BASE36.indexOf(gstin[i]) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return BASE36[(36 - (sum % 36)) % 36] === gstin[14];
}

/** The tax of one document, in paise. */
export interface TaxSplit {
  taxable: number;
  cgst: number;
  sgst: number;
  igst: number;
  total: number;
}

/**
 * How a price the buyer paid (tax included, as consumer prices in India are) splits: the taxable
 * value, and the tax as CGST + SGST within one state or IGST between states. A seller without a
 * GSTIN charges no tax (a bill of supply).
 */
export function splitTax(total: number, ratePercent: number, kind: "intra" | "inter" | "none"): TaxSplit {
  if (kind === "none" || ratePercent <= 0) return { taxable: total, cgst: 0, sgst: 0, igst: 0, total };
  const taxable = Math.round((total * 100) / (100 + ratePercent));
  const tax = total - taxable;
  if (kind === "inter") return { taxable, cgst: 0, sgst: 0, igst: tax, total };
  const cgst = Math.floor(tax / 2);
  return { taxable, cgst, sgst: tax - cgst, igst: 0, total };
}

/**
 * The place of supply of a service to a buyer: their state when it is on record, else the
 * seller's (IGST Act s. 12(2)), so an unknown state is taxed as within the seller's state.
 */
export function placeOfSupply(buyerState: string | null, sellerState: string | null): string | null {
  return buyerState && isStateCode(buyerState) ? buyerState : sellerState;
}

/** Whether a document's tax is IGST: its seller is registered and supplies to another state. */
export function isInterState(doc: {
  sellerGstin: string | null;
  sellerState: string | null;
  placeOfSupply: string | null;
}) {
  return Boolean(doc.sellerGstin && doc.placeOfSupply && doc.sellerState && doc.placeOfSupply !== doc.sellerState);
}

/** India's financial year (April to March) of an instant, in IST: "2026-27". */
export function financialYear(at: Date): string {
  const ist = new Date(at.getTime() + 330 * 60_000);
  const year = ist.getUTCMonth() >= 3 ? ist.getUTCFullYear() : ist.getUTCFullYear() - 1;
  return `${year}-${String((year + 1) % 100).padStart(2, "0")}`;
}

export const INVOICE_KINDS = ["invoice", "bill_of_supply", "credit_note"] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

export const INVOICE_TITLES: Record<InvoiceKind, string> = {
  invoice: "Tax Invoice",
  bill_of_supply: "Bill of Supply",
  credit_note: "Credit Note",
};

const PREFIX: Record<InvoiceKind, string> = { invoice: "INV", bill_of_supply: "BOS", credit_note: "CN" };

/** "INV/26-27/00001": at most 16 characters, as GST rules ask of a document number. */
export function documentNumber(kind: InvoiceKind, fy: string, seq: number): string {
  return `${PREFIX[kind]}/${fy.slice(2)}/${String(seq).padStart(5, "0")}`;
}

export const GST_TEXTS = {
  gstin: "This GSTIN is not valid: check its 15 characters (such as 19AABCP1234C1ZX)",
  state: "Please choose a state from the list",
  sac: "The SAC code has 6 digits, such as 999293",
  rate: "The GST rate must be one of 0, 5, 12, 18 or 28 %",
} as const;

export const GST_RATES = [0, 5, 12, 18, 28] as const;
