/** Shared pieces of the benchmark scripts: a load generator, a server launcher, a table printer. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { Agent, get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase } from "../../server/db/scratch.ts";

export interface LoadResult {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Waits until the server on `port` answers 200 for `path` with this Host header (fetch cannot set one). */
export async function waitFor(
  port: number,
  options: { host?: string; path?: string; timeoutMs?: number } = {},
): Promise<void> {
  const { host = "localhost", path = "/", timeoutMs = 60_000 } = options;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetchWithHost(port, host, path).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > until)
      throw new Error(`127.0.0.1:${port}${path} did not answer 200 for ${host} (last: ${status || "no answer"})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const hasWrk = () => spawnSync("wrk", ["--version"]).status !== null && spawnSync("which", ["wrk"]).status === 0;

/**
 * Runs `seconds` of load at `connections` against `url`. Requests name the hosts of `hosts` in a
 * random order (so a tenant benchmark touches many institutes). Uses wrk when installed, else autocannon.
 */
export async function load(
  name: string,
  url: string,
  options: { seconds: number; connections: number; hosts?: string[] },
): Promise<LoadResult> {
  const { seconds, connections, hosts } = options;
  // The server closes the helpers' idle keep-alive connections (5 s) while the load runs; a
  // request on one of them afterwards would fail.
  keepAlive.destroy();
  if (hasWrk()) {
    // wrk takes about as much CPU per request as the server on these two cores, so its own work
    // must not grow with the number of hosts. Drawing each request's host at random from 100,000
    // cost it 2.5–3 µs more per request than from 1,000, with the server's work unchanged
    // (docs/performance.md). So it makes each host's request once, in a shuffled order, and sends
    // them in that order, over and over: it reads its memory in order, and the server still sees
    // the hosts in a random order.
    const list = shuffled(hosts ?? [])
      .map((h) => JSON.stringify(h))
      .join(",");
    const request = `local hosts = {${list}}
local requests = {}
-- After wrk.init, which gives wrk.format() the URL's Host header.
init = function()
  for i, host in ipairs(hosts) do requests[i] = wrk.format("GET", nil, { Host = host }) end
  if #requests == 0 then requests[1] = wrk.format("GET", nil) end
end
local at = 0
request = function()
  at = at % #requests + 1
  return requests[at]
end`;
    return runWrk({ name, url, seconds, connections, request });
  }
  const { default: autocannon } = await import("autocannon");
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: hosts
      ? [
          {
            setupRequest: (req) => ({
              ...req,
              headers: { ...req.headers, host: hosts[Math.floor(Math.random() * hosts.length)] },
            }),
          },
        ]
      : undefined,
  });
  return {
    name,
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** A copy of `items` in a random order (Fisher–Yates). */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/**
 * How long each connection's first request waits. wrk opens all its connections at once, and
 * under load the server accepts one new connection per turn of its event loop (libuv's choice,
 * which favours requests already in): connections opened into a busy server would wait seconds
 * before their first request is even read. A proxy in front keeps its connections open; so does
 * the bench: the first requests wait until every connection is open, and only what follows is
 * measured (wrk times a request from when it is written).
 */
export const FIRST_REQUEST_HOLD_MS = 1000;

/**
 * One wrk process (one thread) running the Lua `request` function given, for `seconds` after the
 * connections are open; requests/s, p50 and p99 over that time.
 */
export function runWrk(options: {
  name: string;
  url: string;
  seconds: number;
  connections: number;
  request: string;
  holdMs?: number;
  script?: string;
}): Promise<LoadResult> {
  const { name, url, seconds, connections, request, holdMs = FIRST_REQUEST_HOLD_MS } = options;
  const scratch = options.script ? undefined : mkdtempSync(join(tmpdir(), "pathshala-wrk-"));
  const script = options.script ?? join(scratch!, "load.lua");
  writeFileSync(
    script,
    `${request}
local held = 0
delay = function()
  if held < ${connections} then
    held = held + 1
    return ${holdMs}
  end
  return 0
end
done = function(summary, latency, requests)
  io.write(string.format("P50 %f\\nP99 %f\\nRPS %f\\nERR %d\\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.requests / ((summary.duration - ${holdMs * 1000}) / 1e6), summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(
      "wrk",
      ["-t1", `-c${connections}`, `-d${seconds + Math.ceil(holdMs / 1000)}s`, "--timeout", "10s", "-s", script, url],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", () => {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      const read = (key: string) => Number(new RegExp(`^${key} ([\\d.]+)$`, "m").exec(out)?.[1] ?? NaN);
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
      resolve({
        name,
        requestsPerSec: read("RPS"),
        p50Ms: read("P50"),
        p99Ms: read("P99"),
        errors: read("ERR"),
        non2xx,
      });
    });
  });
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A fresh database on the PostgreSQL server `serverUrl` points at: its URL, and how to drop it. */
export function createDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  return createScratchDatabase(serverUrl, `${prefix}_${Date.now()}`);
}

export interface StartedServer {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the production build with the given environment and waits for /readyz. */
export async function startServer(env: Record<string, string>): Promise<StartedServer> {
  if (!existsSync("build/server/index.js")) {
    const built = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
    if (built.status !== 0) throw new Error("build failed");
  }
  const port = await freePort();
  // BENCH_NODE_FLAGS: flags for the server's node only (V8 ones are refused in NODE_OPTIONS), for experiments.
  const flags = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...flags, "build/server/index.js"], {
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  // Never leave a server behind, whatever ends the benchmark.
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
  await waitFor(port, { path: "/readyz" });
  return {
    port,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export function rssMiB(pid: number): number {
  return procKiB(`/proc/${pid}/status`, "VmRSS") / 1024;
}

/** A "<field>: <n> kB" line of a /proc file; 0 where there is none. */
function procKiB(file: string, field: string): number {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(readFileSync(file, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Resident memory of a process and its children (the workers of a clustered server). */
export function rssTreeMiB(pid: number): number {
  const children = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
    .stdout.split("\n")
    .filter(Boolean)
    .map(Number);
  return rssMiB(pid) + children.reduce((sum, child) => sum + rssMiB(child), 0);
}

export function printTable(rows: (LoadResult & { ratio?: string })[]) {
  const header = ["scenario", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "vs nginx"];
  const lines = rows.map((r) => [
    r.name,
    r.requestsPerSec.toFixed(0),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    String(r.errors),
    String(r.non2xx),
    r.ratio ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(fmt(l));
}

/**
 * GET with a Host header, with the body. Retried once when the server closed an idle keep-alive
 * connection just as this request went out on it (a race every keep-alive client has).
 */
export async function fetchWithHost(port: number, host: string, path = "/"): Promise<FetchedAnswer> {
  try {
    return await getOnce(port, host, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") throw error;
    return getOnce(port, host, path);
  }
}

export interface FetchedAnswer {
  status: number;
  /** As received, in order: [name, value] pairs. */
  headers: [string, string][];
  body: Buffer;
}

function getOnce(port: number, host: string, path: string): Promise<FetchedAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpGet({ host: "127.0.0.1", port, path, headers: { host }, agent: keepAlive }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    req.on("error", reject);
  });
}
const keepAlive = new Agent({ keepAlive: true, maxSockets: 64 });
