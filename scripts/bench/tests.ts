/**
 * `npm run bench:tests`: a live mock test under its candidates (issue 29). On a fresh database of
 * the PostgreSQL server at BENCH_DATABASE_URL (else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres), dropped at the end, it starts the production
 * build (`npm run build` first; BENCH_NO_BUILD=1 skips it) and
 *
 *   - a creator (registered through the API) writes 75 questions and builds one test of the JEE
 *     Main 2025 pattern (3 subjects × 20 single-correct + 5 numerical), published with a window
 *     that closes when the last candidate's time is up;
 *   - BENCH_CANDIDATES (5,000) students, made in the database (see `makeCandidates`), all start
 *     within BENCH_START_SECONDS (10) and save one answer every BENCH_SAVE_SECONDS ("20-40") until
 *     their deadline, BENCH_TEST_MINUTES (3) after they started;
 *   - the server's own clock submits every attempt at its deadline and ranks the test once the
 *     window has closed.
 *
 * The save interval is the real one, so the server sees the rate a real test brings
 * (candidates ÷ 30 s saves per second); a shorter test only means fewer saves per candidate.
 * Printed: start and save latency (p50, p99, max), errors, answers lost (each answer the server
 * acknowledged compared with what the database holds at the end: must be 0) and the time from
 * the window's close to ranks and percentiles ready (mock_tests.ranked_at set).
 * Targets: 0 lost, save p99 < 300 ms, start p99 < 1 s, ranks ready < 60 s.
 *
 * Scale-out (issue 43 §3): BENCH_INSTANCES (1) servers on their own ports, the candidates' requests
 * sent to each in turn (round robin, as a load balancer would); BENCH_POOLER=pgbouncer puts Debian's
 * PgBouncer in transaction mode (BENCH_PGBOUNCER_POOL, 10 server connections) between them and
 * PostgreSQL as DATABASE_URL, with DATABASE_DIRECT_URL straight to PostgreSQL (the listener, the job
 * queue, migrations); BENCH_POOL_MAX sets each instance's DATABASE_POOL_MAX. The last line printed is the figures as one JSON object, for tools:
 * {"candidates","instances","lost","saveP99Ms","startP99Ms","ranksReadyS"}.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { openDatabase } from "../../server/db/open.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import { attemptResponses, attempts, mockTests } from "../../server/db/schema/index.ts";
import { makeCandidates } from "./exam-candidates.ts";
import { LATE_ANSWER_DEFAULTS } from "../../common/mock-tests/late-answers.ts";
import { percentile, runCandidate, send, type CandidateLog } from "./exam-client.ts";
import { createDatabase, rssMiB, startServer, type StartedServer } from "./lib.ts";
import { withDatabase } from "../../server/db/scratch.ts";
import { freePort } from "../lib/free-port.ts";
import { pgbouncerInstalled, startPgBouncer } from "../lib/pgbouncer.ts";

const CANDIDATES = Number(process.env.BENCH_CANDIDATES ?? 5000);
const TEST_MINUTES = Number(process.env.BENCH_TEST_MINUTES ?? 3);
const START_SECONDS = Number(process.env.BENCH_START_SECONDS ?? 10);
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
const POOLER = process.env.BENCH_POOLER ?? "";
const PGBOUNCER_POOL = Number(process.env.BENCH_PGBOUNCER_POOL ?? 10);
/** Each instance's DATABASE_POOL_MAX (unset: the app's default, 10). */
const POOL_MAX = process.env.BENCH_POOL_MAX;
const SAVE_EVERY = (process.env.BENCH_SAVE_SECONDS ?? "20-40").split("-").map(Number) as [number, number];
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** How long after the window closes the bench waits for ranks before it calls them missing. */
const RANK_TIMEOUT_MS = 10 * 60_000;

for (const [name, value] of [
  ["BENCH_CANDIDATES", CANDIDATES],
  ["BENCH_TEST_MINUTES", TEST_MINUTES],
  ["BENCH_START_SECONDS", START_SECONDS],
  ["BENCH_INSTANCES", INSTANCES],
  ["BENCH_PGBOUNCER_POOL", PGBOUNCER_POOL],
]) {
  if (!Number.isInteger(value) || (value as number) < 1) throw new Error(`${name} must be a whole number from 1`);
}
if (SAVE_EVERY.length !== 2 || SAVE_EVERY.some((n) => !(n > 0)) || SAVE_EVERY[0] > SAVE_EVERY[1])
  throw new Error('BENCH_SAVE_SECONDS must be "min-max" seconds, e.g. "20-40"');
if (POOLER !== "" && POOLER !== "pgbouncer") throw new Error('BENCH_POOLER must be "pgbouncer" or unset');
if (POOLER && !pgbouncerInstalled())
  throw new Error("BENCH_POOLER=pgbouncer needs pgbouncer (Debian: apt-get install pgbouncer)");

/** CPU seconds a process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
let figures: Record<string, number> | undefined;

const ms = (n: number) => `${n.toFixed(1)} ms`;
const cleanups: (() => Promise<unknown>)[] = [];
const dataDir = mkdtempSync(join(tmpdir(), "pathshala-bench-tests-"));
cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));

try {
  if (process.env.BENCH_NO_BUILD !== "1") {
    console.log("Building (npm run build)…");
    if (spawnSync("npm", ["run", "build"], { stdio: "ignore" }).status !== 0) throw new Error("npm run build failed");
  }
  const scratch = await createDatabase(SERVER_URL, "pathshala_bench_tests");
  cleanups.push(scratch.drop);
  const database = await openDatabase({ databaseUrl: scratch.url, poolMax: 4 });
  cleanups.push(() => database.close());
  await runMigrations(database);
  console.log(`Making ${CANDIDATES.toLocaleString()} candidates in the database…`);
  const tokens = await makeCandidates(database.db, CANDIDATES, (TEST_MINUTES + 60) * 60_000);

  let appUrl = scratch.url;
  if (POOLER) {
    const bouncerDir = mkdtempSync(join(tmpdir(), "pathshala-bench-pgbouncer-"));
    cleanups.push(async () => rmSync(bouncerDir, { recursive: true, force: true }));
    const bouncer = await startPgBouncer({
      dir: bouncerDir,
      port: await freePort(),
      serverUrl: scratch.url,
      poolSize: PGBOUNCER_POOL,
    });
    cleanups.push(() => bouncer.stop());
    appUrl = withDatabase(bouncer.url, new URL(scratch.url).pathname.slice(1));
  }
  // One after the other: the first applies the migrations (none are left), the others find them done.
  const apps: StartedServer[] = [];
  for (let i = 0; i < INSTANCES; i++) {
    const app = await startServer({
      DATABASE_URL: appUrl,
      ...(POOLER ? { DATABASE_DIRECT_URL: scratch.url } : {}),
      DATA_DIR: dataDir,
      SEED_DEMO: "0",
      ...(POOL_MAX ? { DATABASE_POOL_MAX: POOL_MAX } : {}),
    });
    cleanups.push(() => app.stop());
    apps.push(app);
  }
  const app = apps[0];
  const ports = apps.map((a) => a.port);
  const { testId, token: creatorToken } = await buildTest(app.port);
  const idleRss = apps.map((a) => rssMiB(a.child.pid!));
  const cpuBefore = apps.map((a) => cpuSeconds(a.child.pid!));

  console.log(
    `${INSTANCES} instance${INSTANCES > 1 ? "s" : ""} (ports ${ports.join(", ")}), ${POOL_MAX ?? 10} connections each${POOLER ? `, PgBouncer in transaction mode (${PGBOUNCER_POOL} server connections)` : ""}; ${CANDIDATES.toLocaleString()} candidates start within ${START_SECONDS} s; ${TEST_MINUTES}-minute test; a save every ${SAVE_EVERY.join("–")} s…`,
  );
  const peaks = apps.map(() => 0);
  const sampler = setInterval(() => {
    apps.forEach((a, i) => (peaks[i] = Math.max(peaks[i], rssMiB(a.child.pid!))));
  }, 1000);
  const opening = performance.now() + 500;
  const logs: CandidateLog[] = await Promise.all(
    tokens.map((token) =>
      runCandidate({
        ports,
        testId,
        token,
        startAt: opening + Math.random() * START_SECONDS * 1000,
        saveEvery: SAVE_EVERY,
        marginMs: 1500,
      }),
    ),
  );
  console.log("Every candidate has stopped; waiting for the clock to submit and rank…");
  const cpuUsed = apps.map((a, i) => cpuSeconds(a.child.pid!) - cpuBefore[i]);

  // Ranks wait for late answers made in time (decision 0034: the grace period, 10 minutes by default).
  // Nobody answers late here, so the bench does not wait it out: it moves the window's close back
  // by the grace period, which puts the moment ranking may begin at the window's real close.
  const [test] = await database.db
    .update(mockTests)
    .set({ closesAt: sql`${mockTests.closesAt} - make_interval(mins => ${LATE_ANSWER_DEFAULTS.graceMinutes}::int)` })
    .where(eq(mockTests.contentId, testId))
    .returning();
  const closesAt = test.closesAt!.getTime() + LATE_ANSWER_DEFAULTS.graceMinutes * 60_000;
  let rankedSeenAt = 0;
  for (const until = Date.now() + RANK_TIMEOUT_MS; Date.now() < until;) {
    const [row] = await database.db
      .select({ rankedAt: mockTests.rankedAt })
      .from(mockTests)
      .where(eq(mockTests.contentId, testId));
    if (row.rankedAt) {
      rankedSeenAt = Date.now();
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  clearInterval(sampler);

  const report = await compare(database.db, testId, logs);
  const rescoreMs = rankedSeenAt ? await timeRescore(app.port, testId, creatorToken) : Number.NaN;
  const starts = logs.map((l) => l.startMs);
  const saves = logs.flatMap((l) => l.saves);
  const saveTimes = saves.map((s) => s.ms);
  const failedStarts = logs.filter((l) => l.startStatus !== 200).length;
  const startStatuses = new Map<number, number>();
  for (const l of logs)
    if (l.startStatus !== 200) startStatuses.set(l.startStatus, (startStatuses.get(l.startStatus) ?? 0) + 1);
  const failedSaves = saves.filter((s) => s.status !== 200).length;
  const refusedEarly = logs.reduce((n, l) => n + l.refusedEarly, 0);
  const byStatus = new Map<number, number>();
  for (const s of saves) if (s.status !== 200) byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + 1);
  const statuses = [...byStatus].map(([status, n]) => `${n} × ${status || "no answer"}`).join(", ") || "none";

  console.log(`
Mock test, ${CANDIDATES.toLocaleString()} candidates, ${TEST_MINUTES} min, JEE Main 2025 (75 questions); ${cpus().length} cores, PostgreSQL
  starts:          ${starts.length.toLocaleString()}, p50 ${ms(percentile(starts, 50))}, p99 ${ms(percentile(starts, 99))}, max ${ms(Math.max(...starts))}; failed ${failedStarts}${failedStarts ? ` (${[...startStatuses].map(([status, n]) => `${n} × ${status || "no answer"}`).join(", ")})` : ""}
  saves:           ${saves.length.toLocaleString()} (${(saves.length / (TEST_MINUTES * 60)).toFixed(0)}/s on average), p50 ${ms(percentile(saveTimes, 50))}, p99 ${ms(percentile(saveTimes, 99))}, max ${ms(Math.max(...saveTimes))}
  errors:          ${failedSaves} saves not 200 (${statuses}; ${refusedEarly} of them 409 "time is up" though sent before the deadline)
  acknowledged:    ${report.acknowledged.toLocaleString()} answers; lost ${report.lost} (target 0)
  submitted:       ${report.byClock.toLocaleString()} by the clock, ${report.byStudent} otherwise, ${report.open} still open
  ranks ready:     ${rankedSeenAt ? `${((rankedSeenAt - closesAt) / 1000).toFixed(1)} s after the window closed (ranked_at ${((report.rankedAt - closesAt) / 1000).toFixed(1)} s after it; target < 60 s)` : "not within 10 minutes"}
  ranked:          ${report.ranked.toLocaleString()} attempts with a rank and percentile
  key change:      every attempt scored and ranked again in ${ms(rescoreMs)} (a question dropped after the test)
  server memory:   RSS at idle ${idleRss.map((m) => `${m.toFixed(0)} MiB`).join(", ")}; peak ${peaks.map((m) => `${m.toFixed(0)} MiB`).join(", ")} (per instance)
  server CPU:      ${cpuUsed.map((c) => `${c.toFixed(1)} s`).join(", ")} (per instance, from the first start to the last save)`);
  figures = {
    candidates: CANDIDATES,
    instances: INSTANCES,
    lost: report.lost,
    saveP99Ms: Math.round(percentile(saveTimes, 99) * 10) / 10,
    startP99Ms: Math.round(percentile(starts, 99) * 10) / 10,
    ranksReadyS: rankedSeenAt ? Math.round((rankedSeenAt - closesAt) / 100) / 10 : Number.NaN,
  };
  if (report.lost || failedStarts || failedSaves || !rankedSeenAt) process.exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}
// The last line, for tools (ranks never ready: null).
if (figures) console.log(JSON.stringify(figures));

/** Registers the creator through the API, writes the 75 questions and publishes the test; its id and the creator's token. */
async function buildTest(port: number): Promise<{ testId: string; token: string }> {
  const email = `bench.creator.${Date.now()}@example.com`;
  const reg = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Bench Creator", email, password: "tangerine-kettle-42", role: "creator" }),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const token = ((await reg.json()) as { access_token: string }).access_token;
  const post = async (path: string, body: unknown) => {
    const res = await send(port, "POST", path, token, body);
    if (res.status !== 200 && res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const subjects = ["Physics", "Chemistry", "Mathematics"];
  for (const subject of subjects) {
    for (let i = 1; i <= 20; i++)
      await post("/api/questions", {
        type: "single",
        text: `${subject} question ${i}: which option?`,
        options: ["$1$", "$2$", "$3$", "$4$"],
        answer: i % 4,
        tags: { subject, chapter: "Mixed", difficulty: "medium" },
      });
    for (let i = 1; i <= 5; i++)
      await post("/api/questions", {
        type: "numerical",
        text: `${subject} numerical ${i}: the value?`,
        answer: { value: 10 * i + 0.5, tolerance: 0.01 },
        tags: { subject, chapter: "Mixed", difficulty: "hard" },
      });
  }
  // The window closes when the last candidate to start runs out of time.
  const closesAt = new Date(Date.now() + 500 + (START_SECONDS + TEST_MINUTES * 60) * 1000);
  const created = await post("/api/tests", {
    title: "JEE Main 2025 full mock (bench)",
    pattern: "jee-main-2025",
    durationMinutes: TEST_MINUTES,
    price: 0,
    closesAt: closesAt.toISOString(),
    sections: subjects.flatMap((subject) => [
      { name: `${subject} Section A`, draw: [{ subject, type: "single", count: 20 }] },
      { name: `${subject} Section B`, draw: [{ subject, type: "numerical", count: 5 }] },
    ]),
  });
  const testId: string = created.test._id;
  if (created.test.questionCount !== 75) throw new Error(`the test has ${created.test.questionCount} questions`);
  await post(`/api/tests/${testId}/publish`, {});
  return { testId, token };
}

/** A key decision after the test (the first question dropped): how long until every attempt is scored and ranked again. */
async function timeRescore(port: number, testId: string, token: string): Promise<number> {
  const paper = await send(port, "GET", `/api/tests/${testId}/paper`, token);
  const first = (paper.json as { questions: { _id: string }[] }).questions[0]._id;
  const started = performance.now();
  const res = await send(port, "PUT", `/api/tests/${testId}/questions/${first}/policy`, token, { kind: "dropped" });
  if (res.status !== 200) throw new Error(`policy: ${res.status} ${JSON.stringify(res.json)}`);
  return performance.now() - started;
}

/** Every answer a candidate saw acknowledged, against what the database holds now; how the attempts ended. */
async function compare(db: Parameters<typeof makeCandidates>[0], testId: string, logs: CandidateLog[]) {
  const ids = logs.map((l) => l.attemptId).filter((id): id is string => Boolean(id));
  const stored = new Map<string, { answer: string | null; seq: number }>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .select({
        attemptId: attemptResponses.attemptId,
        questionId: attemptResponses.questionId,
        answer: attemptResponses.answer,
        seq: attemptResponses.seq,
      })
      .from(attemptResponses)
      .where(inArray(attemptResponses.attemptId, ids.slice(i, i + 1000)));
    for (const r of rows) stored.set(`${r.attemptId}/${r.questionId}`, { answer: r.answer, seq: r.seq });
  }
  let acknowledged = 0;
  let lost = 0;
  for (const log of logs) {
    for (const [questionId, saved] of log.acknowledged) {
      acknowledged += 1;
      const row = stored.get(`${log.attemptId}/${questionId}`);
      if (!row || row.answer !== saved.answer || row.seq !== saved.seq) lost += 1;
    }
  }
  const [ended] = (
    (await db.execute(sql`
    select count(*) filter (where submitted_by = 'clock')::int as "byClock",
      count(*) filter (where submitted_by = 'student')::int as "byStudent",
      count(*) filter (where submitted_at is null)::int as open,
      count(*) filter (where rank is not null and percentile is not null)::int as ranked
    from ${attempts} where test_id = ${testId}`)) as unknown as {
      rows: { byClock: number; byStudent: number; open: number; ranked: number }[];
    }
  ).rows;
  const [test] = await db
    .select({ rankedAt: mockTests.rankedAt })
    .from(mockTests)
    .where(eq(mockTests.contentId, testId));
  return { acknowledged, lost, ...ended, rankedAt: test.rankedAt?.getTime() ?? NaN };
}
