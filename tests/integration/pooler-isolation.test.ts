import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enquiries } from "../../server/db/schema/index.ts";
import { runInTenantScope } from "../../server/db/tenant-scope.ts";
import { withDatabase } from "../../server/db/scratch.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { pgbouncerInstalled, startPgBouncer, type RunningPgBouncer } from "../../scripts/lib/pgbouncer.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createCenter } from "../helpers/centers.ts";
import { createListeningTestApp } from "../helpers/payments.ts";
import { describeIsolation } from "../helpers/isolation-suite.ts";
import { describeRowLevelSecurity } from "../helpers/row-level-security-suite.ts";

/**
 * The app behind PgBouncer in transaction mode (issue 43 §1, decision 0049), started here with a
 * pool of 2 server connections per database that the app's 5 connections share: each transaction
 * gets whichever server connection is free, so the institute scope and the role must travel with
 * each transaction. The isolation and row-level security suites run through it, then two
 * institutes' requests at once, and nothing may be left on the server connections.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const skipped = !serverUrl
  ? "needs PostgreSQL: set TEST_DATABASE_URL"
  : !pgbouncerInstalled()
    ? "needs pgbouncer (Debian: apt-get install pgbouncer)"
    : undefined;

describe.skipIf(skipped)(`through PgBouncer in transaction mode${skipped ? ` (skipped: ${skipped})` : ""}`, () => {
  let dir: string;
  let bouncer: RunningPgBouncer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pathshala-pgbouncer-"));
    bouncer = await startPgBouncer({ dir, port: await freePort(), serverUrl: serverUrl!, poolSize: 2 });
  });
  // Hooks after run in reverse: the apps close first, then PgBouncer stops.
  afterAll(async () => {
    await bouncer?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  describeIsolation(() => createListeningTestApp({ TRUST_PROXY: "1" }, { poolerUrl: bouncer.url }));
  describeRowLevelSecurity(() => createTestApp({}, { poolerUrl: bouncer.url }));

  describe("two institutes' requests at once, on shared server connections", () => {
    let t: TestApp;
    let a: { id: string; customDomain: string | null };
    let b: { id: string; customDomain: string | null };
    beforeAll(async () => {
      t = await createTestApp(
        {},
        {
          poolerUrl: bouncer.url,
          // A page whose queries forgot their institute's filter: only the scope protects them.
          pages: async (c, deps) => {
            const { db } = deps.database;
            const alone = await db.select({ center: enquiries.centerId }).from(enquiries);
            const inTransaction = await db.transaction(async (tx) => {
              await tx.execute(sql`select pg_sleep(0.002)`);
              return tx.select({ center: enquiries.centerId }).from(enquiries);
            });
            return c.json([...alone, ...inTransaction].map((row) => row.center));
          },
        },
      );
      a = await createCenter(t, null, { instituteName: "Pool A" });
      b = await createCenter(t, null, { instituteName: "Pool B" });
      await t.database.db.insert(enquiries).values(
        [a, b].flatMap((center) =>
          [1, 2, 3].map((n) => ({
            centerId: center.id,
            name: `Lead ${n}`,
            phone: `+91980000000${n}`,
            email: `lead${n}@example.com`,
          })),
        ),
      );
    });
    afterAll(() => t?.close());

    it("each request sees only its own institute's rows", async () => {
      const answers = await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          const center = i % 2 ? a : b;
          const res = await t.request("/leads", { host: center.customDomain! });
          expect(res.status).toBe(200);
          return { center: center.id, seen: (await res.json()) as string[] };
        }),
      );
      for (const { center, seen } of answers) {
        expect(seen).toHaveLength(6);
        expect(new Set(seen)).toEqual(new Set([center]));
      }
    });

    it("each statement and transaction in its scope, however they interleave", async () => {
      const answers = await Promise.all(
        Array.from({ length: 80 }, (_, i) => {
          const center = [a.id, b.id, null][i % 3];
          return runInTenantScope(center, async () => {
            const rows =
              i % 2
                ? await t.database.db.select({ center: enquiries.centerId }).from(enquiries)
                : await t.database.db.transaction((tx) => tx.select({ center: enquiries.centerId }).from(enquiries));
            return { center, seen: new Set(rows.map((row) => row.center)) };
          });
        }),
      );
      for (const { center, seen } of answers) expect(seen).toEqual(new Set(center ? [center] : [a.id, b.id]));
    });

    it("leaves neither an institute nor the application's role on a server connection", async () => {
      // Clients of the pooler that set nothing themselves, spread over its server connections.
      const login = decodeURIComponent(new URL(serverUrl!).username || "postgres");
      const url = withDatabase(bouncer.url, new URL(t.testDb.url!).pathname.slice(1));
      const clients = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          return client;
        }),
      );
      try {
        const answers = await Promise.all(
          clients.map(async (client) => {
            const seen: { who: string; center: string }[] = [];
            for (let i = 0; i < 5; i++) {
              // While the app works on the same server connections.
              await Promise.all(
                [a.id, b.id].map((id) => runInTenantScope(id, () => t.database.db.select().from(enquiries))),
              );
              const { rows } = await client.query<{ who: string; center: string }>(
                "select current_user as who, coalesce(current_setting('app.center_id', true), '') as center",
              );
              seen.push(rows[0]);
            }
            return seen;
          }),
        );
        for (const answer of answers.flat()) expect(answer).toEqual({ who: login, center: "" });
      } finally {
        await Promise.all(clients.map((client) => client.end()));
      }
    });
  });
});
