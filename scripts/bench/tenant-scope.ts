/**
 * What the institute scope costs per statement (issue 43 §1, decision 0049): a few loops of small
 * queries through the application's `db` on a fresh migrated database, inside an institute's
 * scope. Prints operations per second for each, and one JSON line.
 *
 *   node scripts/bench/tenant-scope.ts                                        # embedded PGlite
 *   node scripts/bench/tenant-scope.ts postgres://postgres@127.0.0.1:5432/postgres
 *   node scripts/bench/tenant-scope.ts <server url> <url the app uses, e.g. a PgBouncer>
 */
import { eq, sql } from "drizzle-orm";
import { openDatabase } from "../../server/db/open.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import { createScratchDatabase, withDatabase } from "../../server/db/scratch.ts";
import { centers, enquiries } from "../../server/db/schema/index.ts";
import { runInTenantScope } from "../../server/db/tenant-scope.ts";

const [serverUrl, appServerUrl] = process.argv.slice(2);
const N = Number(process.env.BENCH_N ?? 2000);

const scratch = serverUrl ? await createScratchDatabase(serverUrl, `pathshala_bench_${process.pid}`) : undefined;
const database = await openDatabase(
  scratch
    ? {
        databaseUrl: appServerUrl ? withDatabase(appServerUrl, new URL(scratch.url).pathname.slice(1)) : scratch.url,
        directUrl: scratch.url,
        poolMax: 8,
      }
    : {},
);
try {
  await runMigrations(database);
  const { db } = database;
  const [a, b] = await db
    .insert(centers)
    .values([
      { slug: "bench-a", instituteName: "A" },
      { slug: "bench-b", instituteName: "B" },
    ])
    .returning({ id: centers.id });
  const [lead] = await db
    .insert(enquiries)
    .values({ centerId: a.id, name: "Lead", phone: "+919800000001", email: "a@example.com" })
    .returning({ id: enquiries.id });
  const byId = db
    .select()
    .from(enquiries)
    .where(eq(enquiries.id, sql.placeholder("id")))
    .prepare("bench_enquiry_by_id");

  const rate = async (what: string, times: number, op: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 50; i++) await op(i);
    const start = performance.now();
    for (let i = 0; i < times; i++) await op(i);
    const perSecond = Math.round(times / ((performance.now() - start) / 1000));
    console.log(`${what.padEnd(44)} ${String(perSecond).padStart(7)} /s`);
    return perSecond;
  };
  const inA = <T>(fn: () => Promise<T>) => runInTenantScope(a.id, fn);
  const figures = {
    select: await rate("select by id, one institute", N, () =>
      inA(async () => await db.select().from(enquiries).where(eq(enquiries.id, lead.id))),
    ),
    prepared: await rate("named prepared select, one institute", N, () => inA(() => byId.execute({ id: lead.id }))),
    alternating: await rate("select by id, two institutes in turn", N, (i) =>
      runInTenantScope(
        i % 2 ? a.id : b.id,
        async () => await db.select().from(enquiries).where(eq(enquiries.id, lead.id)),
      ),
    ),
    transaction: await rate("transaction: update + select", N / 2, () =>
      inA(() =>
        db.transaction(async (tx) => {
          await tx.update(enquiries).set({ updatedAt: new Date() }).where(eq(enquiries.id, lead.id));
          return tx.select().from(enquiries).where(eq(enquiries.id, lead.id));
        }),
      ),
    ),
    parallel16: await rate("16 at once: select by id (batches/s × 16)", N / 16, async () => {
      await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          runInTenantScope(
            i % 2 ? a.id : b.id,
            async () => await db.select().from(enquiries).where(eq(enquiries.id, lead.id)),
          ),
        ),
      );
    }).then((batches) => batches * 16),
  };
  console.log(JSON.stringify({ database: database.kind, ...figures }));
} finally {
  await database.close();
  await scratch?.drop();
}
