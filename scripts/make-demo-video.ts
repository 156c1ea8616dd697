/**
 * Makes the demo creator's sample lesson video without downloading anything: the local Chromium
 * draws an animation on a canvas and records it with MediaRecorder (H.264 in MP4). The result is
 * written as server/seed/demo-video.ts (base64), which the demo seed stores through the storage
 * layer. Run again only to change the video:
 *   node scripts/make-demo-video.ts
 */
import { writeFileSync } from "node:fs";
import { chromium } from "playwright-core";

const SECONDS = 8;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required"],
});
const page = await browser.newPage();
const base64 = await page.evaluate(async (seconds) => {
  const canvas = document.createElement("canvas");
  canvas.width = 640;
  canvas.height = 360;
  document.body.append(canvas);
  const g = canvas.getContext("2d")!;
  const started = performance.now();
  const draw = () => {
    const t = (performance.now() - started) / 1000;
    g.fillStyle = "#1e1b4b";
    g.fillRect(0, 0, 640, 360);
    g.fillStyle = "#e0e7ff";
    g.font = "bold 30px sans-serif";
    g.fillText("Rotational Motion", 32, 60);
    g.font = "20px sans-serif";
    g.fillStyle = "#a5b4fc";
    g.fillText("Pathshala demo lesson · τ = I α", 32, 95);
    // A rolling wheel: rotation and translation together (v = ω r).
    const r = 48;
    const x = 80 + ((t * 70) % 480);
    g.save();
    g.translate(x, 250);
    g.rotate((t * 70) / r);
    g.strokeStyle = "#fbbf24";
    g.lineWidth = 6;
    g.beginPath();
    g.arc(0, 0, r, 0, Math.PI * 2);
    g.stroke();
    for (let k = 0; k < 4; k++) {
      g.rotate(Math.PI / 2);
      g.beginPath();
      g.moveTo(0, 0);
      g.lineTo(r, 0);
      g.stroke();
    }
    g.restore();
    g.fillStyle = "#334155";
    g.fillRect(0, 300, 640, 4);
    g.fillStyle = "#e0e7ff";
    g.font = "16px monospace";
    g.fillText(`t = ${t.toFixed(1)} s`, 540, 340);
  };
  const stream = canvas.captureStream(24);
  const recorder = new MediaRecorder(stream, { mimeType: "video/mp4;codecs=avc1.42E01E", videoBitsPerSecond: 250_000 });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => chunks.push(e.data);
  const done = new Promise((resolve) => (recorder.onstop = resolve));
  const timer = setInterval(draw, 1000 / 24);
  draw();
  recorder.start();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  recorder.stop();
  await done;
  clearInterval(timer);
  const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}, SECONDS);
await browser.close();

const size = Math.round((base64.length * 3) / 4 / 1024);
writeFileSync(
  new URL("../server/seed/demo-video.ts", import.meta.url),
  `/** The demo lesson video (H.264/MP4, ${SECONDS} s, ~${size} KB), made by scripts/make-demo-video.ts. */\nexport const DEMO_VIDEO_MP4_BASE64 =\n  "${base64}";\n`,
);
console.log(`wrote server/seed/demo-video.ts (${size} KB of video)`);
