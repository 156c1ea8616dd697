import { AsyncLocalStorage } from "node:async_hooks";

/** Who made the request that is writing messages: the signed-in account, if any, and the network address. */
export interface Requester {
  userId: string | null;
  ip: string;
}

/**
 * The requester, carried through every await of a request as the tenant scope is
 * (server/db/tenant-scope.ts), so that every message a request writes to an address it gave is
 * counted against that account and address, whichever service writes it (decision 0032).
 * Sweeps and workers run outside any request: they have none.
 */
const requester = new AsyncLocalStorage<Requester>();

export function runAsRequester<T>(who: Requester, fn: () => T): T {
  return requester.run(who, fn);
}

export function currentRequester(): Requester | null {
  return requester.getStore() ?? null;
}
