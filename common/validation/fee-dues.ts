import * as v from "valibot";
import { isUuid } from "./ids.ts";
import { isCalendarDate } from "./dates.ts";
import { daysBetween } from "../india-dates.ts";
import type { DeskMode } from "./fees.ts";

/**
 * Dues at a glance and reminders (issue 42 §4–5): the queries of `/api/fees/collections`,
 * `/api/fees/defaulters` and `/api/fees/outstanding`, the answers' shapes and the texts people read.
 * Amounts in rupees.
 */

export const INSTITUTE_NOT_FOUND = "Institute not found";
export const FEE_NOTHING_OVERDUE = "Nothing on this account is overdue: there is nothing to remind about.";
export const alreadyReminded = (name: string) => `${name} has already been reminded today. Try again tomorrow.`;
export const reminded = (name: string) => `A reminder is on its way to ${name}.`;
export const COLLECTION_MAX_DAYS = 366;
export const COLLECTION_TEXTS = {
  from: "From must be a date (YYYY-MM-DD)",
  to: "To must be a date (YYYY-MM-DD)",
  both: "Give both from and to, or neither (this month)",
  order: "To cannot be before from",
  long: `A collection report covers at most ${COLLECTION_MAX_DAYS} days`,
  format: "Format must be json or csv",
  overdueDays: "Overdue days must be a whole number from 0 to 365",
  by: "By must be batch or student",
} as const;

const centerId = v.optional(
  v.pipe(
    v.string(INSTITUTE_NOT_FOUND),
    v.check(isUuid, INSTITUTE_NOT_FOUND),
    v.description("The institute (else the institute's domain or the header's choice)"),
  ),
);

const date = (message: string, description: string) =>
  v.optional(
    v.pipe(
      v.string(message),
      v.trim(),
      v.isoDate(message),
      v.check(isCalendarDate, message),
      v.description(description),
    ),
  );

type Range = { from?: string; to?: string };
function rangeProblem(q: Range): string | null {
  if ((q.from === undefined) !== (q.to === undefined)) return COLLECTION_TEXTS.both;
  if (q.from && q.to && q.to < q.from) return COLLECTION_TEXTS.order;
  if (q.from && q.to && daysBetween(q.from, q.to) >= COLLECTION_MAX_DAYS) return COLLECTION_TEXTS.long;
  return null;
}

/** `GET /api/fees/collections`: receipts paid from–to (India dates; neither: this month), as JSON or CSV. */
export const CollectionsQuery = v.pipe(
  v.object({
    centerId,
    from: date(COLLECTION_TEXTS.from, "First India date a receipt was paid on, YYYY-MM-DD (with to)"),
    to: date(COLLECTION_TEXTS.to, "Last India date, YYYY-MM-DD (with from)"),
    format: v.optional(
      v.pipe(
        v.picklist(["json", "csv"], COLLECTION_TEXTS.format),
        v.description("csv: the receipts as a CSV file for the accountant (as Accept: text/csv)"),
      ),
    ),
  }),
  v.check<Range & { centerId?: string; format?: "json" | "csv" }, v.ErrorMessage<v.CheckIssue<Range>>>(
    (q) => rangeProblem(q) === null,
    (issue) => rangeProblem(issue.input) ?? COLLECTION_TEXTS.both,
  ),
);
export type CollectionsQuery = v.InferOutput<typeof CollectionsQuery>;

/** `GET /api/fees/defaulters`: overdue by more than `overdueDays` (else the institute's setting, 15 by default). */
export const DefaultersQuery = v.object({
  centerId,
  overdueDays: v.optional(
    v.pipe(
      v.string(COLLECTION_TEXTS.overdueDays),
      v.trim(),
      v.regex(/^\d{1,3}$/, COLLECTION_TEXTS.overdueDays),
      v.transform(Number),
      v.maxValue(365, COLLECTION_TEXTS.overdueDays),
      v.description("Overdue by more than this many days (0–365; else the institute's setting, 15 by default)"),
    ),
  ),
});
export type DefaultersQuery = v.InferOutput<typeof DefaultersQuery>;

/** `GET /api/fees/outstanding`: what is owed, by batch or by student. */
export const OutstandingQuery = v.object({
  centerId,
  by: v.optional(
    v.pipe(v.picklist(["batch", "student"], COLLECTION_TEXTS.by), v.description("batch (the default) or student")),
    "batch",
  ),
});
export type OutstandingQuery = v.InferOutput<typeof OutstandingQuery>;

export interface CollectionReceiptJson {
  _id: string;
  number: string;
  accountId: string;
  studentId: string;
  name: string;
  planName: string;
  amount: number;
  mode: DeskMode | "online";
  reference: string | null;
  paidOn: string;
  reversed: { reason: string; at: string } | null;
}

export interface CollectionsJson {
  from: string;
  to: string;
  /** Every receipt paid in the range, newest first; reversed ones are listed and never counted. */
  receipts: CollectionReceiptJson[];
  byDay: { date: string; amount: number; count: number }[];
  byMode: { mode: DeskMode | "online"; amount: number; count: number }[];
  total: number;
  count: number;
  reversed: { amount: number; count: number };
}

export interface DefaulterJson {
  studentId: string;
  name: string;
  accountId: string;
  planName: string;
  overdue: number;
  oldestDueOn: string;
  daysOverdue: number;
}

export interface OutstandingRowJson {
  /** A batch's id (null: accounts in no batch), or a student's. */
  _id: string | null;
  name: string;
  accounts: number;
  balance: number;
  overdue: number;
}

export interface OutstandingJson {
  by: "batch" | "student";
  rows: OutstandingRowJson[];
  balance: number;
  overdue: number;
}
