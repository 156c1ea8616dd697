import { openDatabase } from "../../server/db/open.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import type { Database } from "../../server/db/types.ts";
import { adminQuery, createScratchDatabase, withDatabase } from "../../server/db/scratch.ts";
import { readFileSync } from "node:fs";

export interface TestDatabase {
  database: Database;
  /** The URL of the database made for this test file (Postgres only). */
  url?: string;
  drop(): Promise<void>;
}

/**
 * A migrated database for one test file: in-memory PGlite by default, or a fresh database on the
 * server named by TEST_DATABASE_URL (made here, dropped by `drop`). Under the integration suite it
 * is a copy of the run's migrated template (tests/helpers/migrated-template.ts); elsewhere it is
 * migrated here.
 */
export async function createTestDatabase(
  options: {
    onQuery?: (sql: string, params: unknown[]) => void;
    /**
     * A pooler in front of TEST_DATABASE_URL's server (PgBouncer in transaction mode): the app's
     * statements go through it, its listener, migrations and job queue straight to the server.
     */
    poolerUrl?: string;
  } = {},
): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const loadArchive = migratedArchive();
    const database = announcementsHeldBack(await openDatabase({ onQuery: options.onQuery, loadArchive }));
    if (!loadArchive) await runMigrations(database);
    return { database, drop: () => database.close() };
  }
  const name = `pathshala_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const template = process.env.TEST_TEMPLATE_DATABASE;
  const { url, drop } = template
    ? await copyOfTemplate(serverUrl, name, template)
    : await createScratchDatabase(serverUrl, name);
  const database = announcementsHeldBack(
    await openDatabase({
      databaseUrl: options.poolerUrl ? withDatabase(options.poolerUrl, name) : url,
      directUrl: url,
      poolMax: 5,
      onQuery: options.onQuery,
    }),
  );
  if (!template) await runMigrations(database);
  return {
    database,
    url,
    async drop() {
      await database.close();
      await drop();
    },
  };
}

/**
 * With TEST_ANNOUNCEMENT_DELAY_MS set, every announcement (LISTEN/NOTIFY, or PGlite's) reaches
 * this database's listeners that much later, in order: PostgreSQL delivers them asynchronously,
 * and a test that only passes when they arrive at once is flaky in CI. Run the suite with a few
 * delays (5, 30, 150) to find such tests; docs/architecture.md, "Tests".
 */
function announcementsHeldBack(database: Database): Database {
  const delayMs = Number(process.env.TEST_ANNOUNCEMENT_DELAY_MS ?? 0);
  if (!(delayMs > 0)) return database;
  return {
    ...database,
    listen: (channel, onMessage) =>
      database.listen(channel, (payload) => void setTimeout(() => onMessage(payload), delayMs)),
  };
}

let archive: Blob | undefined;
function migratedArchive(): Blob | undefined {
  const file = process.env.TEST_PGLITE_ARCHIVE;
  if (!file) return undefined;
  archive ??= new Blob([readFileSync(file)]);
  return archive;
}

async function copyOfTemplate(serverUrl: string, name: string, template: string) {
  await adminQuery(serverUrl, `create database ${name} template ${template}`);
  return {
    url: withDatabase(serverUrl, name),
    drop: () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`),
  };
}
