import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "../runtime/logger.ts";
import { runInTenantScope } from "../db/tenant-scope.ts";

/**
 * Work a request causes but must not wait for, because how long it takes would tell the asker
 * something (whether an address is an account's: issue 37 §8, decision 0028). It starts once the
 * request's own work is done, outside the request's context, under the institute scope given;
 * a failure is logged. Nothing is kept across a restart: the person asks again.
 */
export class AfterAnswer {
  private readonly pending = new Set<Promise<void>>();
  /** Runs a function in the context this was made in (start-up), not the request's. */
  private readonly outside = AsyncLocalStorage.snapshot();
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  run(what: string, centerId: string | null, task: () => Promise<void>): void {
    const done: Promise<void> = new Promise<void>((resolve) => this.outside(() => setImmediate(resolve)))
      .then(() => this.outside(() => runInTenantScope(centerId, task)))
      .catch((error: unknown) => this.logger.warn(`${what} failed`, { error }))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Resolves once every task started so far has finished (before the database closes). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }
}
