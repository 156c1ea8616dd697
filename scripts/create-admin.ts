/**
 * `npm run create-admin -- --email <e> --password <p> [--name <n>]`: creates an admin, or promotes
 * an existing account to admin (setting the given password). The only way an admin comes to be.
 */
import { loadEnv } from "../server/runtime/env.ts";
import { runMigrations } from "../server/db/migrate.ts";
import { createOrPromoteAdmin } from "../server/services/admins.ts";
import { openConfiguredDatabase } from "./lib/database.ts";
import { parseArgs } from "./lib/args.ts";

let args: Record<string, string>;
try {
  args = parseArgs(process.argv.slice(2), ["email", "password", "name"]);
  if (!args.email || !args.password) throw new Error("--email and --password are required");
} catch (error) {
  console.error(
    `${(error as Error).message}\nUsage: npm run create-admin -- --email <email> --password <password> [--name <name>]`,
  );
  process.exit(2);
}

const env = loadEnv();
const database = await openConfiguredDatabase(env);
try {
  await runMigrations(database);
  const result = await createOrPromoteAdmin(database.db, {
    email: args.email,
    password: args.password,
    name: args.name,
  });
  console.log(`${result.created ? "Created" : "Promoted"} admin ${result.email}.`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await database.close();
}
