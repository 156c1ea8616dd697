/** Shared pieces of the benchmark: wrk, a server launcher, HTTP with a Host header, memory readings. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase } from "../../server/db/scratch.ts";
import { freePort } from "../lib/free-port.ts";

export interface LoadResult {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
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

/** A fresh database on the PostgreSQL server `serverUrl` points at: its URL, and how to drop it. */
export function createDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  return createScratchDatabase(serverUrl, `${prefix}_${Date.now()}`);
}

export interface StartedServer {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the production build with the given environment (on `port`, else a free one) and waits for /readyz. */
export async function startServer(env: Record<string, string>, port?: number): Promise<StartedServer> {
  if (!existsSync("build/server/index.js")) {
    const built = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
    if (built.status !== 0) throw new Error("build failed");
  }
  port ??= await freePort();
  // BENCH_NODE_FLAGS: flags for the server's node only (V8 ones are refused in NODE_OPTIONS), for experiments.
  const flags = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...flags, "build/server/index.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      PORT: String(port),
      // The journeys pay in the sandbox and read the outbox, switched on explicitly.
      MESSAGES_SANDBOX: "1",
      RAZORPAY_SANDBOX: "1",
      ...env,
    },
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

/**
 * GET with a Host header, with the body. Retried once when the server closed an idle keep-alive
 * connection just as this request went out on it (a race every keep-alive client has).
 */
export async function fetchWithHost(
  port: number,
  host: string,
  path = "/",
  headers: Record<string, string> = {},
): Promise<FetchedAnswer> {
  try {
    return await getOnce(port, host, path, headers);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") throw error;
    return getOnce(port, host, path, headers);
  }
}

export interface FetchedAnswer {
  status: number;
  /** As received, in order: [name, value] pairs. */
  headers: [string, string][];
  body: Buffer;
}

function getOnce(port: number, host: string, path: string, headers: Record<string, string>): Promise<FetchedAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpGet({ host: "127.0.0.1", port, path, headers: { ...headers, host }, agent: keepAlive }, (res) => {
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
