import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_ADMIN } from "./tests/e2e/admin-account.ts";

/**
 * The e2e suite drives the production build on a free port with a fresh embedded database.
 * The port and data folder are chosen once in the runner and inherited by its workers.
 */
function freePort(): string {
  const probe =
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" }).trim();
}

process.env.E2E_PORT ??= freePort();
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "pathshala-e2e-"));

const port = Number(process.env.E2E_PORT);
export const baseURL = `http://localhost:${port}`;

const chromium = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

export default defineConfig({
  testDir: "tests/e2e",
  globalTeardown: "./tests/e2e/teardown.ts",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    trace: "retain-on-failure",
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
  webServer: {
    // Admins exist only through create-admin, so the suite makes its own before the server starts.
    command: `node build/cli/create-admin.js --email ${E2E_ADMIN.email} --password ${E2E_ADMIN.password} --name "${E2E_ADMIN.name}" && node build/server/index.js`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: process.env.E2E_DATA_DIR,
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
  },
});
