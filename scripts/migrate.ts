/** `npm run db:migrate`: applies pending migrations to the configured database. */
import { loadEnv } from "../server/runtime/env.ts";
import { runMigrations } from "../server/db/migrate.ts";
import { openConfiguredDatabase } from "./lib/database.ts";

const env = loadEnv();
const database = await openConfiguredDatabase(env);
await runMigrations(database);
await database.close();
console.log(
  `Migrations applied (${database.kind === "postgres" ? "PostgreSQL" : `embedded database in ${env.DATA_DIR}`}).`,
);
