/**
 * `npm start`: builds the app when the build is missing or older than the sources, then runs the
 * production server as the demo (the sandboxes switched on: scripts/lib/demo-sandboxes.ts). A
 * fresh clone therefore needs only `npm install && npm start`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { switchOnDemoSandboxes } from "./lib/demo-sandboxes.ts";

const ENTRY = "build/server/index.js";
/** The parsing threads' module (server/services/parsing/bounded-worker.ts), built beside the server. */
const WORKERS = "build/workers/parsing.js";
const SOURCES = [
  "app",
  "common",
  "server",
  "tenants",
  "public",
  "scripts/build",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const builtAt = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : 0);
const built = Math.min(builtAt(ENTRY), builtAt(WORKERS));
if (built < Math.max(...SOURCES.map(newestMtime))) {
  console.log(built ? "Sources changed since the last build; rebuilding…" : "Building Pathshala (first start)…");
  for (const command of [
    ["react-router", "build"],
    ["vite", "build", "--config", "scripts/build/workers.config.ts", "--logLevel", "warn"],
  ]) {
    const result = spawnSync("npx", command, { stdio: ["ignore", "ignore", "inherit"] });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

const switched = switchOnDemoSandboxes();
if (switched.length) console.log(`The demo: ${switched.join(" ")} (set them to 0 to switch them off)`);
await import(join(process.cwd(), ENTRY));
