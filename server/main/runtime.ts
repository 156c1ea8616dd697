import { secretBoxFor } from "../payments/secrets.ts";
import type { Env } from "../runtime/env.ts";
import { readAtScrape } from "../runtime/metrics.ts";
import { createLogger, type Logger } from "../runtime/logger.ts";
import { openDatabase } from "../db/open.ts";
import { runMigrations } from "../db/migrate.ts";
import { lead } from "../db/leadership.ts";
import type { Database } from "../db/types.ts";
import { createServices, startHousekeeping, type Services } from "../services/index.ts";
import { startTestClock } from "../services/wiring/mock-tests.ts";
import { createStorage } from "../storage/index.ts";
import { isDemoSeeded, seedDemoOnce } from "../seed/demo.ts";
import { seedDemoMessages } from "../seed/demo-messages.ts";
import { seedDemoInvoices } from "../seed/demo-invoices.ts";
import { seedDemoFees } from "../seed/demo-fees.ts";
import { DEMO_PARENT, seedDemoFamily } from "../seed/demo-family.ts";
import { seedDemoTimetable } from "../seed/demo-timetable.ts";
import { startReminders } from "../messages/reminders.ts";
import { startFeeDebits } from "../services/fees/mandate-debits.ts";
import { DEMO_ACCOUNTS, DEMO_CENTERS, DEMO_TRIAL_CENTER } from "../seed/demo-data.ts";
import { sandboxLines } from "./sandbox-lines.ts";
import type { AppDeps } from "../middleware/types.ts";

/**
 * Everything a running server holds: configuration, the database, and the services on it (what
 * the app is built from, AppDeps), and how to close them.
 */
export interface Runtime extends AppDeps {
  close(): Promise<void>;
}

export async function startRuntime(env: Env): Promise<Runtime> {
  const logger = createLogger(env);
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    directUrl: env.DATABASE_DIRECT_URL,
    dataDir: env.DATA_DIR,
    poolMax: env.DATABASE_POOL_MAX,
    onError: (error) => logger.warn("database connection error", { error: error.message }),
  });
  const storage = createStorage(env, (error) =>
    logger.warn("could not abort an unfinished upload in object storage", { error: (error as Error).message }),
  );
  let freshDemo = false;
  try {
    // Before anything is stored: what an upload cut short by a crash left (disk; S3 has its lifecycle rule).
    const leftovers = await storage.removeLeftovers().catch((error: Error) => {
      logger.warn("could not remove unfinished uploads left by an earlier process", { error: error.message });
      return 0;
    });
    if (leftovers > 0) logger.info("removed unfinished uploads left by an earlier process", { files: leftovers });
    await runMigrations(database);
    if (database.kind === "pglite" && env.SEED_DEMO) {
      // The demo institutes' sandbox payment accounts only while the sandbox is on.
      freshDemo = await seedDemoOnce(database.db, storage, env.RAZORPAY_SANDBOX ? secretBoxFor(env) : null);
      if (freshDemo) logger.info("seeded the demo data");
    }
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  const services = createServices({ env, database, logger, storage });
  const warning = sandboxLines({
    platformDomain: env.PLATFORM_DOMAIN,
    payments: services.payments.config.mode,
    channels: services.messages.channels,
    port: env.PORT,
  }).find((line) => line.startsWith("Warning: "));
  if (warning) logger.warn(warning.slice("Warning: ".length));
  try {
    await services.messages.start();
    if (freshDemo) {
      await seedDemoMessages(database.db, services);
      await seedDemoInvoices(database.db, services);
      await seedDemoFees(database.db, services);
      await seedDemoFamily(database.db, services);
      await seedDemoTimetable(database.db, services);
    }
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  // The clock, housekeeping and reminders run on one instance at a time (decision 0050).
  const periodic = lead(database, () => startPeriodicWork(services, logger), {
    onError: (error) => logger.warn("periodic work: the leader's connection failed", { error: error.message }),
  });
  registerRuntimeGauges(database, services);
  let closing: Promise<void> | undefined;
  return {
    env,
    logger,
    database,
    services,
    draining: false,
    close() {
      closing ??= periodic
        .stop()
        .then(() => services.afterAnswer.settled())
        .then(() => services.messages.stop())
        .catch((error: Error) => logger.warn("the job queue did not stop cleanly", { error: error.message }))
        .then(() => database.close());
      return closing;
    },
  };
}

/** The periodic work one instance does (`lead`): the tests' clock, housekeeping, reminders and fee debits. */
function startPeriodicWork(services: Services, logger: Logger): () => void {
  const stops = [
    startHousekeeping(services, logger),
    startTestClock(services.attempts, logger),
    startReminders(services.reminders, (error) => logger.warn("reminders failed", { error })),
    startFeeDebits(services, (error) => logger.warn("fee debits failed", { error })),
  ];
  return () => stops.forEach((stop) => stop());
}

/** The lines printed at start-up: where to open the product and, on the embedded demo, how to sign in. */
export async function describeStart(runtime: Runtime, port: number): Promise<string[]> {
  const lines = [
    `Pathshala is running on http://localhost:${port}`,
    ...sandboxLines({
      platformDomain: runtime.env.PLATFORM_DOMAIN,
      payments: runtime.services.payments.config.mode,
      channels: runtime.services.messages.channels,
      port,
    }),
  ];
  if (runtime.database.kind === "pglite" && (await isDemoSeeded(runtime.database.db))) {
    lines.push("Demo institutes:");
    for (const c of DEMO_CENTERS) lines.push(`  ${c.instituteName}: http://${c.customDomain}:${port}`);
    lines.push(`  ${DEMO_TRIAL_CENTER.instituteName} (free trial): http://${DEMO_TRIAL_CENTER.customDomain}:${port}`);
    lines.push("Demo sign-in (embedded database only):");
    for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.role.padEnd(8)} ${a.email} / ${a.password}`);
    lines.push(`  ${"parent".padEnd(8)} ${DEMO_PARENT.email} / ${DEMO_PARENT.password}`);
  }
  return lines;
}

/** Points the gauges read when /metrics is scraped at this instance's pool and caches. */
export function registerRuntimeGauges(database: Pick<Database, "poolStats">, services: Services) {
  readAtScrape({ pool: database.poolStats?.bind(database), siteCache: () => services.sites.cacheStats() });
}
