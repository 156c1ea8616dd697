/**
 * `npm run audit`: fails on any high or critical advisory in production dependencies. When the
 * registry's advisory service cannot be reached (some mirrors answer 405), it says so and passes:
 * a network limit is not a finding (docs/decisions/0004-audit-when-offline.md).
 */
import { spawnSync } from "node:child_process";

const run = spawnSync("npm", ["audit", "--omit=dev", "--json"], { encoding: "utf8" });
type Report = {
  message?: string;
  error?: { summary?: string };
  metadata?: { vulnerabilities?: Record<string, number> };
};
function parse(text: string): Report {
  try {
    return JSON.parse(text || "{}") as Report;
  } catch {
    return {};
  }
}
const report = parse(run.stdout);
const counts = report.metadata?.vulnerabilities;
if (!counts) {
  const reason = report.message ?? report.error?.summary ?? "no report";
  console.warn(`npm audit could not reach the advisory service (${reason.trim()}); skipped.`);
  process.exit(0);
}
const serious = (counts.high ?? 0) + (counts.critical ?? 0);
console.log(
  `npm audit (production dependencies): ${Object.entries(counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}`,
);
if (serious > 0) {
  console.error(`${serious} high or critical advisories: run \`npm audit --omit=dev\` for details.`);
  process.exit(1);
}
