/**
 * `npm run bench`: what visitors get, side by side in one run with nginx serving the same files
 * as the ceiling. Builds the production server (`npm run build`; BENCH_NO_BUILD=1 skips it),
 * seeds the demo data plus BENCH_CENTERS (1,000) institutes with a logo, students and creators
 * (embedded database, or a fresh one on DATABASE_URL's server), and starts three servers: the app,
 * the shipped nginx micro-cache in front of it (deploy/nginx/pathshala.conf.template, as Caddy
 * reaches it once TLS is done), and nginx serving the bytes the app answered, as files.
 *
 *   (a) an institute's site as a browser loads it (HTML, stylesheet, script, logo; every
 *       institute in turn), on kept-alive connections and on a new connection per page load,
 *       through the deploy's nginx: ≥ 0.8× nginx, p99 < 25 ms
 *   (b) the same straight to the app (no target: what the cache saves)
 *   (c) the platform's landing page and /pricing, through the deploy's nginx: ≥ 0.5× nginx
 *   (d) the student dashboard and the creator's contents page, signed in (many users), at 32
 *       connections: ≥ 300 req/s, p99 < 150 ms
 *   (e) a soak of every journey at once for BENCH_SOAK_MINUTES (30), with (a) and (d) measured
 *       before and after it: end ≥ 0.9× start
 *
 * BENCH_ONLY=signed-in measures (d) alone (no institute sites, platform pages or soak);
 * BENCH_WEB_CONCURRENCY=N runs the app as N processes on its one port (WEB_CONCURRENCY, which needs
 * DATABASE_URL: PostgreSQL).
 *
 * BENCH_SECONDS (30) per scenario at BENCH_CONNECTIONS (64); BENCH_PORT puts the servers on
 * BENCH_PORT+1 (app), +51 (micro-cache) and +52 (static nginx) instead of free ports. Needs wrk
 * and nginx. Each wrk runs one thread and nginx one worker, beside the one Node process, on the
 * same machine: every figure shares its cores with the tool measuring it.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { openDatabase } from "../../server/db/open.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { seedBulk, type BulkSizes } from "../../server/seed/bulk.ts";
import { hashPassword } from "../../server/auth/password.ts";
import { SessionStore } from "../../server/auth/sessions.ts";
import { DiskStorage } from "../../server/storage/disk.ts";
import { freePort } from "../lib/free-port.ts";
import { nginxInstalled, startDeployNginx, startStaticNginx } from "../lib/nginx.ts";
import { createDatabase, fetchWithHost, hasWrk, rssTreeMiB, runWrk, startServer, type LoadResult } from "./lib.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const SOAK_MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const SIGNED_IN_CONNECTIONS = 32;
const ONLY_SIGNED_IN = process.env.BENCH_ONLY === "signed-in";
const WEB_CONCURRENCY = process.env.BENCH_WEB_CONCURRENCY;
const CENTERS = Number(process.env.BENCH_CENTERS ?? 1000);
const PORT_BASE = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;
const PASSWORD = "bench-password-2025";
const LOGO_KEY = "logos/bench-logo.png";
/** What a browser sends with every request here. */
const BROWSER = {
  "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36",
  "Accept-Encoding": "gzip, deflate, br, zstd",
  "Accept-Language": "en-IN,en;q=0.9",
};

if (process.env.BENCH_ONLY && !ONLY_SIGNED_IN) throw new Error('BENCH_ONLY must be "signed-in" or unset');
if (WEB_CONCURRENCY && !process.env.DATABASE_URL)
  throw new Error("BENCH_WEB_CONCURRENCY needs DATABASE_URL (the embedded database belongs to one process)");
if (!hasWrk() || !nginxInstalled()) {
  console.error("npm run bench needs wrk and nginx (apt-get install wrk nginx).");
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), "pathshala-bench-"));
/**
 * nginx's cache and the ceiling's files, in memory (tmpfs) where the machine has it, as a deploy
 * would keep them (docs/operations.md): neither side's figures then depend on the disk.
 */
const memory = existsSync("/dev/shm") ? mkdtempSync(join("/dev/shm", "pathshala-bench-")) : work;
// nginx's workers run as nobody when it is started as root.
chmodSync(memory, 0o755);
const cleanups: (() => Promise<unknown>)[] = [];
const port = async (offset: number) => (PORT_BASE === undefined ? freePort() : PORT_BASE + offset);

/** One request as wrk's Lua will send it. */
interface Request {
  host: string;
  path: string;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
}

/** wrk's Lua for a list of requests sent in order, over and over (each connection from its own place in it). */
function requestLua(requests: Request[]): string {
  const q = (s: string) => JSON.stringify(s);
  const rows = requests
    .map((r) => {
      const headers = { Host: r.host, ...BROWSER, ...r.headers };
      const fields = Object.entries(headers)
        .map(([k, v]) => `[${q(k)}]=${q(v)}`)
        .join(",");
      return `{${q(r.method ?? "GET")}, ${q(r.path)}, {${fields}}, ${r.body ? q(r.body) : "nil"}}`;
    })
    .join(",\n");
  return `local rows = {${rows}}
local requests = {}
init = function()
  for i, r in ipairs(rows) do requests[i] = wrk.format(r[1], r[2], r[3], r[4]) end
end
local at = 0
request = function()
  at = at % #requests + 1
  return requests[at]
end`;
}

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const bench = (name: string, target: number, requests: Request[], seconds = SECONDS, connections = CONNECTIONS) =>
  runWrk({ name, url: `http://127.0.0.1:${target}`, seconds, connections, request: requestLua(requests) });

try {
  if (process.env.BENCH_NO_BUILD !== "1") {
    console.log("Building (npm run build)…");
    if (spawnSync("npm", ["run", "build"], { stdio: "ignore" }).status !== 0) throw new Error("npm run build failed");
  }

  // The database: demo data, BENCH_CENTERS institutes (bulk-N.test) each with a logo, their students and creators.
  const dataDir = join(work, "data");
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    const created = await createDatabase(process.env.DATABASE_URL, "pathshala_bench");
    databaseUrl = created.url;
    cleanups.push(created.drop);
  }
  const sizes: BulkSizes = {
    centers: CENTERS,
    students: 5000,
    creators: 100,
    contents: 2000,
    enrollments: 10_000,
    paidOrders: 3000,
    enquiries: 3000,
    bookings: 500,
    sessions: 1000,
    rateLimitHits: 1000,
  };
  console.log(
    `Seeding ${CENTERS.toLocaleString()} institutes, ${sizes.students.toLocaleString()} students (${databaseUrl ? "PostgreSQL" : "embedded database"})…`,
  );
  const database = await openDatabase({ databaseUrl, dataDir });
  await runMigrations(database);
  const storage = new DiskStorage(join(dataDir, "files"));
  await seedDemo(database.db, storage);
  await seedBulk(database.db, sizes, await hashPassword(PASSWORD));
  // A 96-pixel logo, as an institute would upload (every institute shows the same file).
  const logo = await sharp(join(import.meta.dirname, "../../public/images/og.png"))
    .resize(96, 96)
    .png()
    .toBuffer();
  await storage.put(LOGO_KEY, new Blob([logo]).stream(), { maxBytes: logo.length });
  await database.db.execute(
    sql`update centers set site_profile = jsonb_build_object('logoKey', ${LOGO_KEY}::text) where slug like 'bulk-%'`,
  );
  // Sessions for the signed-in pages, on the platform's host: students with courses, creators with contents.
  const sessions = new SessionStore(database.db);
  const ids = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
  const cookieOf = async (id: string) =>
    `pathshala_session=${(await sessions.createWebSession(id, "localhost", true)).token}`;
  const studentCookies = await Promise.all(
    (
      await ids(
        sql`select distinct u.id from users u join enrollments e on e.student_id = u.id where u.email like '%@bulk.example' limit 200`,
      )
    ).map(cookieOf),
  );
  const creatorCookies = await Promise.all(
    (
      await ids(
        sql`select distinct u.id from users u join contents c on c.creator_id = u.id where u.email like 'creator%@bulk.example' limit 50`,
      )
    ).map(cookieOf),
  );
  await database.close();

  const app = await startServer(
    {
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DATA_DIR: dataDir,
      TRUST_PROXY: "1",
      SEED_DEMO: "0",
      ...(WEB_CONCURRENCY ? { WEB_CONCURRENCY } : {}),
    },
    await port(1),
  );
  cleanups.push(() => app.stop());
  const deploy = await startDeployNginx({
    dir: join(memory, "nginx-deploy"),
    port: await port(51),
    upstream: `127.0.0.1:${app.port}`,
  });
  cleanups.push(() => deploy.stop());

  // What each journey asks for, with the links read from the pages themselves.
  const hosts = ONLY_SIGNED_IN ? [] : shuffled(Array.from({ length: CENTERS }, (_, i) => `bulk-${i + 1}.test`));
  const pageLoad = async (host: string): Promise<Request[]> => {
    const page = await fetchWithHost(app.port, host, "/");
    if (page.status !== 200) throw new Error(`${host}/ answered ${page.status}`);
    const html = page.body.toString();
    const link = (pattern: RegExp) => {
      const found = pattern.exec(html)?.[1];
      if (!found) throw new Error(`${host}'s page has no ${pattern.source}`);
      return found;
    };
    return [
      "/",
      link(/href="(\/_site\/t\d\.css\?v=[\w-]+)"/),
      link(/src="(\/_site\/enquiry\.js\?v=[\w-]+)"/),
      link(/<link rel="icon" href="(\/media\/logos\/[\w.-]+)"/),
    ].map((path) => ({ host, path }));
  };
  console.log(`Loading every institute's page once…`);
  const loads: Request[][] = [];
  for (let i = 0; i < hosts.length; i += 50)
    loads.push(...(await Promise.all(hosts.slice(i, i + 50).map((host) => pageLoad(host)))));
  const siteKept = loads.flat();
  // A new connection for each page load: the last of its four requests closes it.
  const siteNew = loads.flatMap((load) =>
    load.map((r, i) => (i === load.length - 1 ? { ...r, headers: { Connection: "close" } } : r)),
  );
  const platform: Request[] = [
    { host: "localhost", path: "/" },
    { host: "localhost", path: "/pricing" },
  ];
  const signedIn: Request[] = shuffled([
    ...studentCookies.map((cookie) => ({ host: "localhost", path: "/student", headers: { Cookie: cookie } })),
    ...creatorCookies.flatMap((cookie) =>
      Array.from({ length: 4 }, () => ({ host: "localhost", path: "/creator/contents", headers: { Cookie: cookie } })),
    ),
  ]);
  for (const r of [
    ...platform,
    signedIn.find((r) => r.path === "/student")!,
    signedIn.find((r) => r.path !== "/student")!,
  ]) {
    const answer = await fetchWithHost(app.port, r.host, r.path, r.headers);
    if (answer.status !== 200) throw new Error(`${r.path} answered ${answer.status}`);
  }

  // How long each signed-in page takes alone, one request at a time: what (d) starts from.
  for (const path of ["/student", "/creator/contents"]) {
    const sample = signedIn.filter((r) => r.path === path).slice(0, 20);
    const times: number[] = [];
    for (const r of sample) {
      const started = performance.now();
      await fetchWithHost(app.port, r.host, r.path, { ...BROWSER, ...r.headers });
      times.push(performance.now() - started);
    }
    times.sort((x, y) => x - y);
    console.log(`  ${path} alone: median ${times[times.length >> 1].toFixed(1)} ms over ${times.length} users`);
  }

  // The ceiling: nginx serving, as files, the bytes the app answered for the same requests.
  const files = join(memory, "files");
  const captured = new Map<string, { type: string; encoding?: string }>();
  const keep = async (r: Request) => {
    const path = r.path.split("?")[0];
    const answer = await fetchWithHost(app.port, r.host, r.path, { ...BROWSER, ...r.headers });
    const file = join(files, r.host, path === "/" ? "index" : path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, answer.body);
    const header = (name: string) => answer.headers.find(([n]) => n.toLowerCase() === name)?.[1];
    captured.set(path, { type: header("content-type") ?? "text/html", encoding: header("content-encoding") });
  };
  for (const r of [...siteKept, ...platform]) await keep(r);
  await keep(signedIn.find((r) => r.path === "/student")!);
  await keep(signedIn.find((r) => r.path !== "/student")!);
  spawnSync("chmod", ["-R", "a+rX", memory]);
  const ceiling = await startStaticNginx({
    dir: join(memory, "nginx-static"),
    port: await port(52),
    root: `${files}/$host`,
    locations: [...captured].map(
      ([path, { type, encoding }]) =>
        `location = ${path} { default_type "${type}"; ${encoding ? `add_header Content-Encoding ${encoding}; add_header Vary Accept-Encoding;` : ""} try_files /${path === "/" ? "index" : path.slice(1)} =404; }`,
    ),
  });
  cleanups.push(() => ceiling.stop());

  // Compiled code and full caches, not the interpreter and first renders, are what is measured.
  console.log("Warming up (not measured)…");
  if (!ONLY_SIGNED_IN) {
    await bench("warm-up", deploy.port, siteKept, 3);
    await bench("warm-up", app.port, [...siteKept, ...platform], 3);
  }
  await bench("warm-up", app.port, signedIn, 3, SIGNED_IN_CONNECTIONS);

  interface Row extends LoadResult {
    ratio?: number;
    target?: string;
    met?: boolean;
  }
  const rows: Row[] = [];
  const add = (result: LoadResult, ceilingResult?: LoadResult, target?: (r: Row) => [string, boolean]) => {
    const row: Row = {
      ...result,
      ratio: ceilingResult ? result.requestsPerSec / ceilingResult.requestsPerSec : undefined,
    };
    if (target) [row.target, row.met] = target(row);
    rows.push(row);
    console.log(`  ${row.name}: ${row.requestsPerSec.toFixed(0)} req/s, p99 ${row.p99Ms.toFixed(1)} ms`);
    return row;
  };
  const siteTarget = (r: Row): [string, boolean] => [
    "≥ 0.8× nginx, p99 < 25 ms",
    (r.ratio ?? 0) >= 0.8 && r.p99Ms < 25 && r.errors === 0,
  ];

  console.log(`Measuring: ${SECONDS} s per scenario, ${CONNECTIONS} connections (signed in: ${SIGNED_IN_CONNECTIONS})`);
  // Each scenario next to its ceiling, the ceiling first.
  for (const [label, requests] of ONLY_SIGNED_IN
    ? []
    : ([
        ["kept-alive", siteKept],
        ["new connection per page load", siteNew],
      ] as const)) {
    const top = add(await bench(`nginx static: institute sites, ${label}`, ceiling.port, requests));
    add(await bench(`(a) institute sites via the deploy's nginx, ${label}`, deploy.port, requests), top, siteTarget);
    add(await bench(`(b) institute sites straight to the app, ${label}`, app.port, requests), top);
  }
  if (!ONLY_SIGNED_IN) {
    const platformTop = add(await bench("nginx static: landing and /pricing", ceiling.port, platform));
    add(await bench("(c) landing and /pricing via the deploy's nginx", deploy.port, platform), platformTop, (r) => [
      "≥ 0.5× nginx",
      (r.ratio ?? 0) >= 0.5 && r.errors === 0,
    ]);
    add(await bench("(c) landing and /pricing straight to the app", app.port, platform), platformTop);
  }
  const signedInTarget = (r: Row): [string, boolean] => [
    "≥ 300 req/s, p99 < 150 ms",
    r.requestsPerSec >= 300 && r.p99Ms < 150 && r.errors === 0 && r.non2xx === 0,
  ];
  const signedInTop = add(
    await bench("nginx static: the two signed-in pages", ceiling.port, signedIn, SECONDS, SIGNED_IN_CONNECTIONS),
  );
  add(
    await bench(
      "(d) dashboard and contents, signed in, via the deploy's nginx",
      deploy.port,
      signedIn,
      SECONDS,
      SIGNED_IN_CONNECTIONS,
    ),
    signedInTop,
    signedInTarget,
  );
  add(
    await bench(
      "(d) dashboard and contents, signed in, straight to the app",
      app.port,
      signedIn,
      SECONDS,
      SIGNED_IN_CONNECTIONS,
    ),
    signedInTop,
  );

  // (e) Every journey at once through the deploy's nginx, with (a) and (d) measured before and after.
  const soakAt: { site: LoadResult; signedIn: LoadResult; rss: number }[] = [];
  const probe = async () => ({
    site: await bench("(e) institute sites, kept-alive", deploy.port, siteKept),
    signedIn: await bench("(e) signed-in pages", deploy.port, signedIn, SECONDS, SIGNED_IN_CONNECTIONS),
    rss: rssTreeMiB(app.child.pid!),
  });
  if (SOAK_MINUTES > 0 && !ONLY_SIGNED_IN) {
    soakAt.push(await probe());
    console.log(`Soak: every journey at once for ${SOAK_MINUTES} min…`);
    const soakSeconds = Math.round(SOAK_MINUTES * 60);
    const enquiries: Request[] = hosts.slice(0, 200).map((host, i) => ({
      host,
      path: "/enquiry",
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Forwarded-For": `10.${i % 250}.${(i * 7) % 250}.${(i * 13) % 250}`,
      },
      body: `name=Bench+Visitor+${i}&phone=98${String(10_000_000 + i).slice(-8)}&email=visitor${i}%40example.com&message=Batch+timings%3F`,
    }));
    const journeys: [string, Request[], number][] = [
      ["institute sites", siteKept, 16],
      ["platform pages", [...platform, { host: "localhost", path: "/about" }], 8],
      [
        "students",
        studentCookies.flatMap((cookie) =>
          ["/student", "/student/courses", "/api/student/my-courses"].map((path) => ({
            host: "localhost",
            path,
            headers: { Cookie: cookie },
          })),
        ),
        8,
      ],
      [
        "creators",
        creatorCookies.flatMap((cookie) =>
          ["/creator/contents", "/api/content/my"].map((path) => ({
            host: "localhost",
            path,
            headers: { Cookie: cookie },
          })),
        ),
        4,
      ],
      ["enquiries", enquiries, 1],
    ];
    const soaked = await Promise.all(
      journeys.map(([name, requests, connections]) =>
        runWrk({
          name: `(e) soak: ${name}`,
          url: `http://127.0.0.1:${deploy.port}`,
          seconds: soakSeconds,
          connections,
          request: requestLua(requests),
          holdMs: 3000,
        }),
      ),
    );
    for (const result of soaked)
      console.log(
        `  ${result.name}: ${result.requestsPerSec.toFixed(0)} req/s, p99 ${result.p99Ms.toFixed(1)} ms, ${result.errors} errors`,
      );
    soakAt.push(await probe());
    const [start, end] = soakAt;
    for (const key of ["site", "signedIn"] as const) {
      add({ ...start[key], name: `${start[key].name}, before the soak` });
      const row = { ...end[key], name: `${end[key].name}, after the soak` };
      add(row, start[key], (r) => ["end ≥ 0.9× start", (r.ratio ?? 0) >= 0.9]);
    }
    console.log(`  app memory: ${start.rss.toFixed(0)} MiB before the soak, ${end.rss.toFixed(0)} MiB after`);
  }

  // The table: the ratio is to nginx serving the same files, or (e) to the same probe before the soak.
  const header = ["scenario", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "ratio", "target", "met"];
  const lines = rows.map((r) => [
    r.name,
    r.requestsPerSec.toFixed(0),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    String(r.errors),
    String(r.non2xx),
    r.ratio === undefined ? "" : `${r.ratio.toFixed(2)}×`,
    r.target ?? "",
    r.met === undefined ? "" : r.met ? "met" : "MISSED",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i >= 7 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(
    `\n${SECONDS} s per scenario, ${CONNECTIONS} connections (signed in ${SIGNED_IN_CONNECTIONS}), ${CENTERS.toLocaleString()} institutes, soak ${SOAK_MINUTES} min; ratio: to nginx serving the same files, (e) to before the soak\n`,
  );
  console.log(format(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const line of lines) console.log(format(line));
  console.log(
    `  app memory: ${rssTreeMiB(app.child.pid!).toFixed(0)} MiB at the end (${WEB_CONCURRENCY ?? 1} process${WEB_CONCURRENCY && WEB_CONCURRENCY !== "1" ? "es" : ""})`,
  );
  const missed = rows.filter((r) => r.met === false);
  if (missed.length > 0) console.log(`\n${missed.length} target(s) missed; docs/performance.md says why.`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  rmSync(work, { recursive: true, force: true });
  rmSync(memory, { recursive: true, force: true });
}
