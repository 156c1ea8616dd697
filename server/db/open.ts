import { EventEmitter } from "node:events";
import { join, resolve } from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "./schema/index.ts";
import type { Database, Db } from "./types.ts";
import { acquireDataDirLock } from "./lock.ts";
import { ADVISORY_LOCKS } from "./advisory-locks.ts";
import { APP_ROLE, runAsOwner, scopeStatements } from "./tenant-scope.ts";

const drizzleOptions = { schema, casing: "snake_case" } as const;

export interface OpenOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. May be a pooler in transaction mode. */
  databaseUrl?: string;
  /**
   * Where the connections that need a session of their own go (the listener's LISTEN, migrations'
   * advisory lock, the job queue): straight to PostgreSQL, or a pooler in session mode. Default
   * `databaseUrl` (decision 0049).
   */
  directUrl?: string;
  /** Where PGlite keeps its files; omitted means in memory (tests). */
  dataDir?: string;
  poolMax?: number;
  onError?: (error: Error) => void;
  /** Sees every query drizzle runs (the index test EXPLAINs them; a test compares what two requests ran). */
  onQuery?: (sql: string, params: unknown[]) => void;
  /** Restore: create the embedded database from this archive (from `dump()`), on disk or in memory. */
  loadArchive?: Blob;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options)
    : openPglite(options.dataDir, options.loadArchive, options.onQuery);
}

/** Where the embedded database keeps its files inside DATA_DIR. */
export const pgliteDirOf = (dataDir: string) => join(resolve(dataDir), "pglite");

async function openPglite(
  dataDir: string | undefined,
  loadArchive?: Blob,
  onQuery?: OpenOptions["onQuery"],
): Promise<Database> {
  const release = dataDir ? acquireDataDirLock(resolve(dataDir)) : () => {};
  let client: PGlite;
  try {
    client = dataDir
      ? await PGlite.create(pgliteDirOf(dataDir), loadArchive ? { loadDataDir: loadArchive } : {})
      : await PGlite.create(loadArchive ? { loadDataDir: loadArchive } : {});
  } catch (error) {
    release();
    throw error;
  }
  const db = drizzlePglite({
    client: tenantScoped(client) as PGlite,
    ...drizzleOptions,
    ...(onQuery ? { logger: { logQuery: (sql: string, params: unknown[]) => onQuery(sql, params) } } : {}),
  }) as unknown as Db;
  // One process owns an embedded database, so the app's own notifications never need to leave
  // it. Announcements made inside the database (the triggers' NOTIFY: sessions, reads, centers,
  // catalogs) arrive through PGlite's listeners, after their transaction commits.
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    db,
    kind: "pglite",
    async ping() {
      await client.query("select 1");
    },
    async notify(channel, payload) {
      bus.emit(channel, payload);
    },
    listen(channel, onMessage) {
      bus.on(channel, onMessage);
      let stopped = false;
      let unlisten: (() => Promise<void>) | undefined;
      // Like a PostgreSQL listener's (re)connection, "*" says that from now on nothing is missed.
      // A subscription that fails leaves "*" unsaid, so the caches that wait for it stay unused.
      client
        .listen(channel, onMessage)
        .then((off) => {
          if (stopped) return off();
          unlisten = off;
          onMessage("*");
        })
        .catch(() => {});
      return () => {
        stopped = true;
        bus.off(channel, onMessage);
        void unlisten?.().catch(() => {});
      };
    },
    listening: () => !client.closed,
    pglite: client,
    asOwner: (fn) => runAsOwner(fn),
    dump: () => client.dumpDataDir("gzip"),
    async migrate(migrationsFolder) {
      // Migrations create and alter tables: they run as the login user, not the application role.
      await migratePglite(drizzlePglite({ client, ...drizzleOptions }), { migrationsFolder });
    },
    async close() {
      await client.close();
      release();
    },
  };
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax ?? 10,
    // Fail fast while the database is unreachable so requests get a quick 503, not a hang.
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
  });
  pool.on("error", (error) => options.onError?.(error));
  const scoped = new TenantScopedPool(pool, options.onError);
  const onQuery = options.onQuery;
  const db = drizzlePg({
    client: scoped as unknown as pg.Pool,
    ...drizzleOptions,
    ...(onQuery ? { logger: { logQuery: (sql: string, params: unknown[]) => onQuery(sql, params) } } : {}),
  }) as unknown as Db;
  const directUrl = options.directUrl ?? url;
  const listener = new PgListener(directUrl, options.onError);
  return {
    db,
    kind: "postgres",
    async ping() {
      await pool.query("select 1");
    },
    async notify(channel, payload) {
      await db.execute(sql`select pg_notify(${channel}, ${payload})`);
    },
    listen: (channel, onMessage) => listener.subscribe(channel, onMessage),
    listening: () => listener.connected,
    url: directUrl,
    asOwner: (fn) => runAsOwner(fn),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async migrate(migrationsFolder) {
      // A session-level advisory lock on a connection of its own: instances starting together
      // wait for the first to finish, then find nothing left to apply. Migrations create and
      // alter tables: they run as the login user, not the application role.
      const connection = new pg.Client({ connectionString: directUrl, connectionTimeoutMillis: 3000 });
      await connection.connect();
      try {
        await connection.query(`select pg_advisory_lock(${ADVISORY_LOCKS.migrations})`);
        await migratePg(drizzlePg({ client: connection, ...drizzleOptions }), { migrationsFolder });
      } finally {
        await connection.end().catch(() => {});
        // The role may exist now.
        scoped.forgetRole();
      }
    },
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

type QueryConfig = pg.QueryConfig & { name?: string };

/**
 * What drizzle is given instead of the pool (its name must contain "Pool" for drizzle to treat it
 * as one). Every statement runs in a transaction that begins in the current request's scope
 * (`scopeStatements`: the application role and `app.center_id`, both `SET LOCAL`), so nothing
 * of one request stays on a connection for the next, even behind a pooler in transaction mode
 * that gives each transaction whichever server connection is free (decision 0049):
 * - drizzle's transactions (`connect`): the scope goes with their BEGIN, in the same round trip;
 * - a statement on its own (`query`): BEGIN and the scope, the statement, COMMIT.
 * Statements are sent unnamed: a named prepared statement lives on one server connection, which a
 * transaction-mode pooler does not keep for the next transaction (drizzle's `.prepare(name)`
 * still saves building the SQL).
 */
class TenantScopedPool {
  private readonly pool: pg.Pool;
  private readonly onError?: (error: Error) => void;
  /** Whether the login user may take the application role, asked once (again after migrations). */
  private roleUsable: Promise<boolean> | undefined;

  constructor(pool: pg.Pool, onError?: (error: Error) => void) {
    this.pool = pool;
    this.onError = onError;
  }

  forgetRole() {
    this.roleUsable = undefined;
  }

  private async scope(): Promise<string> {
    this.roleUsable ??= this.pool
      .query<{ usable: boolean }>(
        "select exists (select 1 from pg_roles where rolname = $1 and pg_has_role(current_user, oid, 'member')) as usable",
        [APP_ROLE],
      )
      .then(({ rows }) => {
        // Without the role (no CREATEROLE at migration time) the policies still bind non-superusers through FORCE.
        if (!rows[0].usable) this.onError?.(new Error(`The login user cannot take the ${APP_ROLE} role`));
        return rows[0].usable;
      })
      .catch((error: unknown) => {
        this.roleUsable = undefined;
        throw error;
      });
    return scopeStatements(await this.roleUsable);
  }

  /** A connection for one drizzle transaction: its first statement is the BEGIN. */
  async connect(): Promise<ScopedConnection> {
    const scope = await this.scope();
    return new ScopedConnection(await this.pool.connect(), scope);
  }

  async query(config: string | QueryConfig, values?: unknown[]) {
    const scope = await this.scope();
    const client = await this.pool.connect();
    try {
      await client.query(`begin; ${scope}`);
      const result = await client.query(unnamed(config), values);
      await client.query("commit");
      client.release();
      return result;
    } catch (error) {
      // A statement that failed leaves the transaction to roll back; a broken connection goes.
      await client.query("rollback").then(
        () => client.release(),
        (broken: Error) => client.release(broken),
      );
      throw error;
    }
  }
}

/** One connection lent to a drizzle transaction: the scope is sent with its BEGIN. */
class ScopedConnection {
  private readonly client: pg.PoolClient;
  private scope: string | undefined;
  private released = false;

  constructor(client: pg.PoolClient, scope: string) {
    this.client = client;
    this.scope = scope;
  }

  query(config: string | QueryConfig, values?: unknown[]) {
    const scope = this.scope;
    if (scope === undefined) return this.client.query(unnamed(config), values);
    this.scope = undefined;
    const text = typeof config === "string" ? config : config.text;
    // Only drizzle's transactions take connections from this pool, and they begin with BEGIN
    // (no parameters: sent as one simple query, so the scope needs no round trip of its own).
    if (!/^\s*begin\b/i.test(text) || (values?.length ?? 0) > 0) {
      this.release();
      return Promise.reject(new Error(`A scoped connection must begin a transaction, not run: ${text}`));
    }
    // drizzle releases the connection only once its BEGIN succeeded: if it fails, it is released here.
    return this.client.query(`${text}; ${scope}`).catch((error: Error) => {
      this.release(error);
      throw error;
    });
  }

  release(error?: Error | boolean) {
    if (this.released) return;
    this.released = true;
    this.client.release(error);
  }
}

function unnamed(config: string | QueryConfig): string | QueryConfig {
  return typeof config === "string" || config.name === undefined ? config : { ...config, name: undefined };
}

/**
 * The embedded database's one connection, as drizzle is given it: every statement and transaction
 * runs in a transaction (PGlite's, which holds the connection for it alone) that begins in the
 * current scope, as on PostgreSQL, so row-level security binds here too.
 */
function tenantScoped(client: PGlite) {
  return {
    query: (...args: Parameters<Transaction["query"]>) => {
      const scope = scopeStatements();
      return client.transaction(async (tx) => {
        await tx.exec(scope);
        return tx.query(...args);
      });
    },
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) => {
      const scope = scopeStatements();
      return client.transaction(async (tx) => {
        await tx.exec(scope);
        return fn(tx);
      });
    },
  };
}

/**
 * One dedicated connection that LISTENs on every subscribed channel and reconnects by itself
 * (with back-off) when the database restarts. While it is down, `connected` is false so callers
 * stop trusting their caches; on reconnect every subscriber gets a synthetic "*" message.
 */
class PgListener {
  connected = false;
  private client: pg.Client | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private connecting: Promise<void> | undefined;

  private readonly url: string;
  private readonly onError?: (error: Error) => void;

  constructor(url: string, onError?: (error: Error) => void) {
    this.url = url;
    this.onError = onError;
  }

  subscribe(channel: string, handler: (payload: string) => void): () => void {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      if (this.client && this.connected) void this.client.query(`LISTEN ${quoteIdent(channel)}`).catch(() => {});
    }
    set.add(handler);
    this.ensureConnected();
    return () => {
      set.delete(handler);
    };
  }

  private ensureConnected() {
    if (this.closed || this.client || this.connecting) return;
    this.connecting = this.connect().finally(() => {
      this.connecting = undefined;
    });
  }

  private async connect(attempt = 0): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 3000 });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.connected = false;
      if (error) this.onError?.(error);
      client.end().catch(() => {});
      this.scheduleReconnect(0);
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", (message) => {
      const set = this.handlers.get(message.channel);
      if (set) for (const handler of set) handler(message.payload ?? "");
    });
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
      this.connected = true;
      // Whatever changed while we were away was missed: tell everyone to forget what they hold.
      for (const set of this.handlers.values()) for (const handler of set) handler("*");
    } catch {
      client.end().catch(() => {});
      this.scheduleReconnect(attempt + 1);
    }
  }

  private scheduleReconnect(attempt: number) {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    const delay = Math.min(250 * 2 ** attempt, 5000);
    this.retryTimer = setTimeout(() => {
      this.connecting = this.connect(attempt).finally(() => {
        this.connecting = undefined;
      });
    }, delay);
    this.retryTimer.unref();
  }

  async close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.connected = false;
    await client?.end().catch(() => {});
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
