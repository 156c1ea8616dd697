import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../server/db/open.ts";
import { MIGRATIONS_FOLDER } from "../../server/db/migrate.ts";
import { createScratchDatabase } from "../../server/db/scratch.ts";
import type { Database } from "../../server/db/types.ts";

/**
 * A database as an older release of the product left it: migrated up to migration `last` (on
 * the PostgreSQL server of TEST_DATABASE_URL, else embedded), to be given rows the old way and
 * then upgraded the way a deployment is (`upgrade`).
 */
export async function openDatabaseAt(last: number) {
  const before = mkdtempSync(join(tmpdir(), `pathshala-at-${last}-`));
  cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
  const journalPath = join(before, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number; tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  writeFileSync(journalPath, JSON.stringify(journal));
  let database: Database;
  let dropDatabase: () => Promise<void>;
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const scratch = await createScratchDatabase(serverUrl, `pathshala_at${last}_${process.pid}_${Date.now() % 100000}`);
    database = await openDatabase({ databaseUrl: scratch.url, poolMax: 3 });
    dropDatabase = async () => {
      await database.close();
      await scratch.drop();
    };
  } else {
    database = await openDatabase({});
    dropDatabase = () => database.close();
  }
  await database.migrate(before);
  return {
    database,
    /** Every migration since, as a deployment runs them. */
    upgrade: () => database.migrate(MIGRATIONS_FOLDER),
    /**
     * A row written with only the columns it names: the schema module describes the latest
     * database, and Drizzle's insert names every column it knows, some of which this one lacks.
     */
    insertRow: async (table: string, row: Record<string, string | number | null>): Promise<{ id: string }> => {
      const columns = Object.keys(row).map((key) =>
        sql.identifier(key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)),
      );
      const values = Object.values(row).map((value) => sql`${value}`);
      const result = (await database.db.execute(
        sql`insert into ${sql.identifier(table)} (${sql.join(columns, sql`, `)}) values (${sql.join(values, sql`, `)}) returning id`,
      )) as unknown as { rows: { id: string }[] };
      return result.rows[0];
    },
    drop: async () => {
      await dropDatabase();
      rmSync(before, { recursive: true, force: true });
    },
  };
}
