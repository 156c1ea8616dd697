import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema/index.ts";

/** What both drivers (node-postgres and PGlite) share; all queries are written against this. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction handle has the same query surface as the database itself. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  readonly db: Db;
  readonly kind: "postgres" | "pglite";
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  /** Cross-instance change notifications (Postgres LISTEN/NOTIFY; in-process on PGlite). */
  notify(channel: string, payload: string): Promise<void>;
  listen(channel: string, onMessage: (payload: string) => void): () => void;
  /** Whether notifications from other instances are currently being received. */
  listening(): boolean;
  /** A compressed archive of the whole embedded database (PGlite only; PostgreSQL uses pg_dump). */
  dump?(): Promise<Blob>;
  /** Connection pool sizes (PostgreSQL only). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** The embedded database itself (PGlite only): the job queue talks to it directly. */
  readonly pglite?: PGlite;
  /** The server's direct URL (PostgreSQL only, never a transaction-mode pooler): the job queue keeps its own small pool on it. */
  readonly url?: string;
  /** Runs `fn`'s transactions as the login user, not the application role (start-up DDL, tests). */
  asOwner<T>(fn: () => Promise<T>): Promise<T>;
  /** Applies pending migrations from the folder (exactly once even when instances start together). */
  migrate(migrationsFolder: string): Promise<void>;
  close(): Promise<void>;
}
