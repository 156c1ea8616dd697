import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono, type Context } from "hono";
import { parseEnv, type Env } from "../../server/runtime/env.ts";
import { createLogger } from "../../server/runtime/logger.ts";
import { createServices } from "../../server/services/index.ts";
import { mountEarly, mountPlatform } from "../../server/app.ts";
import type { AppDeps } from "../../server/middleware/types.ts";
import type { AppEnv } from "../../server/middleware/types.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { TestDns } from "./domains.ts";

export interface TestApp extends AppDeps {
  app: Hono<AppEnv>;
  testDb: TestDatabase;
  /** What the platform finds when it checks a domain: TXT records, and domains that lead to this app. */
  dns: TestDns;
  /** `app.request` on a given host (default the platform's `localhost`). */
  request(path: string, init?: RequestInit & { host?: string }): Promise<Response>;
  close(): Promise<void>;
}

/** The Hono app exactly as production mounts it, minus React Router, on a fresh database. */
export async function createTestApp(
  envOverrides: Record<string, string> = {},
  options: {
    onQuery?: (sql: string, params: unknown[]) => void;
    /** The app's statements go through this pooler (tests/helpers/database.ts). */
    poolerUrl?: string;
    /** Receives every log line (at info and above) instead of standard output. */
    logLines?: string[];
    /** Stands in for React Router (by default every page is the text "react-router"). */
    pages?: (c: Context<AppEnv>, deps: AppDeps) => Response | Promise<Response>;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "pathshala-test-"));
  const env: Env = parseEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    SEED_DEMO: "0",
    DATA_DIR: dataDir,
    // The tests switch the sandboxes on, as a real deployment never does without saying so.
    MESSAGES_SANDBOX: "1",
    RAZORPAY_SANDBOX: "1",
    ...envOverrides,
  });
  const testDb = await createTestDatabase(options);
  const logger = options.logLines
    ? createLogger({ ...env, LOG_LEVEL: "info" }, {}, { write: (line) => options.logLines!.push(line.trimEnd()) })
    : createLogger(env);
  // Domains are checked offline: the test decides what DNS holds and which domains lead here.
  const dns = new TestDns();
  const services = createServices({ env, database: testDb.database, logger, domainProbe: dns });
  await services.messages.start();
  const deps: AppDeps = { env, logger, database: testDb.database, services, draining: false };
  const app = new Hono<AppEnv>();
  mountEarly(app, deps);
  mountPlatform(app, deps);
  const pages = options.pages;
  app.all("*", (c) => (pages ? pages(c, deps) : c.text("react-router", 200)));
  const t: TestApp = Object.assign(deps, {
    app,
    testDb,
    dns,
    request(path: string, init: RequestInit & { host?: string } = {}) {
      const { host = "localhost", headers, ...rest } = init;
      const h = new Headers(headers);
      h.set("host", host);
      return Promise.resolve(app.request(`http://${host}${path}`, { ...rest, headers: h }));
    },
    async close() {
      await services.afterAnswer.settled();
      await services.messages.stop();
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
  dns.app = t;
  return t;
}
