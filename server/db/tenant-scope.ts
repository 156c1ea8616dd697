import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The institute a request is for, carried through every await of that request. Database
 * connections apply it as `app.center_id` before running the request's queries (server/db/open.ts),
 * which the row-level security policies read. Empty means the platform: no restriction by policy.
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
