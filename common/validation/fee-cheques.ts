import * as v from "valibot";
import { storable } from "./storable.ts";
import { isUuid } from "./ids.ts";
import { calendarDate } from "./dates.ts";
import { label, rupees } from "./fees.ts";
import { formatDate, formatRupees } from "../format.ts";

/**
 * Cheques and demand drafts at the desk (issue 42 §3) and the post-dated cheque (PDC) register:
 * the API's bodies and the messages people read. Amounts in rupees.
 */

export const CHEQUE_KINDS = ["cheque", "dd"] as const;
export type ChequeKind = (typeof CHEQUE_KINDS)[number];
export const CHEQUE_STATUSES = ["held", "deposited", "cleared", "bounced", "returned"] as const;
export type ChequeStatus = (typeof CHEQUE_STATUSES)[number];
/** The moves a cheque may make; every other one is refused. */
export const CHEQUE_MOVES: Record<ChequeStatus, readonly ChequeStatus[]> = {
  held: ["deposited", "returned"],
  deposited: ["cleared", "bounced"],
  cleared: [],
  bounced: [],
  returned: [],
};
export const CHEQUE_KIND_LABELS: Record<ChequeKind, string> = { cheque: "Cheque", dd: "Demand draft" };
export const CHEQUE_STATUS_LABELS: Record<ChequeStatus, string> = {
  held: "Held",
  deposited: "Deposited",
  cleared: "Cleared",
  bounced: "Bounced",
  returned: "Returned",
};
/** A cheque is valid for three months from its date (RBI, since 2012): after that a bank will not pay it. */
export const CHEQUE_VALID_DAYS = 90;
/** How far ahead a post-dated cheque may be dated: an academic year's instalments. */
export const CHEQUE_MAX_AHEAD_DAYS = 400;

export const CHEQUE_NOT_FOUND = "Cheque not found";
export const illegalChequeMove = (from: ChequeStatus, to: string) =>
  `This cheque is ${from}; it cannot be marked ${to}. A held cheque is deposited or returned, and a deposited one is cleared or bounced.`;
export const chequeNotYetDue = (chequeDate: string) =>
  `This cheque is dated ${formatDate(chequeDate)}: it cannot be deposited before that day.`;
export const staleCheque = (chequeDate: string) =>
  `This cheque is dated ${formatDate(chequeDate)}, more than three months ago: no bank will pay it. Give it back and take a fresh one.`;
export const chequeTooFarAhead = (chequeDate: string) =>
  `This cheque is dated ${formatDate(chequeDate)}, more than ${CHEQUE_MAX_AHEAD_DAYS} days ahead: check its date.`;
export const chequeMoreThanOwed = (left: number) =>
  `This cheque is more than the ${formatRupees(left)} still owed on this account beyond the post-dated cheques already held.`;
/** The reason a bounced cheque's receipt is reversed with. */
export const chequeBounced = (number: string) => `Cheque ${number} bounced`;
/** The reason a receipted cheque given back undeposited has its receipt reversed with. */
export const chequeReturned = (number: string) => `Cheque ${number} returned`;
/** The reason on the ledger's charge for a bounce. */
export const bounceFeeReason = (number: string) => `Bounce fee for cheque ${number}`;

const id = (message: string) => v.pipe(v.string(message), v.check(isUuid, message));

/** `POST /api/fee-accounts/{id}/cheques`: a cheque or DD taken at the desk, current or post-dated. */
export const ChequeInput = v.object({
  kind: v.picklist(CHEQUE_KINDS, 'Kind must be "cheque" or "dd"'),
  number: v.pipe(
    label("The cheque or DD number", 20),
    v.regex(/^[A-Za-z0-9-]+$/, "The cheque or DD number is letters and digits only (such as 004512)"),
  ),
  bank: label("The bank", 80),
  chequeDate: calendarDate("Cheque date"),
  amount: rupees("The amount"),
});
export type ChequeInput = v.InferOutput<typeof ChequeInput>;

/** `POST /api/fee-cheques/{id}/status`: the cheque's next step, with an optional note. */
export const ChequeStatusInput = v.object({
  status: v.picklist(
    ["deposited", "cleared", "bounced", "returned"],
    'Status must be one of "deposited", "cleared", "bounced" or "returned"',
  ),
  note: v.optional(
    v.pipe(
      v.string("The note must be text"),
      storable("The note"),
      v.trim(),
      v.maxLength(300, "The note is too long (300 characters at most)"),
    ),
  ),
});
export type ChequeStatusInput = v.InferOutput<typeof ChequeStatusInput>;

/** `GET /api/fee-cheques`: the PDC register, of one status when given. */
export const ChequesQuery = v.object({
  centerId: v.optional(id("Institute not found")),
  status: v.optional(
    v.pipe(
      v.picklist(CHEQUE_STATUSES, `Status must be one of ${CHEQUE_STATUSES.join(", ")}`),
      v.description("Only cheques in this state: held, deposited, cleared, bounced or returned"),
    ),
  ),
});

export interface FeeChequeEventJson {
  from: ChequeStatus | null;
  to: ChequeStatus;
  note: string | null;
  by: string | null;
  at: string;
}

export interface FeeChequeJson {
  _id: string;
  centerId: string;
  accountId: string;
  student: { _id: string; name: string };
  planName: string;
  kind: ChequeKind;
  number: string;
  bank: string;
  chequeDate: string;
  amount: number;
  status: ChequeStatus;
  receipt: { _id: string; number: string; reversed: boolean } | null;
  events: FeeChequeEventJson[];
  createdAt: string;
  updatedAt: string;
}

export const RECEIPT_FORMATS = ["a4", "thermal"] as const;
export type ReceiptFormat = (typeof RECEIPT_FORMATS)[number];

/** `GET /api/fee-receipts/{id}/pdf`: A4, or the 80 mm roll of a front-desk thermal printer. */
export const ReceiptPdfQuery = v.object({
  format: v.optional(
    v.pipe(
      v.picklist(RECEIPT_FORMATS, 'Format must be "a4" or "thermal"'),
      v.description("a4 (the default) or thermal: 80 mm wide, one column, for a front-desk receipt printer"),
    ),
  ),
});

/** The title GST asks of a receipt for money received before the supply (CGST Rules, rule 50). */
export const RECEIPT_VOUCHER_TITLE = "Receipt Voucher";
export const REVERSED_STAMP = "REVERSED";
