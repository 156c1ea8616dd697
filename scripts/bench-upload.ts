/**
 * `npm run bench:upload [-- --size <MB>] [-- --s3]`: uploads one large video (1 GB by default,
 * generated on the fly, never held in memory here either) to POST /api/content on a freshly
 * started server, sampling the server's resident memory (RSS) throughout, and prints the figures.
 * The point: the upload streams to storage, so memory stays flat whatever the file's size.
 * With --s3 the files go to a local S3-compatible server (s3rver) through the multipart driver.
 */
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "./lib/args.ts";
import { rssMiB, startServer } from "./bench/lib.ts";

const args = parseArgs(
  process.argv.slice(2).filter((a) => a !== "--s3"),
  ["size"],
);
const useS3 = process.argv.includes("--s3");
const MiB = 1024 * 1024;
const sizeMiB = Number(args.size ?? 1024);
if (!Number.isInteger(sizeMiB) || sizeMiB < 1) throw new Error("--size must be a whole number of MB");
const fileBytes = sizeMiB * MiB;

const dataDir = mkdtempSync(join(tmpdir(), "pathshala-bench-"));
let s3: { env: Record<string, string>; close(): Promise<void> } | undefined;
if (useS3) {
  const { startLocalS3 } = await import("../tests/helpers/s3.ts");
  s3 = await startLocalS3("pathshala-bench");
}

// The production build, as `npm start` runs it, on the embedded database.
const server = await startServer({ DATA_DIR: dataDir, SEED_DEMO: "0", ...(s3?.env ?? {}) });
const port = server.port;
const samples: { at: number; rss: number; sent: number }[] = [];
let sent = 0;
let latestRss = 0;
const sampler = setInterval(() => {
  latestRss = rssMiB(server.child.pid!) * MiB;
  samples.push({ at: performance.now(), rss: latestRss, sent });
}, 100);

const base = `http://127.0.0.1:${port}`;
const registered = await fetch(`${base}/api/auth/register`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    name: "Bench Creator",
    email: `bench.${Date.now()}@example.com`,
    password: "tangerine-kettle-42",
    role: "creator",
  }),
});
if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${await registered.text()}`);
const { access_token } = (await registered.json()) as { access_token: string };

// Let the freshly started server settle, then take the baseline.
await new Promise((r) => setTimeout(r, 2000));
const baseline = median(samples.slice(-5).map((s) => s.rss));

const boundary = "----pathshala-bench";
const head = Buffer.from(
  [
    ["title", `Benchmark video (${sizeMiB} MB)`],
    ["type", "video"],
    ["price", "0"],
  ]
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join("") +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
);
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
// One 1 MiB block reused: the first one carries an MP4 signature so the type check passes.
const block = Buffer.alloc(MiB, 0x42);
const first = Buffer.from(block);
first.set([0, 0, 0, 0x20, ...Buffer.from("ftypisom")]);

const started = performance.now();
const status = await new Promise<{ code: number; body: string }>((resolve, reject) => {
  const req = request(`${base}/api/content`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${access_token}`,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": head.length + fileBytes + tail.length,
    },
  });
  req.on("response", (res) => {
    let body = "";
    res.on("data", (c) => (body += c));
    res.on("end", () => resolve({ code: res.statusCode!, body }));
  });
  req.on("error", reject);
  void (async () => {
    req.write(head);
    for (let i = 0; i < sizeMiB; i++) {
      const chunk = i === 0 ? first : block;
      sent += chunk.length;
      if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
    }
    req.end(tail);
  })();
});
const seconds = (performance.now() - started) / 1000;
await new Promise((r) => setTimeout(r, 300));
const during = samples.filter((s) => s.at >= started);
const peak = Math.max(...during.map((s) => s.rss), latestRss);

const mb = (bytes: number) => `${(bytes / MiB).toFixed(1)} MB`;
console.log(
  `\nUpload of a ${sizeMiB} MB video to ${useS3 ? "S3 (local s3rver, multipart)" : "disk storage"}: HTTP ${status.code}`,
);
if (status.code !== 201) console.log(status.body);
console.log(`  time           ${seconds.toFixed(1)} s (${(sizeMiB / seconds).toFixed(0)} MB/s)`);
console.log(`  server RSS     before ${mb(baseline)}, peak ${mb(peak)}, after ${mb(latestRss)}`);
console.log(
  `  growth         ${mb(Math.max(0, peak - baseline))} at peak for ${sizeMiB} MB uploaded (${((Math.max(0, peak - baseline) / fileBytes) * 100).toFixed(2)} % of the file)`,
);
console.log("  RSS while uploading (by share of the file sent):");
for (const pct of [10, 25, 50, 75, 90, 100]) {
  const at = during.find((s) => s.sent >= (fileBytes * pct) / 100) ?? during.at(-1)!;
  console.log(`    ${String(pct).padStart(3)} %  ${mb(at.rss)}`);
}

clearInterval(sampler);
await server.stop();
await s3?.close();
rmSync(dataDir, { recursive: true, force: true });
if (status.code !== 201) process.exit(1);

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
