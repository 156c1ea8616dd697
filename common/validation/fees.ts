import * as v from "valibot";
import { text } from "./account.ts";
import { storable } from "./storable.ts";
import { isUuid } from "./ids.ts";
import { calendarDate } from "./dates.ts";
import { DISCOUNT_KINDS, LATE_FEE_KINDS, toPaise, type FeeEntryKind } from "../fees.ts";
import { formatRupees } from "../format.ts";

/** Fees (issue 42, decision 0045): the API's bodies and the messages people read. Amounts in rupees. */

export const FEE_PLAN_NOT_FOUND = "Fee plan not found";
export const FEE_ACCOUNT_NOT_FOUND = "Fee account not found";
export const FEE_RECEIPT_NOT_FOUND = "Receipt not found";
export const FEE_PLAN_TAKEN = "This student already has an account under this fee plan.";
export const FEE_NOTHING_OWED = "Nothing is owed on this account.";
export const FEE_ALREADY_REVERSED = "This receipt has already been reversed.";
export const FEE_REFUNDED_NO_REVERSAL =
  "This account was refunded when the student left: its receipts can no longer be reversed.";
export const instalmentsDoNotAddUp = (instalments: number, heads: number) =>
  `The instalments add up to ${formatRupees(instalments)}, but the fee heads to ${formatRupees(heads)}: they must be equal.`;
export const moreThanOwed = (balance: number) =>
  `This is more than the ${formatRupees(balance)} still owed on this account: take at most that (advances are not kept).`;
export const FEE_LIMITS = { heads: 20, instalments: 24, discounts: 5, maxRupees: 10_000_000 } as const;

/** An amount in rupees (at most two decimals) parsed into paise. */
export const rupees = (label: string, min = 0.01) =>
  v.pipe(
    v.number(`${label} must be an amount in rupees`),
    v.finite(`${label} must be an amount in rupees`),
    v.minValue(min, `${label} must be at least ${formatRupees(min)}`),
    v.maxValue(FEE_LIMITS.maxRupees, `${label} must be at most ${formatRupees(FEE_LIMITS.maxRupees)}`),
    v.check(
      (n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6,
      `${label} can have at most two decimal places (paise)`,
    ),
    v.transform(toPaise),
  );

/** Required free text, trimmed, at most `max` characters. */
export const label = (what: string, max: number) =>
  v.pipe(
    text(`${what} is required`),
    storable(what),
    v.trim(),
    v.nonEmpty(`${what} is required`),
    v.maxLength(max, `${what} is too long (${max} characters at most)`),
  );

const id = (message: string) => v.pipe(v.string(message), v.check(isUuid, message));

export const LateFeeInput = v.object({
  kind: v.picklist(LATE_FEE_KINDS, 'Late fee kind must be "per-day" or "flat"'),
  amount: rupees("Late fee"),
  graceDays: v.pipe(
    v.number("Grace days must be a number of days"),
    v.integer("Grace days must be a whole number of days"),
    v.minValue(0, "Grace days cannot be negative"),
    v.maxValue(365, "Grace days must be at most 365"),
  ),
  cap: rupees("Late fee cap"),
});

/** `POST /api/fee-plans`: heads and instalments, GST-inclusive; the instalments add up to the heads. */
export const FeePlanInput = v.pipe(
  v.object({
    name: label("Fee plan name", 120),
    centerId: v.optional(id("Institute not found")),
    heads: v.pipe(
      v.array(
        v.object({
          name: label("Fee head name", 80),
          amount: rupees("A fee head's amount"),
          /** Kept when a student leaves (decision 0048); refundable pro rata otherwise. */
          nonRefundable: v.optional(v.boolean("Non-refundable must be true or false")),
        }),
        "Fee heads must be a list",
      ),
      v.minLength(1, "Add at least one fee head"),
      v.maxLength(FEE_LIMITS.heads, `At most ${FEE_LIMITS.heads} fee heads`),
    ),
    instalments: v.pipe(
      v.array(
        v.object({
          label: label("Instalment label", 80),
          amount: rupees("An instalment's amount"),
          dueOn: calendarDate("Last date"),
        }),
        "Instalments must be a list",
      ),
      v.minLength(1, "Add at least one instalment (a lump sum is one)"),
      v.maxLength(FEE_LIMITS.instalments, `At most ${FEE_LIMITS.instalments} instalments`),
      v.check(
        (list) => list.every((item, i) => i === 0 || list[i - 1].dueOn <= item.dueOn),
        "Instalments must be in order of their last dates",
      ),
    ),
    gstRate: v.optional(
      v.pipe(
        v.number("GST rate must be a number"),
        v.picklist([0, 5, 12, 18, 28], "GST rate must be 0, 5, 12, 18 or 28 %"),
      ),
    ),
    lateFee: v.optional(v.nullable(LateFeeInput)),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const heads = dataset.value.heads.reduce((sum, head) => sum + head.amount, 0);
    const instalments = dataset.value.instalments.reduce((sum, item) => sum + item.amount, 0);
    if (heads !== instalments)
      addIssue({
        message: instalmentsDoNotAddUp(instalments / 100, heads / 100),
        path: [
          {
            type: "object",
            origin: "value",
            input: dataset.value,
            key: "instalments",
            value: dataset.value.instalments,
          },
        ],
      });
  }),
);
export type FeePlanInput = v.InferOutput<typeof FeePlanInput>;

export const DiscountInput = v.pipe(
  v.object({
    kind: v.picklist(DISCOUNT_KINDS, `Discount kind must be one of ${DISCOUNT_KINDS.join(", ")}`),
    percent: v.optional(
      v.pipe(
        v.number("A discount's percent must be a number"),
        v.minValue(0.01, "A discount's percent must be more than 0"),
        v.maxValue(100, "A discount cannot be more than 100 %"),
      ),
    ),
    amount: v.optional(rupees("A discount's amount")),
    reason: label("A discount's reason", 300),
  }),
  v.check(
    (d) => (d.percent === undefined) !== (d.amount === undefined),
    "Give a discount a percent or an amount, not both",
  ),
);

/** `POST /api/fee-accounts`: a plan assigned to one of the institute's students, with discounts. */
export const FeeAccountInput = v.object({
  centerId: v.optional(id("Institute not found")),
  studentId: id("Student not found"),
  feePlanId: id(FEE_PLAN_NOT_FOUND),
  discounts: v.optional(
    v.pipe(
      v.array(DiscountInput, "Discounts must be a list"),
      v.maxLength(FEE_LIMITS.discounts, `At most ${FEE_LIMITS.discounts} discounts`),
    ),
    [],
  ),
});
export type FeeAccountInput = v.InferOutput<typeof FeeAccountInput>;

/**
 * `POST /api/fee-accounts/bulk`: a plan assigned to many of the institute's students from a CSV
 * (the batch admission CSV's format: name,email,phone with a header row), all or none.
 */
export const FeeAccountsCsvInput = v.object({
  centerId: v.optional(id("Institute not found")),
  feePlanId: id(FEE_PLAN_NOT_FOUND),
  csv: v.pipe(v.string("The CSV must be text"), v.nonEmpty("The CSV is empty")),
});
export const CSV_NOT_ASSIGNED = "be assigned the plan, so nobody was";
export const CSV_NO_ACCOUNT = "no account has this e-mail address or verified number: admit them as a student first";
export const CSV_NOT_A_STUDENT = "not a student of this institute";
export const CSV_HAS_PLAN = "already has an account under this plan";
export const csvSameStudent = (row: number) => `the same student as row ${row}`;

export const DESK_MODES = ["cash", "cheque", "dd", "upi", "bank"] as const;
export type DeskMode = (typeof DESK_MODES)[number];
export const MODE_LABELS: Record<DeskMode | "online", string> = {
  cash: "Cash",
  cheque: "Cheque",
  dd: "Demand draft",
  upi: "UPI",
  bank: "Bank transfer",
  online: "Online",
};
export const REFERENCE_REQUIRED = "Give the cheque, DD, UPI or bank transfer's reference number";
export const CHEQUE_DATE_REQUIRED = "Give the date written on the cheque or DD";
export const FUTURE_PAYMENT = "A payment cannot be dated in the future";
export const BANK_REQUIRED = "Give the bank the cheque or DD is drawn on";
export const CHEQUE_ON_CHEQUE_DESK =
  "Take a cheque or DD on the cheque desk, so it can be deposited, cleared or bounced.";

/** `POST /api/fee-accounts/{id}/payments`: money taken at the desk. */
export const DeskPaymentInput = v.pipe(
  v.object({
    amount: rupees("The amount"),
    mode: v.picklist(DESK_MODES, `Mode must be one of ${DESK_MODES.join(", ")}`),
    reference: v.optional(
      v.pipe(
        v.string("The reference must be text"),
        storable("The reference"),
        v.trim(),
        v.maxLength(60, "The reference is too long (60 characters at most)"),
      ),
    ),
    paidOn: v.optional(calendarDate("Paid on")),
    chequeDate: v.optional(calendarDate("Cheque date")),
    /** The bank a cheque or DD is drawn on. */
    bank: v.optional(
      v.pipe(
        v.string("The bank must be text"),
        storable("The bank"),
        v.trim(),
        v.maxLength(80, "The bank is too long (80 characters at most)"),
      ),
    ),
  }),
  v.forward(
    v.check((p) => p.mode === "cash" || Boolean(p.reference), REFERENCE_REQUIRED),
    ["reference"],
  ),
  v.forward(
    v.check((p) => (p.mode !== "cheque" && p.mode !== "dd") || Boolean(p.chequeDate), CHEQUE_DATE_REQUIRED),
    ["chequeDate"],
  ),
  v.forward(
    v.check((p) => (p.mode !== "cheque" && p.mode !== "dd") || Boolean(p.bank), BANK_REQUIRED),
    ["bank"],
  ),
);

/** `POST /api/fee-receipts/{id}/reverse`: a reason is required. */
export const ReversalInput = v.object({
  reason: label("The reason for the reversal", 300),
});

export const FeeAccountsQuery = v.object({
  studentId: v.optional(id("Student not found")),
  centerId: v.optional(id("Institute not found")),
});

export const FeePlansQuery = v.object({
  centerId: v.optional(id("Institute not found")),
});

export interface FeeDueJson {
  _id: string;
  label: string;
  amount: number;
  dueOn: string;
  discount: number;
  paid: number;
  lateFee: number;
  waived: number;
  balance: number;
  overdueDays: number;
}

export interface FeeEntryJson {
  _id: string;
  dueId: string;
  kind: FeeEntryKind;
  amount: number;
  receiptId: string | null;
  reason: string | null;
  discount: { kind: string; percent?: number; amount?: number } | null;
  at: string;
  by: string | null;
}

export interface FeeAccountJson {
  _id: string;
  centerId: string;
  student: { _id: string; name: string; email: string };
  feePlanId: string;
  planName: string;
  dues: FeeDueJson[];
  total: number;
  discount: number;
  paid: number;
  lateFee: number;
  balance: number;
  overdue: number;
  createdAt: string;
  ledger?: FeeEntryJson[];
}

export interface FeeReceiptJson {
  _id: string;
  number: string;
  accountId: string;
  amount: number;
  mode: DeskMode | "online";
  reference: string | null;
  paidOn: string;
  chequeDate: string | null;
  allocations: { dueId: string; label: string; amount: number }[];
  reversed: { reason: string; at: string } | null;
  createdAt: string;
}
