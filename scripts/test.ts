/**
 * `npm test`: every suite, each as a stage with its own log, run side by side where they share
 * nothing, then a table of every stage with its seconds and test counts (docs/testing.md).
 *
 * With TEST_DATABASE_URL set (CI sets it), the integration and fault suites also run on that
 * PostgreSQL server. The fault test that restarts that server runs last, once nothing else uses
 * it; on PGlite the fault suite runs the files where the embedded engine behaves differently
 * (vitest.config.ts).
 *
 *   node scripts/test.ts [--quick]     --quick: unit + integration on PGlite, no build, no browser
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { stageTable, type StageResult } from "./lib/stage-table.ts";

interface Stage {
  /** Names its log and report files. */
  id: string;
  name: string;
  command: string;
  env?: Record<string, string>;
  after?: string[];
  /** Which runner's JSON report gives the stage's test counts. */
  report?: "vitest" | "playwright";
  /**
   * Throughput work with no clock in it (integration, unit, lint, typecheck): run at a lower CPU
   * priority, so that the stages that wait on time (a browser's, a sitting's deadline) get the
   * cores when they need them and these take what is left.
   */
  background?: boolean;
}

const quick = process.argv.includes("--quick");
const postgres = process.env.TEST_DATABASE_URL;
const lanes = Number(process.env.TEST_LANES ?? 3);
const logs = resolve("test-logs");
rmSync(logs, { recursive: true, force: true });
mkdirSync(logs, { recursive: true });

const vitest = (project: string, id: string) =>
  `npx vitest run --project ${project} --reporter=default --reporter=json --outputFile.json=${join(logs, `${id}.json`)}`;
const onPglite = { TEST_DATABASE_URL: "" };
/** Restarts the machine's PostgreSQL: nothing else may use that server meanwhile. */
const RESTART_TEST = "tests/faults/postgres-restart.test.ts";
const onPostgres = { TEST_DATABASE_URL: postgres ?? "" };

const stages: Stage[] = quick
  ? [
      { id: "unit", name: "unit", command: vitest("unit", "unit"), report: "vitest" },
      {
        id: "integration-pglite",
        name: "integration (PGlite)",
        // Alone on the machine, its files spend half their time waiting (a job's retry, a poll):
        // four workers on two cores took 135 s where two took 231 s.
        command: `${vitest("integration", "integration-pglite")} --maxWorkers=4`,
        env: onPglite,
        report: "vitest",
      },
    ]
  : // In the order they are started in, when a lane is free and what each needs has passed: the
    // longest first, and the fault suite on PostgreSQL's server restart last, alone with nothing
    // else on that server.
    [
      { id: "build", name: "build", command: "npm run build --silent" },
      {
        id: "e2e",
        name: "e2e",
        command: "npx playwright test --reporter=list,json",
        env: { ...onPglite, PLAYWRIGHT_JSON_OUTPUT_FILE: join(logs, "e2e.json") },
        after: ["build"],
        report: "playwright",
      },
      ...(postgres
        ? [
            {
              id: "integration-postgres",
              name: "integration (PostgreSQL)",
              command: vitest("integration", "integration-postgres"),
              env: onPostgres,
              report: "vitest" as const,
              background: true,
            },
            {
              id: "faults-postgres",
              name: "faults (PostgreSQL)",
              command: vitest("faults", "faults-postgres"),
              env: { ...onPostgres, FAULTS_WITHOUT_RESTART: "1" },
              after: ["build"],
              report: "vitest" as const,
            },
          ]
        : []),
      {
        id: "faults-pglite",
        name: "faults (PGlite)",
        command: vitest("faults", "faults-pglite"),
        // Files that do not depend on the database run once, on PostgreSQL, when it runs.
        env: { ...onPglite, ...(postgres ? { FAULTS_EMBEDDED_ONLY: "1" } : {}) },
        after: ["build"],
        report: "vitest",
      },
      {
        id: "integration-pglite",
        name: "integration (PGlite)",
        command: vitest("integration", "integration-pglite"),
        env: onPglite,
        report: "vitest",
        background: true,
      },
      { id: "unit", name: "unit", command: vitest("unit", "unit"), report: "vitest", background: true },
      { id: "lint", name: "lint", command: "npm run lint --silent", background: true },
      { id: "typecheck", name: "typecheck", command: "npm run typecheck --silent", background: true },
      ...(postgres
        ? [
            {
              id: "faults-postgres-restart",
              name: "faults (PostgreSQL restart)",
              command: `${vitest("faults", "faults-postgres-restart")} ${RESTART_TEST}`,
              env: onPostgres,
              after: ["build", "integration (PostgreSQL)", "faults (PostgreSQL)"],
              report: "vitest" as const,
            },
          ]
        : []),
    ];

function counts(stage: Stage): StageResult["tests"] {
  const file = join(logs, `${stage.id}.json`);
  if (!stage.report || !existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, "utf8"));
  if (stage.report === "vitest") {
    return {
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests + report.numTodoTests,
      files: report.testResults.length,
    };
  }
  const stats = report.stats;
  return { passed: stats.expected, failed: stats.unexpected + stats.flaky, skipped: stats.skipped };
}

function run(stage: Stage): Promise<StageResult> {
  const started = Date.now();
  const log = join(logs, `${stage.id}.log`);
  const out = createWriteStream(log);
  console.log(`== ${stage.name}: started`);
  return new Promise((done) => {
    const child = spawn(stage.background ? `nice -n 5 ${stage.command}` : stage.command, {
      shell: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...stage.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on("close", (code) => {
      out.end(() => {
        const result: StageResult = {
          name: stage.name,
          seconds: Math.round((Date.now() - started) / 1000),
          ok: code === 0,
          tests: counts(stage),
        };
        console.log(`== ${stage.name}: ${result.ok ? "passed" : "FAILED"} in ${result.seconds}s (log: ${log})`);
        // The end of a failed stage's output (where the runners summarise failures), so that CI
        // shows what failed without the log folder.
        if (!result.ok) console.log(readFileSync(log, "utf8").split("\n").slice(-250).join("\n"));
        done(result);
      });
    });
  });
}

const started = Date.now();
const results = new Map<string, StageResult>();
const running = new Map<string, Promise<void>>();
const waiting = [...stages];
// Every stage whose needs passed runs, whatever else failed: one run shows every failure.
while (waiting.length > 0 || running.size > 0) {
  for (const stage of [...waiting]) {
    if (running.size >= lanes) break;
    const blockedBy = (stage.after ?? []).filter((name) => !results.get(name)?.ok);
    if (blockedBy.some((name) => results.has(name))) {
      // What it needs failed: the stage cannot run.
      waiting.splice(waiting.indexOf(stage), 1);
      results.set(stage.name, { name: stage.name, seconds: 0, ok: false, skipped: `${blockedBy.join(", ")} failed` });
      continue;
    }
    if (blockedBy.length > 0) continue;
    waiting.splice(waiting.indexOf(stage), 1);
    running.set(
      stage.name,
      run(stage).then((result) => {
        results.set(stage.name, result);
        running.delete(stage.name);
      }),
    );
  }
  if (running.size > 0) await Promise.race(running.values());
}

const earlier: StageResult[] = JSON.parse(process.env.TEST_EARLIER_STAGES ?? "[]");
const ordered = [...earlier, ...stages.map((s) => results.get(s.name)!)];
console.log(
  stageTable(ordered, Math.round((Date.now() - started) / 1000) + earlier.reduce((t, s) => t + s.seconds, 0)),
);
if (!postgres && !quick) console.log("(TEST_DATABASE_URL not set: the suites on PostgreSQL did not run)");
process.exit(ordered.every((r) => r.ok) ? 0 : 1);
