import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../server/db/open.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import { adminQuery, withDatabase } from "../../server/db/scratch.ts";

/**
 * Vitest global setup of the integration suite: the migrations run once per run, into a template
 * that each test file's database is copied from (tests/helpers/database.ts). On PostgreSQL the
 * template is a database (`create database … template`); on PGlite, an archive of a migrated data
 * folder. Migrating afresh per file cost each of ~80 files several seconds of a two-core machine.
 */
export default async function setup() {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `pathshala_template_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(serverUrl, `create database ${name}`);
    const database = await openDatabase({ databaseUrl: withDatabase(serverUrl, name), poolMax: 1 });
    try {
      await runMigrations(database);
    } finally {
      await database.close();
    }
    process.env.TEST_TEMPLATE_DATABASE = name;
    return () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
  }
  const database = await openDatabase({});
  const folder = mkdtempSync(join(tmpdir(), "pathshala-template-"));
  try {
    await runMigrations(database);
    const archive = await database.pglite!.dumpDataDir("none");
    const file = join(folder, "migrated.tar");
    writeFileSync(file, Buffer.from(await archive.arrayBuffer()));
    process.env.TEST_PGLITE_ARCHIVE = file;
  } finally {
    await database.close();
  }
  return () => rmSync(folder, { recursive: true, force: true });
}
