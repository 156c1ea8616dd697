import { openDatabase } from "../../server/db/open.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import type { Database } from "../../server/db/types.ts";
import { createScratchDatabase } from "../../server/db/scratch.ts";

export interface TestDatabase {
  database: Database;
  /** The URL of the database made for this test file (Postgres only). */
  url?: string;
  drop(): Promise<void>;
}

/**
 * A migrated database for one test file: in-memory PGlite by default, or a fresh database on the
 * server named by TEST_DATABASE_URL (made here, dropped by `drop`).
 */
export async function createTestDatabase(options: { onQuery?: (sql: string, params: unknown[]) => void } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({});
    await runMigrations(database);
    return { database, drop: () => database.close() };
  }
  const name = `pathshala_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const { url, drop } = await createScratchDatabase(serverUrl, name);
  const database = await openDatabase({ databaseUrl: url, poolMax: 5, onQuery: options.onQuery });
  await runMigrations(database);
  return {
    database,
    url,
    async drop() {
      await database.close();
      await drop();
    },
  };
}
