import type { Env } from "./env.ts";
import { readAtScrape } from "./metrics.ts";
import { createLogger, type Logger } from "./logger.ts";
import { openDatabase } from "../db/open.ts";
import { runMigrations } from "../db/migrate.ts";
import type { Database } from "../db/types.ts";
import { createServices, startHousekeeping, startTestClock, type Services } from "../services/index.ts";
import { createStorage } from "../storage/index.ts";
import { isDemoSeeded, seedDemoOnce } from "../seed/demo.ts";
import { seedDemoMessages } from "../seed/demo-messages.ts";
import { seedDemoInvoices } from "../seed/demo-invoices.ts";
import { startReminders } from "../messages/reminders.ts";
import { DEMO_ACCOUNTS, DEMO_CENTERS, DEMO_TRIAL_CENTER } from "../seed/demo-data.ts";
import type { PaymentConfig } from "../payments/config.ts";
import type { Channel } from "#common/messages.ts";
import { isRealPlatformDomain } from "./special-names.ts";

/** Everything a running server holds: configuration, the database, and the services on it. */
export interface Runtime {
  env: Env;
  logger: Logger;
  database: Database;
  services: Services;
  /** Set while shutting down: new requests are refused. */
  draining: boolean;
  close(): Promise<void>;
}

export async function startRuntime(env: Env): Promise<Runtime> {
  const logger = createLogger(env);
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
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
      freshDemo = await seedDemoOnce(database.db, storage);
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
      await seedDemoMessages(database.db, services, `http://localhost:${env.PORT}`);
      await seedDemoInvoices(database.db, services);
    }
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  const stopHousekeeping = startHousekeeping(services, logger);
  const stopTestClock = startTestClock(services, logger);
  const stopReminders = startReminders(services.reminders, (error) => logger.warn("reminders failed", { error }));
  registerRuntimeGauges(database, services);
  let closing: Promise<void> | undefined;
  return {
    env,
    logger,
    database,
    services,
    draining: false,
    close() {
      stopHousekeeping();
      stopTestClock();
      stopReminders();
      closing ??= services.messages
        .stop()
        .catch((error: Error) => logger.warn("the job queue did not stop cleanly", { error: error.message }))
        .then(() => database.close());
      return closing;
    },
  };
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
  }
  return lines;
}

/**
 * What start-up says about payments and messages: which sandboxes are switched on (and by which
 * variable), what is off, and a warning when a sandbox runs on a real platform domain.
 */
export function sandboxLines(facts: {
  platformDomain: string;
  payments: PaymentConfig["mode"];
  channels: Record<Channel, string | null>;
  port: number;
}): string[] {
  const lines = [
    facts.payments === "sandbox"
      ? 'Payments: offline sandbox, switched on by RAZORPAY_SANDBOX=1 (test mode, no real money: anyone can "pay")'
      : facts.payments === "razorpay"
        ? "Payments: Razorpay"
        : "Payments: off, nothing can be bought (set RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET, or RAZORPAY_SANDBOX=1 for the offline sandbox)",
  ];
  const how = (name: string | null) =>
    name === "sandbox" ? "the sandbox outbox" : name ? `sent by ${name}` : "not sent (no provider)";
  lines.push(
    `Messages: e-mail ${how(facts.channels.email)}, WhatsApp ${how(facts.channels.whatsapp)}, SMS ${how(facts.channels.sms)}`,
  );
  const outbox = Object.values(facts.channels).includes("sandbox");
  if (outbox)
    lines.push(
      `  the sandbox outbox is switched on by MESSAGES_SANDBOX=1: http://localhost:${facts.port}/_sandbox/outbox`,
    );
  if ((outbox || facts.payments === "sandbox") && isRealPlatformDomain(facts.platformDomain))
    lines.push(
      `Warning: PLATFORM_DOMAIN is ${facts.platformDomain}, a real domain, and a sandbox is switched on: ${[
        outbox ? "anyone who reaches this server reads every message at /_sandbox/outbox (MESSAGES_SANDBOX)" : "",
        facts.payments === "sandbox" ? 'anyone can "pay" (RAZORPAY_SANDBOX)' : "",
      ]
        .filter(Boolean)
        .join("; ")}. Switch it off on a live site.`,
    );
  return lines;
}

/** Points the gauges read when /metrics is scraped at this instance's pool and caches. */
export function registerRuntimeGauges(database: Pick<Database, "poolStats">, services: Services) {
  readAtScrape({ pool: database.poolStats?.bind(database), siteCache: () => services.sites.cacheStats() });
}
