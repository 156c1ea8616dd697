import { sql, type SQL } from "drizzle-orm";
import { pgPolicy, type AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * Row-level security, the second wall behind the application's own filters: while a request for
 * an institute's domain runs, the connection carries `app.center_id` and rows of every other
 * institute are invisible (and cannot be written). On the platform the setting is empty and the
 * application's ownership checks alone apply. See server/db/tenant-scope.ts.
 */
export const TENANT_SETTING = "app.center_id";

const tenant = sql`nullif(current_setting('app.center_id', true), '')`;

/** The one policy every tenant table has: rows it may see are rows it may write. */
const tenantPolicy = (visible: SQL) =>
  pgPolicy("tenant_isolation", { as: "permissive", for: "all", to: "public", using: visible, withCheck: visible });

export function tenantIsolation(centerColumn: AnyPgColumn) {
  return tenantPolicy(sql`${tenant} is null or ${centerColumn} = ${tenant}::uuid`);
}

/**
 * As `tenantIsolation`, but the platform's own rows (no seller institute) stay visible: an owner
 * renewing a plan from their institute's domain places the platform's order and is issued the
 * platform's invoice there.
 */
export function sellerIsolation(sellerColumn: AnyPgColumn) {
  return tenantPolicy(sql`${tenant} is null or ${sellerColumn} is null or ${sellerColumn} = ${tenant}::uuid`);
}
