/**
 * `npm run db:backup [-- --out <file>]`: writes the embedded database to a compressed archive.
 * The embedded database belongs to one process: stop the server first (the command says so).
 * For PostgreSQL use pg_dump (docs/operations.md).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { loadEnv } from "../server/runtime/env.ts";
import { openConfiguredDatabase } from "./lib/database.ts";
import { parseArgs } from "./lib/args.ts";

const env = loadEnv();
const args = parseArgs(process.argv.slice(2), ["out"]);
if (env.DATABASE_URL) {
  console.error("DATABASE_URL is set: back up PostgreSQL with pg_dump (see docs/operations.md).");
  process.exit(2);
}
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const out = resolve(args.out ?? `backups/pathshala-${stamp}.tar.gz`);
const database = await openConfiguredDatabase(env);
try {
  const archive = await database.dump!();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, new Uint8Array(await archive.arrayBuffer()));
  console.log(`Backed up the embedded database in ${env.DATA_DIR} to ${out} (${archive.size.toLocaleString()} bytes).`);
  console.log(`Uploaded files are in ${env.DATA_DIR}/files (or your S3 bucket): copy them alongside.`);
} finally {
  await database.close();
}
