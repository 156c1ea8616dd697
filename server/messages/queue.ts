import { sql } from "drizzle-orm";
import { PgBoss, fromDrizzle, fromPglite, type DrizzleTransactionLike, type JobResult } from "pg-boss";
import type { Database, DbOrTx } from "../db/types.ts";
import { ADVISORY_LOCKS } from "../db/advisory-locks.ts";
import { APP_ROLE, runInTenantScope } from "../db/tenant-scope.ts";
import type { Logger } from "../runtime/logger.ts";

/** A message to send (its row in `messages`); and where one goes when every retry has failed. */
export const SEND_QUEUE = "message-send";
export const FAILED_QUEUE = "message-failed";

export interface SendJob {
  messageId: string;
}

/**
 * The job queue (pg-boss; decision 0025) on the app's own database: PGlite through its one
 * connection, PostgreSQL through a small pool of its own. Jobs are sent in the transaction of the
 * event that causes them (`enqueue`), so a message exists exactly when its event does.
 */
/** How a message that could not be sent is tried again: 5 more times, 20 s, 40 s, … up to 30 min apart. */
export const SEND_RETRIES = { retryLimit: 5, retryDelay: 20, retryBackoff: true, retryDelayMax: 30 * 60 };

/** When a job still running is taken as lost with its process, and how often the queue looks. */
export interface JobTiming {
  expireInSeconds: number;
  superviseIntervalSeconds: number;
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly database: Database;
  private readonly retries: { retryLimit: number; retryDelay: number; retryBackoff?: boolean; retryDelayMax?: number };
  private readonly timing: JobTiming;
  private started = false;

  constructor(
    database: Database,
    logger: Logger,
    retries: JobQueue["retries"] = SEND_RETRIES,
    timing: JobTiming = { expireInSeconds: 60, superviseIntervalSeconds: 60 },
  ) {
    this.database = database;
    this.retries = retries;
    this.timing = timing;
    // Expired jobs are found when a queue is monitored, which happens on the supervisor's turn but
    // at most every monitorIntervalSeconds: both follow the setting.
    const looks = {
      superviseIntervalSeconds: timing.superviseIntervalSeconds,
      monitorIntervalSeconds: timing.superviseIntervalSeconds,
    };
    this.boss =
      database.kind === "pglite"
        ? new PgBoss({ db: fromPglite(database.pglite!), backend: "pglite", schedule: false, ...looks })
        : new PgBoss({ connectionString: database.url!, max: 2, schedule: false, ...looks });
    this.boss.on("error", (error) => logger.warn("job queue error", { error: error.message }));
  }

  /**
   * Creates or migrates the queue's schema and queues (as the login user), lets the app's role use
   * them, then starts the worker. Queues exist before any request can send to them (pg-boss looks
   * up an unknown queue outside the sender's transaction, which PGlite's one connection would wait on).
   */
  async start(work: (job: SendJob) => Promise<void>, onFailed: (job: SendJob) => Promise<void>) {
    await this.database.asOwner(async () => {
      await this.boss.start();
      await this.boss.createQueue(FAILED_QUEUE, { retryLimit: 3, retryDelay: 60 });
      await this.boss.createQueue(SEND_QUEUE, {
        ...this.retries,
        // A send that has not finished by then was lost with its process (transports time out sooner).
        expireInSeconds: this.timing.expireInSeconds,
        deadLetter: FAILED_QUEUE,
      });
      // Instances starting together would update the same catalog rows at once ("tuple concurrently
      // updated"): the grants are made under a transaction-level advisory lock.
      await this.boss.getDb().executeSql(
        `begin;
         select pg_advisory_xact_lock(${ADVISORY_LOCKS.jobQueueGrants});
         grant usage on schema pgboss to ${APP_ROLE};
         grant select, insert, update, delete on all tables in schema pgboss to ${APP_ROLE};
         grant execute on all functions in schema pgboss to ${APP_ROLE};
         commit`,
      );
    });
    this.started = true;
    // Workers send on the platform's scope, whatever started the queue.
    const scoped = <T>(fn: () => Promise<T>) => runInTenantScope(null, fn);
    // Each job of a batch is settled on its own: one message that fails is retried alone, and the
    // others it was fetched with are not sent again.
    await this.boss.work<SendJob>(
      SEND_QUEUE,
      { pollingIntervalSeconds: 0.5, batchSize: 5, perJobResults: true },
      async (jobs) => {
        const results: JobResult[] = [];
        for (const job of jobs) {
          try {
            await scoped(() => work(job.data));
            results.push({ id: job.id, status: "completed" });
          } catch (error) {
            results.push({ id: job.id, status: "failed", output: { message: (error as Error).message } });
          }
        }
        return results;
      },
    );
    await this.boss.work<SendJob>(FAILED_QUEUE, { pollingIntervalSeconds: 2 }, async (jobs) => {
      for (const job of jobs) await scoped(() => onFailed(job.data));
    });
  }

  /** Sends a job inside `tx`: it exists once the transaction commits, never otherwise. */
  async enqueue(tx: DbOrTx, job: SendJob, options: { startAfter?: Date } = {}) {
    await this.boss.send(SEND_QUEUE, job, {
      // Drizzle's execute answers rows in the shape the adapter reads on both drivers.
      db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql),
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
    });
  }

  /** Sends many jobs inside `tx` in one statement. */
  async enqueueAll(tx: DbOrTx, jobs: SendJob[]) {
    if (jobs.length === 0) return;
    await this.boss.insert(
      SEND_QUEUE,
      jobs.map((data) => ({ data })),
      { db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql) },
    );
  }

  async stop() {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, timeout: 5_000, close: this.database.kind === "postgres" });
  }
}
