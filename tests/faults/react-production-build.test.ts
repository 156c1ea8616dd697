import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { prepareStore, type Store } from "./server.ts";
import { waitFor } from "../helpers/wait.ts";

/**
 * The built server runs React's production build however it is started: here as
 * `node build/server/index.js` with no NODE_ENV at all, the way a host or a script might start
 * it. A preloaded module reports which React build the process runs.
 */
let store: Store;
beforeAll(async () => {
  store = await prepareStore();
}, 90_000);
afterAll(() => store?.drop());

describe("the production server", () => {
  it("loads React's production build when NODE_ENV is not set", async () => {
    const record = join(store.dataDir, "react-builds.txt");
    const port = await freePort();
    const { NODE_ENV: _unset, ...env } = process.env;
    const child = spawn(
      process.execPath,
      ["--import", "./tests/faults/record-react-builds.mjs", "build/server/index.js"],
      {
        env: {
          ...env,
          ...store.env,
          RECORD_REACT_BUILDS: record,
          LOG_LEVEL: "warn",
          HOST: "127.0.0.1",
          PORT: String(port),
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    try {
      const base = `http://127.0.0.1:${port}`;
      const until = Date.now() + 60_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
        if (
          await fetch(`${base}/healthz`).then(
            (r) => r.ok,
            () => false,
          )
        )
          break;
        if (Date.now() > until) throw new Error(`server did not start: ${output}`);
        await new Promise((r) => setTimeout(r, 150));
      }
      // A page React renders on the server: react, react-dom/server and the JSX runtime load now at the latest.
      const page = await fetch(`${base}/pricing`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<!DOCTYPE html>");
      await waitFor(() => existsSync(record));
      expect(readFileSync(record, "utf8")).toBe("production");
    } finally {
      child.kill("SIGKILL");
    }
  });
});
