import { spawn, type ChildProcess } from "node:child_process";
import { request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { openDatabase } from "../../server/db/open.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { adminQuery, withDatabase } from "../../server/db/scratch.ts";
import { freePort } from "../../scripts/lib/free-port.ts";

/**
 * The production build in its own process, so tests can SIGKILL and SIGTERM it for real.
 * PostgreSQL (a fresh database) when TEST_DATABASE_URL is set, else an embedded one.
 */
export interface Store {
  env: Record<string, string>;
  dataDir: string;
  databaseUrl?: string;
  drop(): Promise<void>;
}

export async function prepareStore(): Promise<Store> {
  const dataDir = mkdtempSync(join(tmpdir(), "pathshala-fault-"));
  const server = process.env.TEST_DATABASE_URL;
  let databaseUrl: string | undefined;
  let name: string | undefined;
  if (server) {
    name = `pathshala_fault_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(server, `create database ${name}`);
    databaseUrl = withDatabase(server, name);
  }
  const database = await openDatabase({ databaseUrl, dataDir });
  await runMigrations(database);
  await seedDemo(database.db);
  await database.close();
  return {
    dataDir,
    databaseUrl,
    env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), SEED_DEMO: "0" },
    async drop() {
      if (server && name) await adminQuery(server, `drop database if exists ${name} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Running {
  port: number;
  base: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

export async function launch(store: Store, env: Record<string, string> = {}, port?: number): Promise<Running> {
  const p = port ?? (await freePort());
  let output = "";
  const child = spawn(process.execPath, ["build/server/index.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      PORT: String(p),
      MESSAGES_SANDBOX: "1",
      RAZORPAY_SANDBOX: "1",
      ...store.env,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const base = `http://127.0.0.1:${p}`;
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // starting
    }
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    if (Date.now() > until) throw new Error(`server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  return { port: p, base, child, exited, output: () => output };
}

/** A request to a running server (node:http, so the Host header can name an institute). */
export function call(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
) {
  const url = new URL(path, base);
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  const body =
    init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body);
  if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  return new Promise<{
    status: number;
    json: any;
    text: string;
    headers: Record<string, string | string[] | undefined>;
  }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: init.method ?? (body === undefined ? "GET" : "POST"),
        headers,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, json: parseJson(text), text, headers: res.headers });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * A test file's server: a prepared store and the server started on it before the tests, killed
 * and dropped after. `fixture.server` may be replaced (a test that restarts it). `env` adds to
 * the store's environment, for this start and any restart.
 */
export function runningServer(options: { enabled?: boolean; env?: () => Record<string, string> } = {}) {
  const fixture = {} as { store: Store; server: Running };
  beforeAll(async () => {
    if (options.enabled === false) return;
    fixture.store = await prepareStore();
    // Read when the server starts, so that an earlier beforeAll (a local S3 server) can provide it.
    Object.assign(fixture.store.env, options.env?.());
    fixture.server = await launch(fixture.store);
  }, 90_000);
  afterAll(async () => {
    fixture.server?.child.kill("SIGKILL");
    await fixture.store?.drop();
  });
  return fixture;
}
