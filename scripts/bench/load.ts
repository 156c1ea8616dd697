/**
 * `npm run bench:load`: the production server on PostgreSQL with 1,000 institutes, 50,000 students
 * and 5,000 contents, under a mixed workload over loopback at BENCH_CONNECTIONS (200) for
 * BENCH_SECONDS (60), then a soak of BENCH_SOAK_SECONDS (600), after an unmeasured warm-up of
 * BENCH_WARMUP_SECONDS (10: compiled code, caches, prepared statements). Prints requests/s, p50 and p99 per
 * route, errors and 5xx, and the server's memory at the start and end of the soak.
 * Targets: zero 5xx, p99 < 100 ms for reads, memory growth < 10 % over the soak (medians of
 * readings every 5 s over its first and last minute, of resident memory and of the heap left after
 * full collections).
 * Needs wrk (Debian package) and PostgreSQL (DATABASE_URL, default the local server; a fresh
 * database is made and dropped). The server runs BENCH_WORKERS (1) processes (WEB_CONCURRENCY), each
 * with a pool of BENCH_POOL (20) database connections (DATABASE_POOL_MAX).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase } from "../../server/db/open.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import { contents, users } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { LOAD_TEST_SIZES, seedBulk } from "../../server/seed/bulk.ts";
import { hashPassword } from "../../server/auth/password.ts";
import { SessionStore } from "../../server/auth/sessions.ts";
import { DiskStorage } from "../../server/storage/disk.ts";
import { DeliveryService } from "../../server/services/delivery.ts";
import { createOrPromoteAdmin } from "../../server/services/admins.ts";
import { createDatabase, hasWrk, median, printTable, rssTreeMiB, runWrk, startServer } from "./lib.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const SOAK = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const PASSWORD = "bench-password-2025";

if (!hasWrk()) {
  console.error("bench:load needs wrk (apt-get install wrk).");
  process.exit(2);
}

const { url: databaseUrl, drop: dropDatabase } = await createDatabase(
  process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  "pathshala_load",
);
const work = mkdtempSync(join(tmpdir(), "pathshala-load-"));
const dataDir = join(work, "data");

const METRICS_TOKEN = "bench-metrics";

/** The server's Prometheus text (the bench starts it with METRICS_TOKEN). */
async function readMetrics(target: string): Promise<string> {
  return (await fetch(`${target}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
}

/** Where the server's memory is, in MiB, from its metrics (one worker's when there are several). */
async function memoryGauges(target: string) {
  const text = await readMetrics(target).catch(() => "");
  const mib = (name: string) => {
    const bytes = new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1];
    return bytes ? Number(bytes) / 1024 / 1024 : undefined;
  };
  return {
    liveMib: mib("nodejs_heap_live_after_gc_bytes"),
    floorMib: mib("process_resident_memory_after_gc_bytes"),
    heapMib: mib("nodejs_heap_size_total_bytes"),
    externalMib: mib("nodejs_external_memory_bytes"),
    processMib: mib("process_resident_memory_bytes"),
  };
}

/** Every request of one route, as wrk's Lua: a random pick from prepared variants. */
interface Route {
  name: string;
  share: number;
  variants: { path: string; method?: string; headers: Record<string, string>; body?: string }[];
}

try {
  console.log(
    `Seeding PostgreSQL (${LOAD_TEST_SIZES.centers.toLocaleString()} institutes, ${LOAD_TEST_SIZES.students.toLocaleString()} students, ${LOAD_TEST_SIZES.contents.toLocaleString()} contents)…`,
  );
  const database = await openDatabase({ databaseUrl, poolMax: 4 });
  await runMigrations(database);
  const storage = new DiskStorage(join(dataDir, "files"));
  await seedDemo(database.db, storage);
  await seedBulk(database.db, LOAD_TEST_SIZES, await hashPassword(PASSWORD));
  await createOrPromoteAdmin(database.db, { email: "load-admin@example.com", password: "load-admin-password-1" });
  const analyze = new pg.Client({ connectionString: databaseUrl });
  await analyze.connect();
  await analyze.query("vacuum analyze");
  await analyze.end();

  // Browser sessions (12 h, sliding) for the signed-in routes, made before the server starts.
  const sessions = new SessionStore(database.db);
  const pick = async (role: "student" | "creator", count: number) =>
    (await database.db.execute(
      sql`select id from users where role = ${role} and email like '%@bulk.example' order by random() limit ${count}`,
    )) as unknown as { rows: { id: string }[] };
  const cookie = async (id: string) =>
    `pathshala_session=${(await sessions.createWebSession(id, "localhost", true)).token}`;
  const studentCookies = await Promise.all((await pick("student", 200)).rows.map((r) => cookie(r.id)));
  const creatorCookies = await Promise.all((await pick("creator", 50)).rows.map((r) => cookie(r.id)));
  const [adminRow] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, "load-admin@example.com"));
  const adminCookie = await cookie(adminRow.id);
  // A signed link to the demo video, as its creator streams it.
  const [creator] = await database.db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(eq(users.email, "creator@example.com"));
  const [video] = await database.db.select().from(contents).where(eq(contents.type, "video")).limit(1);
  const delivery = new DeliveryService(database.db, storage, async () => undefined);
  const link = await delivery.link(creator, video, 86_400);
  const creatorCookie = await cookie(creator.id);
  const videoSize = (await storage.stat(video.fileKey!))!.size;
  await database.close();

  const hosts = Array.from({ length: LOAD_TEST_SIZES.centers }, (_, i) => `bulk-${i + 1}.test`);
  const sample = <T>(list: T[], n: number) => Array.from({ length: n }, (_, i) => list[(i * 7919) % list.length]);
  const routes: Route[] = [
    {
      name: "tenant home",
      share: 0.3,
      variants: sample(hosts, 200).map((host) => ({ path: "/", headers: { Host: host, "Accept-Encoding": "br" } })),
    },
    {
      name: "catalog (tenant)",
      share: 0.12,
      variants: sample(hosts, 100).map((host) => ({ path: "/api/contents", headers: { Host: host } })),
    },
    {
      name: "sign-in",
      share: 0.03,
      variants: Array.from({ length: 100 }, (_, i) => ({
        path: "/api/auth/login",
        method: "POST",
        headers: {
          Host: "localhost",
          "Content-Type": "application/json",
          "X-Forwarded-For": `10.9.${i % 250}.${(i * 13) % 250}`,
        },
        body: JSON.stringify({ email: `student${1 + ((i * 37) % 50_000)}@bulk.example`, password: PASSWORD }),
      })),
    },
    // Sessions belong to the host that issued them: these were made for "localhost".
    {
      name: "my-courses",
      share: 0.2,
      variants: studentCookies.map((c) => ({
        path: "/api/student/my-courses",
        headers: { Host: "localhost", Cookie: c },
      })),
    },
    {
      name: "creator lists",
      share: 0.15,
      variants: creatorCookies.map((c) => ({ path: "/api/content/my", headers: { Host: "localhost", Cookie: c } })),
    },
    {
      name: "admin stats",
      share: 0.05,
      variants: [{ path: "/api/admin/role-stats", headers: { Host: "localhost", Cookie: adminCookie } }],
    },
    {
      name: "content range reads",
      share: 0.15,
      variants: Array.from({ length: 50 }, (_, i) => {
        const start = Math.floor((i / 50) * (videoSize - 65536));
        return {
          path: link!.url,
          headers: { Host: "localhost", Cookie: creatorCookie, Range: `bytes=${start}-${start + 65535}` },
        };
      }),
    },
  ];

  // Cookies for probing routes by hand (BENCH_KEEP).
  if (process.env.BENCH_KEEP)
    writeFileSync(
      join(work, "cookies.json"),
      JSON.stringify({ student: studentCookies[0], creator: creatorCookies[0], admin: adminCookie }),
    );
  const server = await startServer({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    TRUST_PROXY: "1",
    SEED_DEMO: "0",
    DATABASE_POOL_MAX: process.env.BENCH_POOL ?? "20",
    METRICS_TOKEN,
    WEB_CONCURRENCY: process.env.BENCH_WORKERS ?? "1",
  });
  const target = `http://127.0.0.1:${server.port}`;

  /** A route's requests as wrk's Lua: a random pick from its prepared variants. */
  const requestLua = (route: Route) => {
    const escape = (s: string) => JSON.stringify(s);
    const variants = route.variants
      .map(
        (v) =>
          `{${escape(v.method ?? "GET")}, ${escape(v.path)}, {${Object.entries(v.headers)
            .map(([k, val]) => `[${escape(k)}]=${escape(val)}`)
            .join(",")}}, ${v.body ? escape(v.body) : "nil"}}`,
      )
      .join(",\n");
    return `local v = {${variants}}
request = function()
  local r = v[math.random(#v)]
  return wrk.format(r[1], r[2], r[3], r[4])
end`;
  };

  /**
   * All routes at once, each its own wrk with its share of the connections. Seven wrk processes
   * open 200 connections into a server already busy with the first ones: hold every first request
   * longer than one wrk alone needs (lib.ts, FIRST_REQUEST_HOLD_MS, says why).
   */
  const run = (seconds: number) =>
    Promise.all(
      routes.map((route, i) => {
        const connections = Math.max(1, Math.round(CONNECTIONS * route.share));
        return runWrk({
          name: `${route.name} (${connections} conns)`,
          url: target,
          seconds,
          connections,
          request: requestLua(route),
          holdMs: 3000,
          script: join(work, `route-${i}.lua`),
        });
      }),
    );

  if (WARMUP > 0) {
    // A fresh process runs interpreted code, renders each institute's page once and prepares each
    // statement on each pooled connection: the first seconds say nothing about how it serves.
    console.log(`Warm-up (not measured): ${WARMUP} s at the same mix…`);
    await run(WARMUP);
  }
  console.log(`Load: ${CONNECTIONS} connections for ${SECONDS} s…`);
  const loaded = await run(SECONDS);
  printTable(loaded);
  const total = loaded.reduce((n, r) => n + r.requestsPerSec, 0);
  console.log(`total ${total.toFixed(0)} req/s`);

  const status = spawnSync("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", `${target}/readyz`], {
    encoding: "utf8",
  }).stdout;
  console.log(`after load: /readyz ${status}`);

  if (SOAK > 0) {
    console.log(`Soak: ${SOAK} s at the same mix…`);
    // Resident memory swings by a tenth with the garbage collector's cycle, so one reading at each
    // end says little: compare the medians of readings every 5 s over the soak's first and last minute.
    // Resident memory also grows while V8 sizes its heap to the load, so the heap left after each
    // full collection is read too (from /metrics; one worker's when there are several): a leak
    // is a floor that keeps rising.
    type Sample = { at: number; mib: number } & Partial<Awaited<ReturnType<typeof memoryGauges>>>;
    const samples: Sample[] = [];
    const started = Date.now();
    const sampler = setInterval(() => {
      const sample: Sample = { at: Date.now() - started, mib: rssTreeMiB(server.child.pid!) };
      samples.push(sample);
      void memoryGauges(target).then((gauges) => Object.assign(sample, gauges));
    }, 5000);
    const soaked = await run(SOAK);
    clearInterval(sampler);
    printTable(soaked);
    const window = Math.min(60_000, (SOAK * 1000) / 3);
    const first = samples.filter((x) => x.at <= window);
    const last = samples.filter((x) => x.at >= SOAK * 1000 - window);
    const describeGrowth = (label: string, read: (x: (typeof samples)[number]) => number | undefined) => {
      const values = (list: typeof samples) => list.map(read).filter((v): v is number => v !== undefined && v > 0);
      const before = median(values(first));
      const after = median(values(last));
      const growth = ((after - before) / before) * 100;
      const all = values(samples);
      return `${label}: ${before.toFixed(0)} MiB → ${after.toFixed(0)} MiB (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} %); readings ranged ${Math.min(...all).toFixed(0)}–${Math.max(...all).toFixed(0)} MiB`;
    };
    const byMinute = Map.groupBy(samples, (x) => Math.floor(x.at / 60_000));
    console.log(
      `resident memory by minute of the soak (median MiB): ${[...byMinute.values()].map((list) => median(list.map((x) => x.mib)).toFixed(0)).join(" ")}`,
    );
    console.log(
      `server memory over the soak (medians of readings every 5 s over its first and last ${window / 1000} s):`,
    );
    console.log(`  ${describeGrowth("resident", (x) => x.mib)}`);
    console.log(`  ${describeGrowth("resident right after full collections", (x) => x.floorMib)}`);
    console.log(`  ${describeGrowth("heap live after full collections", (x) => x.liveMib)}`);
    // The parts of the process's resident memory: what grows is where to look.
    console.log(`  ${describeGrowth("V8 heap reserved", (x) => x.heapMib)}`);
    console.log(`  ${describeGrowth("held outside the heap (Buffers)", (x) => x.externalMib)}`);
    const native = (x: Sample) =>
      x.processMib && x.heapMib && x.externalMib ? x.processMib - x.heapMib - x.externalMib : undefined;
    console.log(
      `  ${describeGrowth("the rest (pages V8 keeps beyond its heap's size, malloc, threads, code)", native)}`,
    );
  }

  // 5xx, from the server's own request counter (exact, whatever wrk saw).
  const text = await readMetrics(target);
  const fivexx = [...text.matchAll(/^http_requests_total\{[^}]*status="5\d\d"[^}]*\} (\d+)$/gm)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  );
  console.log(`5xx responses during the whole run: ${fivexx}`);
  // The collector's pauses over the whole run (warm-up included): a latency tail that follows them.
  const pauses = [...text.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} ([\d.e+-]+)$/gm)];
  const pause = (kind: string, part: string) => Number(pauses.find((m) => m[2] === kind && m[1] === part)?.[3] ?? 0);
  const kinds = [...new Set(pauses.map((m) => m[2]))].filter((kind) => pause(kind, "count") > 0);
  console.log(
    `garbage collection pauses: ${kinds.map((kind) => `${kind} ${pause(kind, "count")} × ${((pause(kind, "sum") / pause(kind, "count")) * 1000).toFixed(1)} ms`).join(", ")}`,
  );
  await server.stop();
} finally {
  if (process.env.BENCH_KEEP) {
    // For profiling a route by hand afterwards.
    console.log(`kept: DATABASE_URL=${databaseUrl} DATA_DIR=${dataDir}`);
  } else {
    await dropDatabase();
    rmSync(work, { recursive: true, force: true });
  }
}
