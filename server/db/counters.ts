import { sql } from "drizzle-orm";
import { invoiceCounters } from "./schema/index.ts";
import type { DbOrTx } from "./types.ts";

/**
 * The next number of a document series in a financial year, taken in the caller's transaction:
 * numbers are handed out one at a time and a rolled-back document gives its number back, so a
 * series has no gaps (GST invoices, credit notes and fee receipts alike). The counter's row stays
 * locked until the transaction ends, so two takers of one series wait for each other.
 */
export async function nextInSeries(tx: DbOrTx, series: string, financialYear: string): Promise<number> {
  const [counter] = await tx
    .insert(invoiceCounters)
    .values({ series, financialYear, lastSeq: 1 })
    .onConflictDoUpdate({
      target: [invoiceCounters.series, invoiceCounters.financialYear],
      set: { lastSeq: sql`${invoiceCounters.lastSeq} + 1` },
    })
    .returning({ seq: invoiceCounters.lastSeq });
  return counter.seq;
}
