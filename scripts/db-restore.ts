/**
 * `npm run db:restore -- --file <archive>`: replaces the embedded database with a backup made by
 * `npm run db:backup`. The current database is kept beside it (pglite.before-restore-<time>),
 * so a restore can itself be undone. Stop the server first.
 */
import { existsSync, readFileSync, renameSync } from "node:fs";
import { resolve } from "node:path";
import { loadEnv } from "../server/runtime/env.ts";
import { openDatabase, pgliteDirOf } from "../server/db/open.ts";
import { acquireDataDirLock, DataDirBusyError } from "../server/db/lock.ts";
import { runMigrations } from "../server/db/migrate.ts";
import { parseArgs } from "./lib/args.ts";

const env = loadEnv();
let args: Record<string, string>;
try {
  args = parseArgs(process.argv.slice(2), ["file"]);
  if (!args.file) throw new Error("--file is required");
} catch (error) {
  console.error(`${(error as Error).message}\nUsage: npm run db:restore -- --file <backup.tar.gz>`);
  process.exit(2);
}
if (env.DATABASE_URL) {
  console.error("DATABASE_URL is set: restore PostgreSQL with pg_restore / psql (see docs/operations.md).");
  process.exit(2);
}
const file = resolve(args.file);
if (!existsSync(file)) {
  console.error(`No backup at ${file}`);
  process.exit(2);
}
// Make sure no server holds the database while it is swapped.
try {
  acquireDataDirLock(resolve(env.DATA_DIR))();
} catch (error) {
  if (error instanceof DataDirBusyError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
const current = pgliteDirOf(env.DATA_DIR);
let aside: string | undefined;
if (existsSync(current)) {
  aside = `${current}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  renameSync(current, aside);
}
try {
  const database = await openDatabase({ dataDir: env.DATA_DIR, loadArchive: new Blob([readFileSync(file)]) });
  // A backup from an older version gets the newer migrations.
  await runMigrations(database);
  await database.close();
  console.log(`Restored ${file} into ${env.DATA_DIR}.${aside ? ` The previous database is kept at ${aside}.` : ""}`);
} catch (error) {
  if (aside) {
    const { rmSync } = await import("node:fs");
    rmSync(current, { recursive: true, force: true });
    renameSync(aside, current);
  }
  console.error(`Restore failed, nothing changed: ${(error as Error).message}`);
  process.exit(1);
}
