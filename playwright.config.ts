import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_ADMIN } from "./tests/e2e/admin-account.ts";

/**
 * The e2e suite drives the production build with a fresh embedded database. Each worker has a
 * server and data folder of its own, so tests in two workers never see each other's data: the
 * runner chooses the ports and folders once; a worker (TEST_PARALLEL_INDEX) takes its own.
 */
function freePort(): string {
  const probe =
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" }).trim();
}

const workers = Number(process.env.E2E_WORKERS ?? 2);
process.env.E2E_PORTS ??= Array.from({ length: workers }, freePort).join(",");
process.env.E2E_DATA_DIRS ??= Array.from({ length: workers }, () => mkdtempSync(join(tmpdir(), "pathshala-e2e-"))).join(
  ",",
);
const ports = process.env.E2E_PORTS.split(",");
const dataDirs = process.env.E2E_DATA_DIRS.split(",");
const worker = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
process.env.E2E_PORT = ports[worker];
process.env.E2E_DATA_DIR = dataDirs[worker];

export const baseURL = `http://localhost:${process.env.E2E_PORT}`;

const chromium = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

export default defineConfig({
  testDir: "tests/e2e",
  globalTeardown: "./tests/e2e/teardown.ts",
  fullyParallel: false,
  workers,
  // A test that fails once is a defect to fix at its cause, not to run again.
  retries: 0,
  reporter: [["list"]],
  // Hang-catchers, not speed checks: the longest journeys took 72 s on a loaded CI run on a slow day.
  timeout: 180_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    // DOM snapshots, not a screencast: the screencast cost a quarter of the browsers' CPU on two cores.
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: chromium,
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            // Institute domains used by the tests all lead to this machine.
            "--host-resolver-rules=MAP *.test 127.0.0.1, MAP *.localhost 127.0.0.1",
          ],
        },
      },
    },
  ],
  webServer: ports.map((port, i) => ({
    // Admins exist only through create-admin, so the suite makes its own before the server starts.
    command: `node build/cli/create-admin.js --email ${E2E_ADMIN.email} --password ${E2E_ADMIN.password} --name "${E2E_ADMIN.name}" && node build/server/index.js`,
    url: `http://localhost:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: port,
      HOST: "127.0.0.1",
      DATA_DIR: dataDirs[i],
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PLATFORM_HOSTS: "localhost,127.0.0.1",
      PLATFORM_DOMAIN: "localhost",
      // As behind the deploy's proxy: each test's browser names its own address (tests/e2e/fixtures.ts).
      TRUST_PROXY: "1",
      // The demo's sandboxes, switched on explicitly (a server never runs one unasked).
      MESSAGES_SANDBOX: "1",
      RAZORPAY_SANDBOX: "1",
    },
  })),
});
