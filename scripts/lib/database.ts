import { openDatabase } from "../../server/db/open.ts";
import { DataDirBusyError } from "../../server/db/lock.ts";
import type { Database } from "../../server/db/types.ts";
import type { Env } from "../../server/runtime/env.ts";

/** Opens DATABASE_URL or the embedded database; a database held by a running server is refused clearly. */
export async function openConfiguredDatabase(env: Env): Promise<Database> {
  try {
    return await openDatabase({
      databaseUrl: env.DATABASE_URL,
      directUrl: env.DATABASE_DIRECT_URL,
      dataDir: env.DATA_DIR,
      poolMax: 2,
    });
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
