import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { call, runningServer } from "./server.ts";

/** Only where the test may stop and start the machine's own PostgreSQL (CI and this kind of machine). */
const canRestart =
  Boolean(process.env.TEST_DATABASE_URL) &&
  spawnSync("which", ["pg_ctlcluster"]).status === 0 &&
  process.getuid?.() === 0;
const version = canRestart ? readdirSync("/etc/postgresql")[0] : "";
const pgctl = (action: "stop" | "start") =>
  execFileSync(
    "pg_ctlcluster",
    ["--skip-systemctl-redirect", version, "main", action, ...(action === "stop" ? ["-m", "fast"] : [])],
    { stdio: "ignore" },
  );

const f = runningServer({ enabled: canRestart });
afterAll(() => {
  if (!canRestart) return;
  // Whatever happened, leave PostgreSQL running for everything else.
  try {
    pgctl("start");
  } catch {
    // already running
  }
});

describe.skipIf(!canRestart)("PostgreSQL restarted under load", () => {
  it("answers 503 fast while it is down, /readyz says so, and recovers by itself", async () => {
    let stop = false;
    const statuses: number[] = [];
    const load = (async () => {
      while (!stop) {
        const res = await call(f.server.base, "/api/pricing").catch(() => ({ status: 0 }));
        statuses.push(res.status);
      }
    })();
    await new Promise((r) => setTimeout(r, 500));
    expect((await call(f.server.base, "/api/pricing")).status).toBe(200);

    pgctl("stop");
    try {
      const started = Date.now();
      const down = await call(f.server.base, "/api/pricing");
      expect(down.status).toBe(503);
      expect(down.json.error).toBe("Service temporarily unavailable. Please try again shortly.");
      expect(Date.now() - started).toBeLessThan(3500);
      const ready = await call(f.server.base, "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.json).toEqual({ status: "unavailable", database: "unreachable" });
      expect((await call(f.server.base, "/healthz")).status).toBe(200);
    } finally {
      pgctl("start");
    }

    const until = Date.now() + 20_000;
    let recovered = false;
    while (Date.now() < until) {
      const [pricing, ready] = await Promise.all([call(f.server.base, "/api/pricing"), call(f.server.base, "/readyz")]);
      if (pricing.status === 200 && ready.status === 200) {
        recovered = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    stop = true;
    await load;
    expect(recovered).toBe(true);
    // Nothing but 200s and 503s: no 500 while the database was away.
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(f.server.child.exitCode).toBeNull();
  }, 90_000);
});
