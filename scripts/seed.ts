/**
 * `npm run db:seed`: loads the demo data (plans, two demo institutes, demo accounts, the demo
 * creator's content with its files in the configured storage) into the configured database.
 */
import { loadEnv } from "../server/runtime/env.ts";
import { runMigrations } from "../server/db/migrate.ts";
import { seedDemo } from "../server/seed/demo.ts";
import { createStorage } from "../server/storage/index.ts";
import { DEMO_ACCOUNTS } from "../server/seed/demo-data.ts";
import { openConfiguredDatabase } from "./lib/database.ts";
import { PLANS_CHANNEL } from "../server/services/plans.ts";

const env = loadEnv();
const database = await openConfiguredDatabase(env);
await runMigrations(database);
await seedDemo(database.db, createStorage(env));
// Running servers (on PostgreSQL) forget what they cached about plans; the database itself
// announces the institutes and their catalogs (migration 0011).
await database.notify(PLANS_CHANNEL, "seeded");
await database.close();
console.log("Demo data loaded. Sign in with:");
for (const a of DEMO_ACCOUNTS) console.log(`  ${a.role.padEnd(8)} ${a.email} / ${a.password}`);
