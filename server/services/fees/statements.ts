import { and, asc, eq, inArray } from "drizzle-orm";
import { feeAccounts, feeDues, feeEntries, users } from "../../db/schema/index.ts";
import type { DbOrTx, Tx } from "../../db/types.ts";
import { dueFigures, toRupees, type DueFigures, type FeeEntryKind } from "#common/fees.ts";
import type { FeeAccountJson, FeeDueJson, FeeEntryJson } from "#common/validation/fees.ts";

export type FeeDueRow = typeof feeDues.$inferSelect;
export type FeeEntryRow = typeof feeEntries.$inferSelect;

/** A due with its entries and its figures on a day, in paise: what payments are allocated against. */
export interface DueState {
  due: FeeDueRow;
  balance: number;
  accrued: number;
}

/** A due and its figures on a day, in paise. */
export interface DueLedger {
  due: FeeDueRow;
  figures: DueFigures;
}

/** Which dues `ledgerDues` reads: an institute's, some accounts', or some dues (all given are applied). */
export interface DueScope {
  centerId?: string;
  accountIds?: string[];
  dueIds?: string[];
}

/**
 * Dues with their figures on India date `on`, derived from the ledger (oldest last date first):
 * the one reading of the ledger that payments, reminders and the dues views all use.
 */
export async function ledgerDues(db: DbOrTx, scope: DueScope, on: string): Promise<DueLedger[]> {
  if (scope.accountIds?.length === 0 || scope.dueIds?.length === 0) return [];
  const where = and(
    scope.centerId ? eq(feeDues.centerId, scope.centerId) : undefined,
    scope.accountIds ? inArray(feeDues.accountId, scope.accountIds) : undefined,
    scope.dueIds ? inArray(feeDues.id, scope.dueIds) : undefined,
  );
  const dues = await db.select().from(feeDues).where(where).orderBy(asc(feeDues.dueOn), asc(feeDues.position));
  if (dues.length === 0) return [];
  const entries = await db
    .select({ dueId: feeEntries.dueId, kind: feeEntries.kind, amount: feeEntries.amount })
    .from(feeEntries)
    .innerJoin(feeDues, eq(feeDues.id, feeEntries.dueId))
    .where(where);
  const byDue = new Map<string, { kind: FeeEntryKind; amount: number }[]>();
  for (const e of entries) byDue.set(e.dueId, [...(byDue.get(e.dueId) ?? []), e]);
  return dues.map((due) => ({
    due,
    figures: dueFigures(
      { amount: due.amount, dueOn: due.dueOn, lateFee: due.lateFee, entries: byDue.get(due.id) ?? [] },
      on,
    ),
  }));
}

/** The dues of an account in the order payments settle them: oldest last date first. */
export async function dueStates(db: DbOrTx, accountId: string, on: string): Promise<DueState[]> {
  const dues = await ledgerDues(db, { accountIds: [accountId] }, on);
  return dues.map(({ due, figures }) => ({ due, balance: figures.balance, accrued: figures.accrued }));
}

/**
 * A charge on the ledger (a bounced cheque's fee): on the account's oldest due still open on `on`,
 * or its last due when none is. Call it in `tx` while holding the account's lock, as the desk does.
 */
export async function postCharge(
  tx: Tx,
  charge: { accountId: string; centerId: string; amount: number; reason: string; actorId: string | null; on: string },
): Promise<void> {
  const dues = await dueStates(tx, charge.accountId, charge.on);
  const due = (dues.find((d) => d.balance > 0) ?? dues.at(-1))?.due;
  if (!due) return;
  await tx.insert(feeEntries).values({
    accountId: charge.accountId,
    centerId: charge.centerId,
    dueId: due.id,
    kind: "charge",
    amount: charge.amount,
    reason: charge.reason,
    createdById: charge.actorId,
  });
}

/**
 * Fee accounts as the API shows them (issue 42 §2), every figure derived from the ledger on the
 * India date `on`: each due's discount, payments, late fee and balance, and the account's sums.
 */
export async function accountStatements(
  db: DbOrTx,
  accountIds: string[],
  on: string,
  withLedger = false,
): Promise<FeeAccountJson[]> {
  if (accountIds.length === 0) return [];
  const accounts = await db
    .select({ account: feeAccounts, name: users.name, email: users.email })
    .from(feeAccounts)
    .innerJoin(users, eq(users.id, feeAccounts.studentId))
    .where(inArray(feeAccounts.id, accountIds))
    .orderBy(asc(feeAccounts.createdAt));
  const dues = await db
    .select()
    .from(feeDues)
    .where(inArray(feeDues.accountId, accountIds))
    .orderBy(asc(feeDues.dueOn), asc(feeDues.position));
  const entries = await db
    .select({ entry: feeEntries, by: users.name })
    .from(feeEntries)
    .leftJoin(users, eq(users.id, feeEntries.createdById))
    .where(and(inArray(feeEntries.accountId, accountIds)))
    .orderBy(asc(feeEntries.createdAt));
  return accounts.map(({ account, name, email }) => {
    const own = entries.filter((e) => e.entry.accountId === account.id);
    const dueJson: FeeDueJson[] = dues
      .filter((due) => due.accountId === account.id)
      .map((due) => {
        const f = dueFigures(
          {
            amount: due.amount,
            dueOn: due.dueOn,
            lateFee: due.lateFee,
            entries: own.filter((e) => e.entry.dueId === due.id).map((e) => e.entry),
          },
          on,
        );
        return {
          _id: due.id,
          label: due.label,
          amount: toRupees(due.amount),
          dueOn: due.dueOn,
          discount: toRupees(f.discount),
          paid: toRupees(f.paid),
          lateFee: toRupees(f.lateFee),
          waived: toRupees(f.waived),
          balance: toRupees(f.balance),
          overdueDays: f.overdueDays,
        };
      });
    const total = (pick: (d: FeeDueJson) => number) =>
      toRupees(Math.round(dueJson.reduce((s, d) => s + pick(d) * 100, 0)));
    const json: FeeAccountJson = {
      _id: account.id,
      centerId: account.centerId,
      student: { _id: account.studentId, name, email },
      feePlanId: account.feePlanId,
      planName: account.planName,
      dues: dueJson,
      total: total((d) => d.amount),
      discount: total((d) => d.discount),
      paid: total((d) => d.paid),
      lateFee: total((d) => d.lateFee),
      balance: total((d) => d.balance),
      overdue: total((d) => (d.overdueDays > 0 ? d.balance : 0)),
      createdAt: account.createdAt.toISOString(),
    };
    if (withLedger)
      json.ledger = own.map(({ entry, by }): FeeEntryJson => ({
        _id: entry.id,
        dueId: entry.dueId,
        kind: entry.kind as FeeEntryKind,
        amount: toRupees(entry.amount),
        receiptId: entry.receiptId,
        reason: entry.reason,
        discount: entry.discount
          ? {
              ...entry.discount,
              amount: entry.discount.amount === undefined ? undefined : toRupees(entry.discount.amount),
            }
          : null,
        at: entry.createdAt.toISOString(),
        by,
      }));
    return json;
  });
}
