import { EventEmitter } from "node:events";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
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
import { APP_ROLE, currentTenantScope } from "./tenant-scope.ts";

const drizzleOptions = { schema, casing: "snake_case" } as const;

export interface OpenOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
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
    client,
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
    async asOwner(fn) {
      await client.exec("RESET ROLE");
      try {
        return await fn();
      } finally {
        await client.exec(`SET ROLE ${APP_ROLE}`);
      }
    },
    dump: () => client.dumpDataDir("gzip"),
    async migrate(migrationsFolder) {
      await client.exec("RESET ROLE");
      await migratePglite(db as never, { migrationsFolder });
      // As on PostgreSQL, the application then works as a role that owns no table.
      await client.exec(`SET ROLE ${APP_ROLE}`);
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
  const listener = new PgListener(url, options.onError);
  return {
    db,
    kind: "postgres",
    async ping() {
      await db.execute(sql`select 1`);
    },
    async notify(channel, payload) {
      await db.execute(sql`select pg_notify(${channel}, ${payload})`);
    },
    listen: (channel, onMessage) => listener.subscribe(channel, onMessage),
    listening: () => listener.connected,
    url,
    asOwner: (fn) => fn(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async migrate(migrationsFolder) {
      // A session-level advisory lock on one connection: instances starting together wait
      // for the first to finish, then find nothing left to apply.
      const connection = await pool.connect();
      try {
        // Migrations create and alter tables: they run as the login user, not the application role.
        await connection.query("RESET ROLE");
        (connection as ScopedClient).prepared = false;
        await connection.query(`select pg_advisory_lock(${ADVISORY_LOCKS.migrations})`);
        await migratePg(drizzlePg({ client: connection, ...drizzleOptions }), { migrationsFolder });
      } finally {
        await connection.query(`select pg_advisory_unlock(${ADVISORY_LOCKS.migrations})`).catch(() => {});
        connection.release();
      }
    },
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

type ScopedClient = pg.PoolClient & { prepared?: boolean; scope?: string };

/**
 * What drizzle is given instead of the pool (its name must contain "Pool" for drizzle to treat it
 * as one): every connection it hands out runs as the application role and carries the current
 * request's institute (`app.center_id`) for the row-level security policies. Both are set only
 * when they differ from what the connection already has, so most queries cost no extra round trip.
 */
class TenantScopedPool {
  private readonly pool: pg.Pool;
  private readonly onError?: (error: Error) => void;
  private roleMissing = false;

  constructor(pool: pg.Pool, onError?: (error: Error) => void) {
    this.pool = pool;
    this.onError = onError;
  }

  private async prepare(client: ScopedClient) {
    if (!client.prepared && !this.roleMissing) {
      try {
        await client.query(`SET ROLE ${APP_ROLE}`);
      } catch (error) {
        // Without the role (no CREATEROLE at migration time) the policies still bind non-superusers through FORCE.
        this.roleMissing = true;
        this.onError?.(new Error(`Could not switch to the ${APP_ROLE} role: ${(error as Error).message}`));
      }
    }
    client.prepared = true;
    const wanted = currentTenantScope();
    if (client.scope !== wanted) {
      await client.query("select set_config('app.center_id', $1, false)", [wanted]);
      client.scope = wanted;
    }
  }

  async connect(): Promise<pg.PoolClient> {
    const client = (await this.pool.connect()) as ScopedClient;
    try {
      await this.prepare(client);
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    return client;
  }

  async query(...args: Parameters<pg.PoolClient["query"]>) {
    const client = await this.connect();
    try {
      return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
    } finally {
      client.release();
    }
  }
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
