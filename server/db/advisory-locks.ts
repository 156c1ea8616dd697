import { sql } from "drizzle-orm";
import type { DbOrTx } from "./types.ts";

/**
 * Every PostgreSQL advisory lock key the app takes, in one place so that no two uses share one.
 * A one-part key locks one thing; a two-part key (space, hash of a name) locks one name within
 * its space, and never collides with a one-part key.
 */
export const ADVISORY_LOCKS = {
  /** One-part, session-level: instances starting together apply migrations one after another. */
  migrations: 7351001,
  /** Space: one rate-limit bucket is counted by one request at a time. */
  rateLimitBuckets: 7351002,
  /** One-part: instances starting together grant the job queue's tables one after another. */
  jobQueueGrants: 7351003,
  /** Space: one seller's invoices are issued one at a time. */
  invoiceSellers: 7351004,
  /** Space: messages to addresses given in requests are counted against their daily limits one transaction at a time. */
  messageLimits: 7351005,
  /** Space: domains sharing their last two labels are bound one at a time (a name, its www. twin, its parents). */
  domainBinds: 7351006,
  /** Space: one institute's timetables, holidays and classes are changed one transaction at a time (clash checks). */
  timetables: 7351007,
  /** One-part, session-level: the instance holding it does the periodic work (leadership.ts). */
  periodicWork: 7351008,
} as const;

/** Holds `name`'s lock within `space` until `tx` ends; a transaction asking for the same one waits. */
export async function lockForTransaction(tx: DbOrTx, space: number, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${space}, hashtext(${name}))`);
}
