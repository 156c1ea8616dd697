import { eq } from "drizzle-orm";
import { centers, feeAccounts, feeDues, users } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/types.ts";
import { dueStates } from "./statements.ts";
import { feeSettingsOf } from "./settings.ts";

/** A due with whose it is and where: what paying it online needs to know. */
export interface DueOwner {
  dueId: string;
  label: string;
  dueOn: string;
  accountId: string;
  planName: string;
  centerId: string;
  institute: string;
  studentId: string;
  student: { name: string; email: string; phone: string | null };
}

/** The due `dueId`, its account, institute and student; null for none. */
export async function dueOwner(db: DbOrTx, dueId: string): Promise<DueOwner | null> {
  const [row] = await db
    .select({
      dueId: feeDues.id,
      label: feeDues.label,
      dueOn: feeDues.dueOn,
      accountId: feeAccounts.id,
      planName: feeAccounts.planName,
      centerId: feeAccounts.centerId,
      institute: centers.instituteName,
      studentId: users.id,
      name: users.name,
      email: users.email,
      phone: users.phone,
      phoneVerifiedAt: users.phoneVerifiedAt,
    })
    .from(feeDues)
    .innerJoin(feeAccounts, eq(feeAccounts.id, feeDues.accountId))
    .innerJoin(centers, eq(centers.id, feeAccounts.centerId))
    .innerJoin(users, eq(users.id, feeAccounts.studentId))
    .where(eq(feeDues.id, dueId));
  if (!row) return null;
  const { name, email, phone, phoneVerifiedAt, ...due } = row;
  // Only a number its owner proved is messaged (the recipient policy checks it again).
  return { ...due, student: { name, email, phone: phoneVerifiedAt ? phone : null } };
}

/** What the due and its whole account still owe on `on`, in paise. */
export async function owedOn(db: DbOrTx, due: DueOwner, on: string): Promise<{ due: number; account: number }> {
  const states = await dueStates(db, due.accountId, on);
  return {
    due: states.find((s) => s.due.id === due.dueId)?.balance ?? 0,
    account: states.reduce((sum, s) => sum + s.balance, 0),
  };
}

/** Whether the institute lets its students pay part of what they owe online (no settings row: no). */
export async function partialOnline(db: DbOrTx, centerId: string): Promise<boolean> {
  return (await feeSettingsOf(db, centerId)).allowPartialOnline;
}
