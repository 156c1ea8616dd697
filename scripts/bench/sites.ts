/**
 * `npm run bench`: how fast institutes' home pages are served.
 *
 * Starts the production server with 1,000 institutes and loads, for BENCH_SECONDS (30) at
 * BENCH_CONNECTIONS (64): the tenant home page across random institutes' hosts, the platform
 * landing page, GET /api/pricing, and as the ceiling the same institutes' pages served as static
 * files by nginx (one worker, like the one Node process), picked by the same random Host headers.
 * For reference: nginx sending one file for every request, and a bare node:http server sending
 * one page's bytes (what one Node process can do at best here, with no lookup). Then it grows to
 * 100,000 institutes and runs the tenant and nginx scenarios again. Prints requests/s, p50, p99
 * and ratios (docs/decisions/0006-nginx-ceiling-serves-the-same-pages.md says why this ceiling).
 * Targets: tenant home ≥ 50% of nginx's requests/s with p99 < 25 ms; 100,000 institutes within
 * 10% of 1,000. Uses DATABASE_URL (a fresh database on that server) when set, else the embedded one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openDatabase } from "../../server/db/open.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import { centers } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { fetchWithHost, freePort, getWithHost, load, printTable, rssMiB, startServer, waitFor, type LoadResult } from "./lib.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const SMALL = Number(process.env.BENCH_CENTERS ?? 1000);
const LARGE = Number(process.env.BENCH_CENTERS_LARGE ?? 100_000);
const TEMPLATES = ["t1", "t2", "t3", "t4"] as const;

const work = mkdtempSync(join(tmpdir(), "pathshala-bench-"));
let databaseUrl: string | undefined;
let dropDatabase = async () => {};
if (process.env.DATABASE_URL) {
  const name = `pathshala_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(process.env.DATABASE_URL);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
}
const dbEnv: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: join(work, "data") };

async function addCenters(from: number, to: number) {
  const database = await openDatabase({ databaseUrl, dataDir: databaseUrl ? undefined : join(work, "data") });
  await runMigrations(database);
  if (from === 0) await seedDemo(database.db);
  const expiresAt = new Date(Date.now() + 365 * 86_400_000);
  for (let start = from; start < to; start += 1000) {
    const rows = [];
    for (let i = start; i < Math.min(to, start + 1000); i++) {
      rows.push({ slug: `bench-${i}`, instituteName: `Bench Institute ${i}`, customDomain: `bench-${i}.test`, templateId: TEMPLATES[i % 4], planName: "3 Year Plan", expiresAt });
    }
    await database.db.insert(centers).values(rows).onConflictDoNothing();
  }
  await database.close();
}

const hostsFor = (n: number) => Array.from({ length: n }, (_, i) => `bench-${i}.test`);

/**
 * Every institute once (so the run measures steady state, not first renders), keeping each page
 * as nginx will serve it (sites/<host>/index.html under `pages`), then the load across them all.
 */
async function tenantScenario(label: string, port: number, count: number, pages: string): Promise<LoadResult> {
  const hosts = hostsFor(count);
  for (let i = 0; i < count; i += 50) {
    const answers = await Promise.all(hosts.slice(i, i + 50).map((host) => fetchWithHost(port, host)));
    answers.forEach(({ status, body }, j) => {
      if (status !== 200) throw new Error(`warm-up answered ${status} for ${hosts[i + j]}`);
      const dir = join(pages, "sites", hosts[i + j]);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "index.html"), body);
    });
  }
  return load(label, `http://127.0.0.1:${port}/`, { seconds: SECONDS, connections: CONNECTIONS, hosts });
}

/**
 * nginx (one worker, like the one Node process) serving static files: with `hosts`, each
 * institute's own page from sites/<host>/index.html under `root`, picked by the Host header like
 * the tenant runs; without, the one file index.html for every request.
 */
async function nginxScenario(label: string, root: string, hosts?: string[]): Promise<LoadResult> {
  const dir = join(work, "nginx");
  const port = await freePort();
  spawnSync("mkdir", ["-p", join(dir, "logs"), join(dir, "tmp")]);
  // nginx's worker runs as an unprivileged user when started as root: it must be able to read the pages.
  spawnSync("chmod", ["-R", "a+rX", work]);
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${dir}/tmp;
  proxy_temp_path ${dir}/tmp;
  fastcgi_temp_path ${dir}/tmp;
  uwsgi_temp_path ${dir}/tmp;
  scgi_temp_path ${dir}/tmp;
  server { listen 127.0.0.1:${port}; root ${hosts ? `${root}/sites/$host` : root}; default_type text/html; }
}
`,
  );
  const nginx = spawn("nginx", ["-c", join(dir, "nginx.conf"), "-p", dir, "-g", "daemon off;"], { stdio: "ignore" });
  try {
    await waitFor(port, { host: hosts?.[0] });
    return await load(label, `http://127.0.0.1:${port}/`, { seconds: SECONDS, connections: CONNECTIONS, hosts });
  } finally {
    nginx.kill("SIGQUIT");
    await new Promise((resolve) => nginx.once("exit", resolve));
  }
}

/** The same page and headers from a bare node:http server: the most one Node process can do here. */
async function bareNodeScenario(sample: { body: string; headers: [string, string][] }): Promise<LoadResult> {
  const file = join(work, "bare-node.json");
  writeFileSync(file, JSON.stringify({ headers: sample.headers, body: Buffer.from(sample.body).toString("base64") }));
  const port = await freePort();
  const child = spawn(process.execPath, [join(import.meta.dirname, "bare-node.ts"), file, String(port)], { stdio: "inherit" });
  try {
    await waitFor(port);
    return await load("bare node:http (same bytes)", `http://127.0.0.1:${port}/`, { seconds: SECONDS, connections: CONNECTIONS });
  } finally {
    child.kill("SIGKILL");
  }
}

try {
  console.log(`Seeding ${SMALL.toLocaleString()} institutes (${databaseUrl ? "PostgreSQL" : "embedded database"})…`);
  await addCenters(0, SMALL);
  let server = await startServer({ ...dbEnv, SEED_DEMO: "0" });
  const rssStart = rssMiB(server.child.pid!);
  const smallPages = join(work, "pages-small");
  const largePages = join(work, "pages-large");
  const tenant = await tenantScenario(`tenant home, ${SMALL.toLocaleString()} institutes`, server.port, SMALL, smallPages);
  // The first renders load the route modules: warm up so the run measures steady state.
  for (let i = 0; i < 20; i++) await getWithHost(server.port, "localhost");
  const landing = await load("platform landing /", `http://127.0.0.1:${server.port}/`, { seconds: SECONDS, connections: CONNECTIONS, hosts: ["localhost"] });
  const pricing = await load("GET /api/pricing", `http://127.0.0.1:${server.port}/api/pricing`, { seconds: SECONDS, connections: CONNECTIONS, hosts: ["localhost"] });
  const fetched = await fetchWithHost(server.port, "bench-0.test");
  // node:http adds its own framing headers.
  const sample = { body: fetched.body.toString("utf8"), headers: fetched.headers.filter(([name]) => !/^(date|connection|keep-alive)$/i.test(name)) };
  const rssEnd = rssMiB(server.child.pid!);
  await server.stop();

  const nginx = await nginxScenario(`nginx static, the ${SMALL.toLocaleString()} institutes' pages`, smallPages, hostsFor(SMALL));
  writeFileSync(join(work, "index.html"), sample.body);
  const nginxOneFile = await nginxScenario("nginx static, one page for all", work);
  const bare = await bareNodeScenario(sample);

  console.log(`Growing to ${LARGE.toLocaleString()} institutes…`);
  await addCenters(SMALL, LARGE);
  server = await startServer({ ...dbEnv, SEED_DEMO: "0", SITE_CACHE_MB: process.env.SITE_CACHE_MB ?? "2048" });
  const large = await tenantScenario(`tenant home, ${LARGE.toLocaleString()} institutes`, server.port, LARGE, largePages);
  const rssLarge = rssMiB(server.child.pid!);
  await server.stop();
  const nginxLarge = await nginxScenario(`nginx static, the ${LARGE.toLocaleString()} institutes' pages`, largePages, hostsFor(LARGE));

  const percent = (r: LoadResult, of: LoadResult) => `${((r.requestsPerSec / of.requestsPerSec) * 100).toFixed(0)}%`;
  console.log(`\n${SECONDS} s per scenario, ${CONNECTIONS} connections, pages of ${Buffer.byteLength(sample.body)} bytes and similar`);
  console.log(`"vs nginx": against nginx serving the same institutes' pages (${LARGE.toLocaleString()} for that row, ${SMALL.toLocaleString()} for the rest)\n`);
  printTable([
    { ...tenant, ratio: percent(tenant, nginx) },
    { ...large, ratio: percent(large, nginxLarge) },
    { ...landing, ratio: percent(landing, nginx) },
    { ...pricing, ratio: percent(pricing, nginx) },
    { ...nginx, ratio: "100%" },
    { ...nginxLarge, ratio: percent(nginxLarge, nginx) },
    { ...nginxOneFile, ratio: percent(nginxOneFile, nginx) },
    { ...bare, ratio: percent(bare, nginx) },
  ]);
  console.log(`\nserver memory: ${rssStart.toFixed(0)} MiB at start, ${rssEnd.toFixed(0)} MiB after the ${SMALL.toLocaleString()}-institute runs, ${rssLarge.toFixed(0)} MiB with ${LARGE.toLocaleString()} institutes cached`);
  console.log(`tenant home reaches ${percent(tenant, bare)} of a bare node:http server sending one page's bytes, ${percent(tenant, nginxOneFile)} of nginx sending one file`);
  console.log(`nginx itself serves ${percent(nginxLarge, nginx)} as many requests with ${LARGE.toLocaleString()} institutes' pages as with ${SMALL.toLocaleString()}`);
  console.log(`targets: tenant ≥ 50% of nginx → ${percent(tenant, nginx)}; p99 < 25 ms → ${tenant.p99Ms.toFixed(2)} ms; ${LARGE.toLocaleString()} within 10% of ${SMALL.toLocaleString()} → ${percent(large, tenant)}`);
} finally {
  await dropDatabase();
  rmSync(work, { recursive: true, force: true });
}
