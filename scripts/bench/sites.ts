/**
 * `npm run bench`: how fast institutes' home pages are served.
 *
 * Starts the production server twice, on a database with 1,000 institutes and on one with
 * 100,000, and loads at BENCH_CONNECTIONS (64): the tenant home page across every institute's
 * host in a random order (on both), the platform landing page, GET /api/pricing, and as the
 * ceiling the same institutes' pages served as static files by nginx (one worker, like the one
 * Node process), picked by the same Host headers (1,000 and 100,000 pages, in memory where
 * /dev/shm is).
 * For reference: nginx sending one file for every request, and a bare node:http server sending
 * one page's bytes (what one Node process can do at best here, with no lookup). Prints requests/s, p50, p99 and ratios
 * (docs/decisions/0006-nginx-ceiling-serves-the-same-pages.md says why this ceiling).
 *
 * Every server is up at once, and each scenario gets BENCH_SECONDS (30) in BENCH_ROUNDS (6)
 * rounds taken in turns, every other round in reverse order. These virtual machines' speed drifts
 * by a fifth or more within a minute, so each ratio is taken between neighbouring runs of one
 * round, and the median of the rounds is shown beside every round's figure.
 * Targets: tenant home ≥ 50% of nginx's requests/s with p99 < 25 ms; 100,000 institutes within
 * 10% of 1,000. Uses DATABASE_URL (fresh databases on that server) when set, else embedded ones.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../server/db/open.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import { centers } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import {
  createDatabase,
  fetchWithHost,
  freePort,
  load,
  median,
  printTable,
  rssMiB,
  startServer,
  waitFor,
  type FetchedAnswer,
  type LoadResult,
} from "./lib.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 6));
const ROUND_SECONDS = Math.max(1, Math.round(SECONDS / ROUNDS));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const SMALL = Number(process.env.BENCH_CENTERS ?? 1000);
const LARGE = Number(process.env.BENCH_CENTERS_LARGE ?? 100_000);
const TEMPLATES = ["t1", "t2", "t3", "t4"] as const;

const work = mkdtempSync(join(tmpdir(), "pathshala-bench-"));
/**
 * The pages nginx serves, in memory (tmpfs) where the machine has it: a host may drop the page
 * cache, as these sandboxes' did during runs, and nginx then read 100,000 pages from disk at a
 * twentieth of its speed — a ceiling no deployment with the memory to spare would have.
 */
const pagesRoot = existsSync("/dev/shm") ? mkdtempSync(join("/dev/shm", "pathshala-bench-")) : work;
const cleanups: (() => Promise<unknown>)[] = [];

/** A fresh database: on DATABASE_URL's server when set (dropped at the end), else an embedded one. */
async function freshDatabase(
  label: string,
): Promise<{ databaseUrl?: string; dataDir?: string; env: Record<string, string> }> {
  if (!process.env.DATABASE_URL) {
    const dataDir = join(work, `data-${label}`);
    return { dataDir, env: { DATA_DIR: dataDir } };
  }
  const { url, drop } = await createDatabase(process.env.DATABASE_URL, `pathshala_bench_${label}`);
  cleanups.push(drop);
  return { databaseUrl: url, env: { DATABASE_URL: url } };
}

/** A database with the demo data and `count` institutes on their own domains, bench-<i>.test. */
async function institutesDatabase(label: string, count: number) {
  const target = await freshDatabase(label);
  const database = await openDatabase(target);
  await runMigrations(database);
  await seedDemo(database.db);
  const expiresAt = new Date(Date.now() + 365 * 86_400_000);
  for (let start = 0; start < count; start += 1000) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 1000); i++) {
      rows.push({
        slug: `bench-${i}`,
        instituteName: `Bench Institute ${i}`,
        customDomain: `bench-${i}.test`,
        templateId: TEMPLATES[i % 4],
        planName: "3 Year Plan",
        expiresAt,
      });
    }
    await database.db.insert(centers).values(rows).onConflictDoNothing();
  }
  await database.close();
  return target.env;
}

const hostsFor = (n: number) => Array.from({ length: n }, (_, i) => `bench-${i}.test`);

/** Asks for every host's home page, 50 at a time, and fails on any answer but 200. */
async function visitEveryHost(
  port: number,
  hosts: string[],
  each: (answer: FetchedAnswer, host: string) => void,
): Promise<void> {
  for (let i = 0; i < hosts.length; i += 50) {
    const batch = hosts.slice(i, i + 50);
    const answers = await Promise.all(batch.map((host) => fetchWithHost(port, host)));
    answers.forEach((answer, j) => {
      if (answer.status !== 200) throw new Error(`the home page answered ${answer.status} for ${batch[j]}`);
      each(answer, batch[j]);
    });
  }
}

/**
 * Asks for every institute's page once (so the runs measure steady state, not first renders),
 * keeping each page as nginx will serve it: sites/<host>/index.html under `pages`. Each page is
 * rendered on the connection that asked for it, which keeps the answer's bytes
 * (HomeAnswerStore) as wrk's connections will find them.
 */
function renderEveryPage(port: number, hosts: string[], pages: string): Promise<void> {
  return visitEveryHost(port, hosts, ({ body }, host) => {
    const dir = join(pages, "sites", host);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "index.html"), body);
  });
}

/**
 * nginx (one worker, like the one Node process) serving static files: with `byHost`, each
 * institute's own page from sites/<host>/index.html under `root`, picked by the Host header like
 * the tenant runs; without, the one file index.html for every request.
 */
async function startNginx(label: string, root: string, byHost: boolean): Promise<number> {
  const dir = join(work, `nginx-${label}`);
  const port = await freePort();
  mkdirSync(join(dir, "logs"), { recursive: true });
  mkdirSync(join(dir, "tmp"), { recursive: true });
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
  server { listen 127.0.0.1:${port}; root ${byHost ? `${root}/sites/$host` : root}; default_type text/html; }
}
`,
  );
  const nginx = spawn("nginx", ["-c", join(dir, "nginx.conf"), "-p", dir, "-g", "daemon off;"], { stdio: "ignore" });
  cleanups.push(async () => {
    nginx.kill("SIGQUIT");
    await new Promise((resolve) => nginx.once("exit", resolve));
  });
  await waitFor(port, { host: byHost ? "bench-0.test" : "localhost" });
  return port;
}

/** The same page and headers from a bare node:http server: the most one Node process can do here. */
async function startBareNode(sample: { body: string; headers: [string, string][] }): Promise<number> {
  const file = join(work, "bare-node.json");
  writeFileSync(file, JSON.stringify({ headers: sample.headers, body: Buffer.from(sample.body).toString("base64") }));
  const port = await freePort();
  const child = spawn(process.execPath, [join(import.meta.dirname, "bare-node.ts"), file, String(port)], {
    stdio: "inherit",
  });
  cleanups.push(async () => child.kill("SIGKILL"));
  await waitFor(port);
  return port;
}

const percent = (x: number) => `${(x * 100).toFixed(0)}%`;

interface Scenario {
  name: string;
  port: number;
  path?: string;
  hosts: string[];
}

try {
  console.log(
    `Seeding ${SMALL.toLocaleString()} and ${LARGE.toLocaleString()} institutes (${process.env.DATABASE_URL ? "PostgreSQL" : "embedded databases"})…`,
  );
  const [smallEnv, largeEnv] = await Promise.all([
    institutesDatabase("small", SMALL),
    institutesDatabase("large", LARGE),
  ]);
  const small = await startServer({ ...smallEnv, SEED_DEMO: "0" });
  cleanups.push(() => small.stop());
  const rssStart = rssMiB(small.child.pid!);
  const large = await startServer({ ...largeEnv, SEED_DEMO: "0", SITE_CACHE_MB: process.env.SITE_CACHE_MB ?? "2048" });
  cleanups.push(() => large.stop());

  console.log(`Rendering every institute's page once…`);
  const smallPages = join(pagesRoot, "pages-small");
  const largePages = join(pagesRoot, "pages-large");
  await renderEveryPage(small.port, hostsFor(SMALL), smallPages);
  await renderEveryPage(large.port, hostsFor(LARGE), largePages);
  const rssLarge = rssMiB(large.child.pid!);
  const fetched = await fetchWithHost(small.port, "bench-0.test");
  // node:http adds its own framing headers.
  const sample = {
    body: fetched.body.toString("utf8"),
    headers: fetched.headers.filter(([name]) => !/^(date|connection|keep-alive)$/i.test(name)),
  };
  writeFileSync(join(pagesRoot, "index.html"), sample.body);
  // nginx's worker runs as an unprivileged user when started as root: it must be able to read the pages.
  spawnSync("chmod", ["-R", "a+rX", work, pagesRoot]);

  const scenarios = {
    tenant: { name: `tenant home, ${SMALL.toLocaleString()} institutes`, port: small.port, hosts: hostsFor(SMALL) },
    tenantLarge: {
      name: `tenant home, ${LARGE.toLocaleString()} institutes`,
      port: large.port,
      hosts: hostsFor(LARGE),
    },
    // Scenarios compared are run next to each other.
    nginx: {
      name: `nginx static, the ${SMALL.toLocaleString()} institutes' pages`,
      port: await startNginx("small", smallPages, true),
      hosts: hostsFor(SMALL),
    },
    nginxLarge: {
      name: `nginx static, the ${LARGE.toLocaleString()} institutes' pages`,
      port: await startNginx("large", largePages, true),
      hosts: hostsFor(LARGE),
    },
    nginxOneFile: {
      name: "nginx static, one page for all",
      port: await startNginx("one-file", pagesRoot, false),
      hosts: [],
    },
    bare: { name: "bare node:http (same bytes)", port: await startBareNode(sample), hosts: [] },
    landing: { name: "platform landing /", port: small.port, hosts: ["localhost"] },
    pricing: { name: "GET /api/pricing", port: small.port, path: "/api/pricing", hosts: ["localhost"] },
  } satisfies Record<string, Scenario>;
  type Key = keyof typeof scenarios;
  const run = (scenario: Scenario, seconds: number) =>
    load(scenario.name, `http://127.0.0.1:${scenario.port}${scenario.path ?? "/"}`, {
      seconds,
      connections: CONNECTIONS,
      hosts: scenario.hosts,
    });

  // Compiled code, not the interpreter, is what the rounds should measure.
  for (const key of ["tenant", "tenantLarge", "landing", "pricing"] as const) await run(scenarios[key], 2);

  const rounds: Record<Key, LoadResult>[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const results = {} as Record<Key, LoadResult>;
    // Every other round runs in reverse, so a drift in the machine's speed favours neither of two neighbours.
    const order = Object.keys(scenarios) as Key[];
    for (const key of round % 2 ? order : order.reverse()) results[key] = await run(scenarios[key], ROUND_SECONDS);
    rounds.push(results);
    const line = (Object.keys(scenarios) as Key[])
      .map((key) => `${key} ${results[key].requestsPerSec.toFixed(0)}`)
      .join(", ");
    console.log(`round ${round}/${ROUNDS} (req/s): ${line}`);
  }
  const rssEnd = rssMiB(small.child.pid!);

  /** The ratio of two scenarios' requests/s in each round (runs seconds apart), and their median. */
  const ratio = (of: Key, to: Key) => {
    const each = rounds.map((r) => r[of].requestsPerSec / r[to].requestsPerSec);
    return { median: median(each), each };
  };
  const summary = (key: Key, to: Key): LoadResult & { ratio: string } => {
    const runs = rounds.map((r) => r[key]);
    return {
      name: scenarios[key].name,
      requestsPerSec: median(runs.map((r) => r.requestsPerSec)),
      p50Ms: median(runs.map((r) => r.p50Ms)),
      p99Ms: median(runs.map((r) => r.p99Ms)),
      errors: runs.reduce((n, r) => n + r.errors, 0),
      non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
      ratio: percent(ratio(key, to).median),
    };
  };
  const described = (r: { median: number; each: number[] }) =>
    `${percent(r.median)} (rounds: ${r.each.map(percent).join(", ")})`;

  console.log(
    `\n${ROUNDS} rounds of ${ROUND_SECONDS} s per scenario, ${CONNECTIONS} connections, pages of ${Buffer.byteLength(sample.body)} bytes and similar`,
  );
  console.log(
    `medians of the rounds; "vs nginx": the median of each round's ratio to nginx serving the same institutes' pages (${LARGE.toLocaleString()} for that row, ${SMALL.toLocaleString()} for the rest)\n`,
  );
  const tenant = summary("tenant", "nginx");
  printTable([
    tenant,
    summary("tenantLarge", "nginxLarge"),
    summary("landing", "nginx"),
    summary("pricing", "nginx"),
    summary("nginx", "nginx"),
    summary("nginxLarge", "nginx"),
    summary("nginxOneFile", "nginx"),
    summary("bare", "nginx"),
  ]);
  console.log(
    `\nserver memory: ${rssStart.toFixed(0)} MiB at start and ${rssEnd.toFixed(0)} MiB after the runs with ${SMALL.toLocaleString()} institutes; ${rssLarge.toFixed(0)} MiB with ${LARGE.toLocaleString()} institutes' pages cached`,
  );
  console.log(
    `tenant home reaches ${described(ratio("tenant", "bare"))} of a bare node:http server sending one page's bytes, ${described(ratio("tenant", "nginxOneFile"))} of nginx sending one file`,
  );
  console.log(
    `nginx itself serves ${described(ratio("nginxLarge", "nginx"))} as many requests with ${LARGE.toLocaleString()} institutes' pages as with ${SMALL.toLocaleString()}`,
  );
  console.log(`targets:`);
  console.log(`  tenant home ≥ 50% of nginx → ${described(ratio("tenant", "nginx"))}`);
  console.log(`  p99 < 25 ms → ${tenant.p99Ms.toFixed(2)} ms`);
  console.log(
    `  ${LARGE.toLocaleString()} institutes within 10% of ${SMALL.toLocaleString()} → ${described(ratio("tenantLarge", "tenant"))}`,
  );
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  rmSync(work, { recursive: true, force: true });
  rmSync(pagesRoot, { recursive: true, force: true });
}
