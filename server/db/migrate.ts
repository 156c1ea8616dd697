import { resolve } from "node:path";
import type { Database } from "./types.ts";

/** The folder drizzle-kit writes to; the app always runs from the project (or image) root. */
export const MIGRATIONS_FOLDER = resolve(process.env.MIGRATIONS_DIR ?? "drizzle");

export async function runMigrations(database: Database): Promise<void> {
  await database.migrate(MIGRATIONS_FOLDER);
}
