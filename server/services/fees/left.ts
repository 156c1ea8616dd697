import { eq, exists, or, type SQL, type SQLWrapper } from "drizzle-orm";
import { feeRefundRequests, feeRefunds } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/types.ts";

/**
 * The student left: a refund of the account was asked for (made, or under way). One rule for
 * one account (`FeeDesk.refundAsked`) and for a query over many (the debits due today): the
 * request row, or the refund itself for a refund made before requests were kept.
 */
export function refundAskedOf(db: DbOrTx, accountId: SQLWrapper | string): SQL {
  return or(
    exists(
      db.select({ id: feeRefundRequests.id }).from(feeRefundRequests).where(eq(feeRefundRequests.accountId, accountId)),
    ),
    exists(db.select({ id: feeRefunds.id }).from(feeRefunds).where(eq(feeRefunds.accountId, accountId))),
  )!;
}
