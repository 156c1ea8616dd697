import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The institute a request is for, carried through every await of that request. Every
 * transaction the application's `db` runs begins with it (`scopeStatements`, applied in
 * server/db/open.ts): `app.center_id` for the row-level security policies, and the application's
 * role, both with `SET LOCAL`, so they end with the transaction and never stay on a connection
 * (decision 0049). Empty means the platform: no restriction by policy.
 */
const scope = new AsyncLocalStorage<string>();

export function runInTenantScope<T>(centerId: string | null, fn: () => T): T {
  return scope.run(centerId ?? "", fn);
}

export function currentTenantScope(): string {
  return scope.getStore() ?? "";
}

/** The role the application's queries run as (it owns no table, so the policies bind it). */
export const APP_ROLE = "pathshala_app";

/** While set, transactions stay the login user (`Database.asOwner`: start-up DDL, tests). */
const owner = new AsyncLocalStorage<boolean>();

export function runAsOwner<T>(fn: () => T): T {
  return owner.run(true, fn);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a transaction runs right after its BEGIN to be in the current scope: the application's
 * role (unless running as the owner, or `roleUsable` is false: a login user that may not take
 * it) and the institute. `SET LOCAL` takes no snapshot, so an isolation level may still follow.
 */
export function scopeStatements(roleUsable = true): string {
  const centerId = currentTenantScope();
  // Written into the SQL text (it goes with the BEGIN in one round trip): only an id, or nothing.
  if (centerId !== "" && !UUID.test(centerId)) throw new Error(`Not an institute's id: ${JSON.stringify(centerId)}`);
  const role = roleUsable && !owner.getStore() ? `set local role ${APP_ROLE}; ` : "";
  return `${role}set local app.center_id to '${centerId}'`;
}
