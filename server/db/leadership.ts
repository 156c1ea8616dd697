import pg from "pg";
import { ADVISORY_LOCKS } from "./advisory-locks.ts";
import type { Database } from "./types.ts";

export interface Leadership {
  /** Whether this instance does the work now. */
  readonly leading: boolean;
  /** Stops the work (if leading), lets the lock go and stops trying for it. */
  stop(): Promise<void>;
}

/**
 * Periodic work done once across instances (issue 43 §2, decision 0050): only the instance that
 * holds a session-level advisory lock runs `start` (which starts the work and returns how to
 * stop it). The lock is held on a connection of its own to the direct URL (never through a
 * transaction-mode pooler); the others try for it every `retryMs`. When the leader's process
 * dies or its connection drops, PostgreSQL lets the lock go and another instance takes over
 * within `retryMs`; the leader stops its work as soon as it sees its connection gone. The
 * embedded database belongs to one process, which always leads.
 */
export function lead(
  database: Database,
  start: () => () => void,
  options: { retryMs?: number; onError?: (error: Error) => void } = {},
): Leadership {
  if (database.kind === "pglite" || !database.url) {
    let stopWork: (() => void) | undefined = start();
    return {
      leading: true,
      async stop() {
        stopWork?.();
        stopWork = undefined;
      },
    };
  }
  return new AdvisoryLeadership(database.url, start, options.retryMs ?? 1000, options.onError);
}

class AdvisoryLeadership implements Leadership {
  private client: pg.Client | undefined;
  private stopWork: (() => void) | undefined;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private trying: Promise<void> | undefined;
  private readonly url: string;
  private readonly start: () => () => void;
  private readonly retryMs: number;
  private readonly onError?: (error: Error) => void;

  constructor(url: string, start: () => () => void, retryMs: number, onError?: (error: Error) => void) {
    this.url = url;
    this.start = start;
    this.retryMs = retryMs;
    this.onError = onError;
    this.trying = this.attempt();
  }

  get leading() {
    return this.stopWork !== undefined;
  }

  /** Connects if need be and asks for the lock once; leads if given it, else tries again later. */
  private async attempt(): Promise<void> {
    if (this.stopped) return;
    try {
      const client = this.client ?? (await this.connect());
      const { rows } = await client.query<{ held: boolean }>("select pg_try_advisory_lock($1) as held", [
        ADVISORY_LOCKS.periodicWork,
      ]);
      if (this.stopped || this.client !== client) return;
      if (rows[0].held) {
        this.stopWork = this.start();
        return;
      }
    } catch (error) {
      this.onError?.(error as Error);
      this.drop();
    }
    this.later();
  }

  private async connect(): Promise<pg.Client> {
    // Keep-alive probes from 10 s of silence (not the system's two hours): a leader cut off from
    // PostgreSQL without its connection closing finds out, and stops, within a minute or so.
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: 3000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      if (error) this.onError?.(error);
      this.drop();
      this.later();
    };
    client.on("error", lost);
    client.on("end", () => lost());
    try {
      await client.connect();
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    this.client = client;
    return client;
  }

  /** The connection is gone (and the lock with it): the work stops at once. */
  private drop() {
    const client = this.client;
    this.client = undefined;
    this.stopWork?.();
    this.stopWork = undefined;
    client?.end().catch(() => {});
  }

  private later() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.trying = this.attempt();
    }, this.retryMs);
    this.timer.unref();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.trying;
    const client = this.client;
    this.client = undefined;
    this.stopWork?.();
    this.stopWork = undefined;
    // Ending the session lets the lock go: another instance leads within its retry.
    await client?.end().catch(() => {});
  }
}
