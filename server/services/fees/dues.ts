import { and, asc, desc, eq, gte, inArray, isNull, lte } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import { batchStudents, batches, feeAccounts, feeReceiptReversals, feeReceipts, users } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { isDefaulter, owingOf, toRupees, type Owing } from "#common/fees.ts";
import { feeSettingsOf } from "./settings.ts";
import { indiaDate } from "#common/india-dates.ts";
import { DESK_MODES, MODE_LABELS } from "#common/validation/fees.ts";
import type {
  CollectionsJson,
  CollectionsQuery,
  DefaulterJson,
  OutstandingJson,
  OutstandingRowJson,
} from "#common/validation/fee-dues.ts";
import { ledgerDues } from "./statements.ts";

/** The name of the row that gathers accounts in no batch. */
export const NO_BATCH = "Not in a batch";

const CSV_HEADER = [
  "Receipt",
  "Paid on",
  "Student",
  "Fee plan",
  "Mode",
  "Reference",
  "Amount (₹)",
  "Reversed",
  "Reversal reason",
];
const MODE_ORDER = [...DESK_MODES, "online"] as const;

/**
 * Dues at a glance (issue 42 §5): the institute's collection by day and mode over a range of
 * India dates (and as CSV for its accountant), its defaulters, and what is outstanding by batch and
 * by student. Every balance is the ledger's, derived on today's India date by `ledgerDues`, the
 * one reading the desk and the reminders use too; nothing here is stored.
 */
export class FeeDues {
  private readonly db: Db;
  private readonly now: () => Date;

  constructor(deps: { db: Db; now?: () => Date }) {
    this.db = deps.db;
    this.now = deps.now ?? (() => new Date());
  }

  /** Today, India time, by the service's clock. */
  today(): string {
    return indiaDate(this.now());
  }

  /**
   * Receipts paid from–to (India dates; neither: this month so far), newest first, with the
   * totals by day and by mode. A reversed receipt is listed, marked, and never counted.
   */
  async collections(centerId: string, query: Pick<CollectionsQuery, "from" | "to"> = {}): Promise<CollectionsJson> {
    const today = this.today();
    const from = query.from ?? `${today.slice(0, 8)}01`;
    const to = query.to ?? today;
    const rows = await this.db
      .select({
        receipt: feeReceipts,
        reversal: feeReceiptReversals,
        studentId: feeAccounts.studentId,
        planName: feeAccounts.planName,
        name: users.name,
      })
      .from(feeReceipts)
      .innerJoin(feeAccounts, eq(feeAccounts.id, feeReceipts.accountId))
      .innerJoin(users, eq(users.id, feeAccounts.studentId))
      .leftJoin(feeReceiptReversals, eq(feeReceiptReversals.receiptId, feeReceipts.id))
      .where(and(eq(feeReceipts.centerId, centerId), gte(feeReceipts.paidOn, from), lte(feeReceipts.paidOn, to)))
      .orderBy(desc(feeReceipts.paidOn), desc(feeReceipts.createdAt));
    const days = new Map<string, { amount: number; count: number }>();
    const modes = new Map<string, { amount: number; count: number }>();
    let total = 0;
    const reversed = { amount: 0, count: 0 };
    for (const { receipt, reversal } of rows) {
      if (reversal) {
        reversed.amount += receipt.amount;
        reversed.count += 1;
        continue;
      }
      total += receipt.amount;
      for (const [map, key] of [
        [days, receipt.paidOn],
        [modes, receipt.mode],
      ] as const) {
        const sum = map.get(key) ?? { amount: 0, count: 0 };
        map.set(key, { amount: sum.amount + receipt.amount, count: sum.count + 1 });
      }
    }
    return {
      from,
      to,
      receipts: rows.map(({ receipt, reversal, studentId, planName, name }) => ({
        _id: receipt.id,
        number: receipt.number,
        accountId: receipt.accountId,
        studentId,
        name,
        planName,
        amount: toRupees(receipt.amount),
        mode: receipt.mode,
        reference: receipt.reference,
        paidOn: receipt.paidOn,
        reversed: reversal ? { reason: reversal.reason, at: reversal.reversedAt.toISOString() } : null,
      })),
      byDay: [...days]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([date, sum]) => ({ date, amount: toRupees(sum.amount), count: sum.count })),
      byMode: MODE_ORDER.filter((mode) => modes.has(mode)).map((mode) => ({
        mode,
        amount: toRupees(modes.get(mode)!.amount),
        count: modes.get(mode)!.count,
      })),
      total: toRupees(total),
      count: rows.length - reversed.count,
      reversed: { amount: toRupees(reversed.amount), count: reversed.count },
    };
  }

  /** The collection report as a CSV file that spreadsheets open as they are (BOM, CRLF, formulas defused). */
  collectionsCsv(report: CollectionsJson): string {
    return stringify(
      [
        CSV_HEADER,
        ...report.receipts.map((r) => [
          r.number,
          r.paidOn,
          r.name,
          r.planName,
          MODE_LABELS[r.mode],
          r.reference ?? "",
          r.amount.toFixed(2),
          r.reversed ? "Yes" : "No",
          r.reversed?.reason ?? "",
        ]),
      ],
      { bom: true, record_delimiter: "windows", escape_formulas: true },
    );
  }

  /**
   * Students overdue by more than `overdueDays` (else the institute's `defaulterAfterDays`, 15 by
   * default) on an account: what is overdue on it and since when, longest overdue first.
   */
  async defaulters(
    centerId: string,
    overdueDays?: number,
  ): Promise<{ overdueDays: number; students: DefaulterJson[] }> {
    const after = overdueDays ?? (await feeSettingsOf(this.db, centerId)).defaulterAfterDays;
    const owing = await this.owingByAccount(centerId);
    const students = (await this.accounts(centerId))
      .map((account) => ({ account, owing: owing.get(account.id) }))
      .filter((row): row is { account: AccountRow; owing: Owing } => !!row.owing && isDefaulter(row.owing, after))
      .map(({ account, owing }) => ({
        studentId: account.studentId,
        name: account.name,
        accountId: account.id,
        planName: account.planName,
        overdue: toRupees(owing.overdue),
        oldestDueOn: owing.oldestDueOn!,
        daysOverdue: owing.daysOverdue,
      }))
      .sort((a, b) => b.daysOverdue - a.daysOverdue || a.name.localeCompare(b.name));
    return { overdueDays: after, students };
  }

  /**
   * What is owed (and of it, overdue), by student or by batch; only rows that owe something,
   * largest first. An account counts under one batch, so the batches add up to the institute's
   * total: the student's current batch whose fee plan it is, else the batch they were admitted to
   * first among those they are in now, else "Not in a batch".
   */
  async outstanding(centerId: string, by: "batch" | "student"): Promise<OutstandingJson> {
    const owing = await this.owingByAccount(centerId);
    const accounts = (await this.accounts(centerId)).filter((a) => (owing.get(a.id)?.balance ?? 0) > 0);
    const batchOf = by === "batch" ? await this.batchesOf(centerId, accounts) : new Map<string, Group>();
    const groups = new Map<string | null, OutstandingRowJson & { paise: { balance: number; overdue: number } }>();
    for (const account of accounts) {
      const group: Group =
        by === "student" ? { id: account.studentId, name: account.name } : (batchOf.get(account.id) ?? NO_GROUP);
      const row = groups.get(group.id) ?? {
        _id: group.id,
        name: group.name,
        accounts: 0,
        balance: 0,
        overdue: 0,
        paise: { balance: 0, overdue: 0 },
      };
      const { balance, overdue } = owing.get(account.id)!;
      row.accounts += 1;
      row.paise.balance += balance;
      row.paise.overdue += overdue;
      groups.set(group.id, row);
    }
    const rows = [...groups.values()]
      .sort((a, b) => b.paise.balance - a.paise.balance || a.name.localeCompare(b.name))
      .map(({ paise, ...row }) => ({ ...row, balance: toRupees(paise.balance), overdue: toRupees(paise.overdue) }));
    const sum = (pick: (row: OutstandingRowJson) => number) =>
      toRupees(rows.reduce((s, r) => s + Math.round(pick(r) * 100), 0));
    return { by, rows, balance: sum((r) => r.balance), overdue: sum((r) => r.overdue) };
  }

  /** Each of the institute's accounts' balance, overdue amount and oldest overdue date, today. */
  private async owingByAccount(centerId: string): Promise<Map<string, Owing>> {
    const dues = await ledgerDues(this.db, { centerId }, this.today());
    const byAccount = new Map<string, { dueOn: string; balance: number; overdueDays: number }[]>();
    for (const { due, figures } of dues)
      byAccount.set(due.accountId, [
        ...(byAccount.get(due.accountId) ?? []),
        { dueOn: due.dueOn, balance: figures.balance, overdueDays: figures.overdueDays },
      ]);
    return new Map([...byAccount].map(([accountId, list]) => [accountId, owingOf(list)]));
  }

  private accounts(centerId: string): Promise<AccountRow[]> {
    return this.db
      .select({
        id: feeAccounts.id,
        studentId: feeAccounts.studentId,
        planName: feeAccounts.planName,
        feePlanId: feeAccounts.feePlanId,
        name: users.name,
      })
      .from(feeAccounts)
      .innerJoin(users, eq(users.id, feeAccounts.studentId))
      .where(eq(feeAccounts.centerId, centerId))
      .orderBy(asc(users.name), asc(feeAccounts.createdAt));
  }

  /** The batch each account counts under (see `outstanding`). */
  private async batchesOf(centerId: string, accounts: AccountRow[]): Promise<Map<string, Group>> {
    const studentIds = [...new Set(accounts.map((a) => a.studentId))];
    const admissions = studentIds.length
      ? await this.db
          .select({
            userId: batchStudents.userId,
            batchId: batches.id,
            name: batches.name,
            feePlanId: batches.feePlanId,
          })
          .from(batchStudents)
          .innerJoin(batches, eq(batches.id, batchStudents.batchId))
          .where(
            and(
              eq(batchStudents.centerId, centerId),
              eq(batchStudents.status, "admitted"),
              isNull(batchStudents.leftAt),
              inArray(batchStudents.userId, studentIds),
            ),
          )
          .orderBy(asc(batchStudents.admittedAt), asc(batchStudents.createdAt))
      : [];
    const out = new Map<string, Group>();
    for (const account of accounts) {
      const own = admissions.filter((a) => a.userId === account.studentId);
      const batch = own.find((a) => a.feePlanId === account.feePlanId) ?? own[0];
      out.set(account.id, batch ? { id: batch.batchId, name: batch.name } : NO_GROUP);
    }
    return out;
  }
}

interface AccountRow {
  id: string;
  studentId: string;
  planName: string;
  feePlanId: string;
  name: string;
}
interface Group {
  id: string | null;
  name: string;
}
const NO_GROUP: Group = { id: null, name: NO_BATCH };
