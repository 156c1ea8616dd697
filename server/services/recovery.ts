import { and, eq, isNull, sql } from "drizzle-orm";
import { emailChanges, passwordResets, phoneCodes } from "../db/schema/index.ts";
import type { DbOrTx } from "../db/types.ts";

/**
 * Recovery wins over an attacker (issue 37 §7, decision 0028): whoever holds the account's
 * password or address now, nothing an earlier holder started can still finish.
 */

/** Spends every open reset link of the account (its e-mail or password just changed). */
export async function voidResetLinks(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** Spends every open e-mail change link of the account. */
export async function cancelEmailChanges(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(emailChanges)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt)));
}

/**
 * A new password (from a reset link or its owner's change): every reset link, pending e-mail
 * change and one-time code (sign-in, or a number being added) of the account stops working.
 * Signing its sessions out is the caller's, after the commit.
 */
export async function cancelPendingChanges(tx: DbOrTx, userId: string): Promise<void> {
  await voidResetLinks(tx, userId);
  await cancelEmailChanges(tx, userId);
  await tx
    .update(phoneCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(phoneCodes.userId, userId), isNull(phoneCodes.usedAt)));
}
