/**
 * `npm run bench:web`: Lighthouse (mobile emulation, simulated slow 4G and 4× CPU slowdown, its
 * defaults) against the production build for the public pages, printing each page's scores, LCP,
 * CLS, TBT and the JavaScript it downloads (bytes on the wire: the build's brotli copies, which
 * Chromium accepts; clients without brotli get the gzip -9 copies, somewhat larger). Each page is
 * measured `--runs` times (default 3) and the median run (by Performance score) is reported.
 *
 *   npm run bench:web                      # builds, starts the server on a free port, measures
 *   npm run bench:web -- --runs 5 --no-build
 *   npm run bench:web -- --url https://pathshala.in   # measure a running deployment instead
 *
 * When it starts its own server it also measures an institute's home page (the demo institute
 * Sunrise Academy, on demo-t1.localhost) in each of the four templates, applied in turn through
 * `POST /api/templates/apply` as the demo owner.
 *
 * Targets: Performance ≥ 95, Accessibility ≥ 95, CLS < 0.05, JS ≤ 150 KB compressed.
 * Chromium: CHROME_PATH, else /usr/bin/chromium.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort } from "./lib/free-port.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "node_modules", ".bin");
const PAGES = ["/", "/pricing", "/invest"];
const TARGETS = { performance: 95, accessibility: 95, cls: 0.05, jsKb: 150 };
const CHROME_FLAGS =
  "--headless=new --no-sandbox --disable-gpu --disable-background-networking --host-resolver-rules='MAP *.localhost 127.0.0.1'";
const TEMPLATE_IDS = ["t1", "t2", "t3", "t4"];
const DEMO_OWNER = { email: "business@example.com", password: "demo-business-2025", role: "business" };

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    "no-build": { type: "boolean", default: false },
    url: { type: "string" },
  },
});
const runs = Math.max(1, Number(args.runs) || 3);

interface Result {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  jsBytes: number;
}

async function waitFor(url: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await send(url)).status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs / 1000} s`);
}

function lighthouse(url: string, page: string): Result & { raw: unknown } {
  const out = spawnSync(
    join(BIN, "lighthouse"),
    [
      url,
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      "--only-categories=performance,accessibility,best-practices,seo",
      `--chrome-flags=${CHROME_FLAGS}`,
    ],
    {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
    },
  );
  if (out.status !== 0) throw new Error(`lighthouse failed for ${url}:\n${out.stderr}`);
  const lhr = JSON.parse(out.stdout);
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const requests: { resourceType?: string; transferSize?: number }[] =
    lhr.audits["network-requests"]?.details?.items ?? [];
  return {
    page,
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcpMs: lhr.audits["largest-contentful-paint"].numericValue,
    cls: lhr.audits["cumulative-layout-shift"].numericValue,
    tbtMs: lhr.audits["total-blocking-time"].numericValue,
    jsBytes: requests.filter((r) => r.resourceType === "Script").reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    raw: lhr,
  };
}

/** `runs` Lighthouse runs of one page, and the median one. */
function measure(url: string, label: string): Result {
  const attempts: Result[] = [];
  for (let i = 0; i < runs; i++) {
    process.stdout.write(`measuring ${label} (${i + 1}/${runs})…\n`);
    try {
      attempts.push(lighthouse(url, label));
    } catch (error) {
      // Lighthouse now and then loses a trace on a busy machine (NO_NAVSTART); one more try.
      process.stdout.write(`  ${(error as Error).message.split("\n").at(-1)}; trying once more\n`);
      attempts.push(lighthouse(url, label));
    }
  }
  return median(attempts);
}

/**
 * One request on a new connection (the runs between two requests outlast the server's keep-alive,
 * and Node cannot resolve *.localhost, so the Host header names the institute).
 */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = url.startsWith("https:") ? httpsRequest : httpRequest;
    const req = request(url, { method: options.method ?? "GET", headers: options.headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject).end(options.body);
  });
}

/** Signs in as the demo owner and returns a function that applies a template to its institute. */
async function templateSwitcher(base: string): Promise<(templateId: string) => Promise<void>> {
  const json = { "content-type": "application/json" };
  const login = await send(`${base}/api/auth/login`, {
    method: "POST",
    headers: json,
    body: JSON.stringify(DEMO_OWNER),
  });
  if (login.status !== 200) throw new Error(`signing in as the demo owner failed: ${login.status}`);
  const { access_token: token } = JSON.parse(login.body) as { access_token: string };
  return async (templateId) => {
    const res = await send(`${base}/api/templates/apply`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify({ templateId }),
    });
    if (res.status !== 200) throw new Error(`applying ${templateId} failed: ${res.status}`);
  };
}

function median(results: Result[]): Result {
  const sorted = [...results].sort((a, b) => a.performance - b.performance || b.lcpMs - a.lcpMs);
  return sorted[Math.floor(sorted.length / 2)];
}

function report(results: Result[]) {
  const mark = (ok: boolean) => (ok ? "✓" : "✗");
  const rows = results.map((r) => {
    const jsKb = r.jsBytes / 1024;
    return [
      r.page,
      `${r.performance} ${mark(r.performance >= TARGETS.performance)}`,
      `${r.accessibility} ${mark(r.accessibility >= TARGETS.accessibility)}`,
      String(r.bestPractices),
      String(r.seo),
      `${(r.lcpMs / 1000).toFixed(2)} s`,
      `${r.cls.toFixed(3)} ${mark(r.cls < TARGETS.cls)}`,
      `${Math.round(r.tbtMs)} ms`,
      `${jsKb.toFixed(1)} KB ${mark(jsKb <= TARGETS.jsKb)}`,
    ];
  });
  const head = ["page", "Performance", "Accessibility", "Best Practices", "SEO", "LCP", "CLS", "TBT", "JS (sent)"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
  console.log(`\nLighthouse, mobile emulation, median of ${runs} run${runs === 1 ? "" : "s"} per page`);
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
  console.log(
    `\ntargets: Performance ≥ ${TARGETS.performance}, Accessibility ≥ ${TARGETS.accessibility}, CLS < ${TARGETS.cls}, JS ≤ ${TARGETS.jsKb} KB compressed`,
  );
}

async function main() {
  let server: ChildProcess | undefined;
  let dataDir: string | undefined;
  let base = args.url?.replace(/\/$/, "");
  try {
    if (!base) {
      if (!args["no-build"]) {
        console.log("building…");
        const build = spawnSync(join(BIN, "react-router"), ["build"], {
          cwd: ROOT,
          stdio: ["ignore", "ignore", "inherit"],
        });
        if (build.status !== 0) throw new Error("the build failed");
      }
      const port = await freePort();
      dataDir = mkdtempSync(join(tmpdir(), "pathshala-bench-"));
      server = spawn(process.execPath, ["build/server/index.js"], {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "inherit"],
        env: {
          ...process.env,
          PORT: String(port),
          HOST: "127.0.0.1",
          DATA_DIR: dataDir,
          NODE_ENV: "production",
          LOG_LEVEL: "warn",
          // As the demo runs (npm start): the sandboxes switched on.
          MESSAGES_SANDBOX: "1",
          RAZORPAY_SANDBOX: "1",
        },
      });
      base = `http://localhost:${port}`;
      await waitFor(`${base}/healthz`, 60_000);
    }
    // One request each first, so the measured runs see a warm server.
    for (const page of PAGES) await send(`${base}${page}`);
    const results: Result[] = PAGES.map((page) => measure(`${base}${page}`, page));
    if (server) {
      const apply = await templateSwitcher(base);
      const institute = base.replace("//localhost:", "//demo-t1.localhost:");
      for (const templateId of TEMPLATE_IDS) {
        await apply(templateId);
        await send(`${base}/`, { headers: { host: "demo-t1.localhost" } });
        results.push(measure(`${institute}/`, `institute home (${templateId})`));
      }
    }
    report(results);
  } finally {
    server?.kill("SIGTERM");
    if (dataDir) {
      await new Promise((r) => setTimeout(r, 500));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

await main();
