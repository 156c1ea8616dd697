/**
 * `npm run dev`: the development server (React Router's, with Vite), run as the demo with the
 * sandboxes switched on (scripts/lib/demo-sandboxes.ts).
 */
import { spawn } from "node:child_process";
import { switchOnDemoSandboxes } from "./lib/demo-sandboxes.ts";

const switched = switchOnDemoSandboxes();
if (switched.length) console.log(`The demo: ${switched.join(" ")} (set them to 0 to switch them off)`);
const child = spawn("npx", ["react-router", "dev", ...process.argv.slice(2)], { stdio: "inherit" });
child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
