import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openDatabase } from "../../server/db/open.ts";
import type { Database } from "../../server/db/types.ts";
import { lead, type Leadership } from "../../server/db/leadership.ts";
import { ADVISORY_LOCKS } from "../../server/db/advisory-locks.ts";
import { startTestClock } from "../../server/services/wiring/mock-tests.ts";
import type { AttemptService } from "../../server/services/mock-tests/attempts.ts";
import { createLogger } from "../../server/runtime/logger.ts";
import { parseEnv } from "../../server/runtime/env.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { waitFor } from "../helpers/wait.ts";

/**
 * Periodic work done once across instances (issue 43 §2, decision 0050): three instances on one
 * PostgreSQL each start the tests' clock under `lead`; only the one holding the advisory lock
 * ticks, and when it goes another takes over within a second.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const EVERY_MS = 100;
const logger = createLogger(parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent" }));

/** A clock whose every tick is recorded with the instance that made it. */
function countingClock(instance: number, ticks: { instance: number; at: number }[]) {
  const attempts = {
    submitDue: async () => {
      ticks.push({ instance, at: Date.now() });
    },
  } as unknown as AttemptService;
  return () => startTestClock(attempts, logger, EVERY_MS);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!onPostgres)("three instances, one tests' clock", () => {
  let testDb: TestDatabase;
  const databases: Database[] = [];
  const leaders: Leadership[] = [];
  const ticks: { instance: number; at: number }[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase();
    databases.push(testDb.database);
    for (let i = 0; i < 2; i++) databases.push(await openDatabase({ databaseUrl: testDb.url, poolMax: 1 }));
    databases.forEach((database, i) => leaders.push(lead(database, countingClock(i, ticks), { retryMs: 200 })));
  });
  afterAll(async () => {
    await Promise.all(leaders.map((leader) => leader.stop()));
    for (const database of databases.slice(1)) await database.close();
    await testDb?.drop();
  });

  const leading = () => leaders.flatMap((leader, i) => (leader.leading ? [i] : []));

  it("ticks on one instance only, once per period", async () => {
    await waitFor(() => leading().length === 1);
    await sleep(300);
    const from = Date.now();
    await sleep(1500);
    const window = ticks.filter((tick) => tick.at >= from && tick.at < from + 1500);
    expect(leading()).toHaveLength(1);
    expect(new Set(window.map((tick) => tick.instance))).toEqual(new Set(leading()));
    // 15 periods: one tick each (timers drift a little late), never three.
    expect(window.length).toBeGreaterThanOrEqual(12);
    expect(window.length).toBeLessThanOrEqual(16);
  });

  it("goes on on another instance within a second when the leader's session ends, and the old one stops", async () => {
    const [before] = leading();
    // As when its process dies: PostgreSQL ends the session holding the lock.
    const admin = new pg.Client({ connectionString: testDb.url });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        // This test's database only: other suites' instances on the same server hold the same key in theirs.
        `select pg_terminate_backend(pid) from pg_locks
         where locktype = 'advisory' and objid = $1 and granted
           and database = (select oid from pg_database where datname = current_database())`,
        [ADVISORY_LOCKS.periodicWork],
      );
      expect(rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    const ended = Date.now();
    await waitFor(() => leading().length === 1 && leading()[0] !== before, 1000);
    const after = leading()[0];
    // The new leader really ticks within the second, not only holds the lock.
    await waitFor(() => ticks.some((tick) => tick.instance === after && tick.at >= ended), 1000);
    const takenOver = ticks.find((tick) => tick.instance === after && tick.at >= ended)!.at;
    expect(takenOver - ended).toBeLessThan(1000);
    await sleep(1000);
    // The old leader stopped ticking when its session ended; only the new one ticks.
    const since = ticks.filter((tick) => tick.at > ended + 50);
    expect(since.length).toBeGreaterThan(0);
    expect(since.every((tick) => tick.instance === after)).toBe(true);
  });

  it("goes on when the leader stops, and the stopped one never leads again", async () => {
    const [before] = leading();
    await leaders[before].stop();
    const stopped = Date.now();
    await waitFor(() => leading().length === 1 && leading()[0] !== before, 1000);
    await sleep(600);
    const since = ticks.filter((tick) => tick.at > stopped);
    expect(since.length).toBeGreaterThan(0);
    expect(since.every((tick) => tick.instance === leading()[0])).toBe(true);
  });
});

describe.skipIf(onPostgres)("the embedded database's one process", () => {
  it("leads at once", async () => {
    const testDb = await createTestDatabase();
    const ticks: { instance: number; at: number }[] = [];
    const leader = lead(testDb.database, countingClock(0, ticks));
    try {
      expect(leader.leading).toBe(true);
      await waitFor(() => ticks.length >= 2);
    } finally {
      await leader.stop();
      await testDb.drop();
    }
  });
});
