/**
 * Draws the marketing site's artwork as SVG (made for Pathshala, no stock images) and writes the
 * optimised files the pages use into public/images/: AVIF and WebP at several widths for the
 * hero backgrounds and the about illustration, and a PNG for link previews (Open Graph).
 * The output is committed; run again after changing the drawings:
 *
 *   node scripts/make-images.ts
 *
 * Drawing is deterministic (seeded), so a re-run changes only what was changed here.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "public", "images");

/** Widths the pages offer in srcset (see app/components/marketing/images.ts). */
export const HERO_WIDTHS = [640, 1024, 1600, 1920];
export const ABOUT_WIDTHS = [480, 960];

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const W = 1920;
const H = 1080;

interface Palette {
  from: string;
  to: string;
  glow: string;
  accent: string;
  line: string;
}

const PALETTES: Palette[] = [
  { from: "#1e1b4b", to: "#312e81", glow: "#6366f1", accent: "#fb923c", line: "#a5b4fc" },
  { from: "#0c1e3a", to: "#1e3a8a", glow: "#38bdf8", accent: "#facc15", line: "#93c5fd" },
  { from: "#052e2b", to: "#134e4a", glow: "#2dd4bf", accent: "#f472b6", line: "#99f6e4" },
  { from: "#2e1065", to: "#4c1d95", glow: "#a78bfa", accent: "#34d399", line: "#c4b5fd" },
  { from: "#1c1917", to: "#7c2d12", glow: "#fb923c", accent: "#818cf8", line: "#fed7aa" },
];

function frame(p: Palette, body: string, w = W, h = H): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.from}"/><stop offset="1" stop-color="${p.to}"/></linearGradient>
    <radialGradient id="glow" cx="0.72" cy="0.32" r="0.55"><stop offset="0" stop-color="${p.glow}" stop-opacity="0.55"/><stop offset="1" stop-color="${p.glow}" stop-opacity="0"/></radialGradient>
    <radialGradient id="glow2" cx="0.15" cy="0.85" r="0.45"><stop offset="0" stop-color="${p.accent}" stop-opacity="0.28"/><stop offset="1" stop-color="${p.accent}" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="${w}" height="${h}" fill="url(#bg)"/>
  <rect width="${w}" height="${h}" fill="url(#glow)"/>
  <rect width="${w}" height="${h}" fill="url(#glow2)"/>
  ${body}
</svg>`;
}

/** Boards: ruled notebook pages and geometry set shapes. */
function boards(p: Palette): string {
  const r = rng(11);
  let s = "";
  for (let y = 80; y < H; y += 54)
    s += `<line x1="0" y1="${y}" x2="${W}" y2="${y}" stroke="${p.line}" stroke-opacity="0.08" stroke-width="2"/>`;
  s += `<line x1="170" y1="0" x2="170" y2="${H}" stroke="${p.accent}" stroke-opacity="0.25" stroke-width="3"/>`;
  for (let i = 0; i < 14; i++) {
    const x = 900 + r() * 950;
    const y = 60 + r() * 950;
    const size = 40 + r() * 120;
    const kind = i % 3;
    const stroke = i % 4 === 0 ? p.accent : p.line;
    const op = (0.25 + r() * 0.45).toFixed(2);
    if (kind === 0)
      s += `<circle cx="${x}" cy="${y}" r="${size / 2}" fill="none" stroke="${stroke}" stroke-opacity="${op}" stroke-width="4"/>`;
    else if (kind === 1)
      s += `<polygon points="${x},${y - size / 2} ${x + size / 2},${y + size / 2} ${x - size / 2},${y + size / 2}" fill="none" stroke="${stroke}" stroke-opacity="${op}" stroke-width="4"/>`;
    else
      s += `<rect x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}" rx="10" fill="none" stroke="${stroke}" stroke-opacity="${op}" stroke-width="4" transform="rotate(${Math.round(r() * 40)} ${x} ${y})"/>`;
  }
  s += `<path d="M1180 820 L1640 820 L1180 500 Z" fill="${p.glow}" fill-opacity="0.12" stroke="${p.line}" stroke-opacity="0.5" stroke-width="4"/>`;
  s += `<path d="M1260 820 A80 80 0 0 0 1240 760" fill="none" stroke="${p.accent}" stroke-width="4" stroke-opacity="0.7"/>`;
  return frame(p, s);
}

/** Physics (JEE): orbits and waves. */
function physics(p: Palette): string {
  let s = "";
  const cx = 1380;
  const cy = 470;
  for (const [rx, ry, rot] of [
    [380, 120, 0],
    [380, 120, 60],
    [380, 120, 120],
  ]) {
    s += `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="none" stroke="${p.line}" stroke-opacity="0.45" stroke-width="4" transform="rotate(${rot} ${cx} ${cy})"/>`;
  }
  s += `<circle cx="${cx}" cy="${cy}" r="46" fill="${p.accent}" fill-opacity="0.85"/>`;
  for (const [a, rot] of [
    [0.4, 0],
    [2.2, 60],
    [4.4, 120],
  ]) {
    const x = cx + 380 * Math.cos(a);
    const y = cy + 120 * Math.sin(a);
    s += `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="14" fill="${p.glow}" transform="rotate(${rot} ${cx} ${cy})"/>`;
  }
  for (let k = 0; k < 4; k++) {
    let d = `M0 ${880 + k * 40}`;
    for (let x = 0; x <= W; x += 20)
      d += ` L${x} ${(880 + k * 40 + Math.sin(x / (90 + k * 25)) * (40 - k * 6)).toFixed(1)}`;
    s += `<path d="${d}" fill="none" stroke="${k % 2 ? p.accent : p.line}" stroke-opacity="${0.18 + k * 0.08}" stroke-width="3"/>`;
  }
  return frame(p, s);
}

/** Biology (NEET): a double helix and hexagonal molecules. */
function biology(p: Palette): string {
  let s = "";
  const x0 = 980;
  for (let i = 0; i <= 48; i++) {
    const x = x0 + i * 19;
    const phase = i / 4.2;
    const y1 = 520 + Math.sin(phase) * 170;
    const y2 = 520 - Math.sin(phase) * 170;
    if (i % 2 === 0)
      s += `<line x1="${x}" y1="${y1.toFixed(1)}" x2="${x}" y2="${y2.toFixed(1)}" stroke="${p.line}" stroke-opacity="0.28" stroke-width="4"/>`;
    s += `<circle cx="${x}" cy="${y1.toFixed(1)}" r="9" fill="${p.glow}" fill-opacity="0.85"/>`;
    s += `<circle cx="${x}" cy="${y2.toFixed(1)}" r="9" fill="${p.accent}" fill-opacity="0.8"/>`;
  }
  const hex = (cx: number, cy: number, r: number) =>
    Array.from(
      { length: 6 },
      (_, k) =>
        `${(cx + r * Math.cos((Math.PI / 3) * k)).toFixed(1)},${(cy + r * Math.sin((Math.PI / 3) * k)).toFixed(1)}`,
    ).join(" ");
  for (const [cx, cy] of [
    [1560, 180],
    [1664, 240],
    [1664, 360],
    [300, 900],
    [404, 960],
  ]) {
    s += `<polygon points="${hex(cx, cy, 60)}" fill="none" stroke="${p.line}" stroke-opacity="0.4" stroke-width="4"/>`;
  }
  return frame(p, s);
}

/** Mathematics: axes, a plotted curve and a grid. */
function maths(p: Palette): string {
  let s = "";
  for (let x = 0; x < W; x += 80)
    s += `<line x1="${x}" y1="0" x2="${x}" y2="${H}" stroke="${p.line}" stroke-opacity="0.06" stroke-width="2"/>`;
  for (let y = 0; y < H; y += 80)
    s += `<line x1="0" y1="${y}" x2="${W}" y2="${y}" stroke="${p.line}" stroke-opacity="0.06" stroke-width="2"/>`;
  const ox = 1040;
  const oy = 620;
  s += `<line x1="${ox - 80}" y1="${oy}" x2="1860" y2="${oy}" stroke="${p.line}" stroke-opacity="0.6" stroke-width="4"/>`;
  s += `<line x1="${ox}" y1="120" x2="${ox}" y2="980" stroke="${p.line}" stroke-opacity="0.6" stroke-width="4"/>`;
  let d = `M${ox - 60} ${oy}`;
  for (let x = -60; x <= 800; x += 8)
    d += ` L${ox + x} ${(oy - 0.0009 * x * x * Math.sin(x / 110) * 1.6 - Math.sin(x / 60) * 40).toFixed(1)}`;
  s += `<path d="${d}" fill="none" stroke="${p.accent}" stroke-width="6" stroke-linecap="round"/>`;
  let d2 = `M${ox - 60} ${oy}`;
  for (let x = -60; x <= 800; x += 8) d2 += ` L${ox + x} ${(oy + Math.cos(x / 90) * 120 - 120).toFixed(1)}`;
  s += `<path d="${d2}" fill="none" stroke="${p.glow}" stroke-opacity="0.8" stroke-width="5" stroke-dasharray="14 12"/>`;
  for (const [x, y] of [
    [ox + 220, oy - 160],
    [ox + 470, oy - 40],
    [ox + 690, oy - 330],
  ]) {
    s += `<circle cx="${x}" cy="${y}" r="12" fill="${p.accent}"/>`;
  }
  return frame(p, s);
}

/** Students online: a network of connected learners. */
function network(p: Palette): string {
  const r = rng(5);
  const nodes = Array.from({ length: 26 }, () => [860 + r() * 1000, 80 + r() * 920] as const);
  let s = "";
  for (let i = 0; i < nodes.length; i++) {
    for (let j = i + 1; j < nodes.length; j++) {
      const [x1, y1] = nodes[i];
      const [x2, y2] = nodes[j];
      if (Math.hypot(x1 - x2, y1 - y2) < 260)
        s += `<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" stroke="${p.line}" stroke-opacity="0.3" stroke-width="3"/>`;
    }
  }
  nodes.forEach(([x, y], i) => {
    const big = i % 5 === 0;
    s += `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${big ? 22 : 11}" fill="${big ? p.accent : p.glow}" fill-opacity="${big ? 0.9 : 0.75}"/>`;
    if (big)
      s += `<circle cx="${x.toFixed(1)}" cy="${(y - 7).toFixed(1)}" r="7" fill="${p.from}"/><path d="M${(x - 11).toFixed(1)} ${(y + 14).toFixed(1)} a11 9 0 0 1 22 0" fill="${p.from}"/>`;
  });
  return frame(p, s);
}

/** The about block: an open book with a rising path of steps. */
function aboutArt(): string {
  const p = PALETTES[0];
  const w = 960;
  const h = 720;
  let s = "";
  s += `<path d="M160 520 Q320 450 480 520 L480 250 Q320 180 160 250 Z" fill="${p.line}" fill-opacity="0.18" stroke="${p.line}" stroke-width="5"/>`;
  s += `<path d="M800 520 Q640 450 480 520 L480 250 Q640 180 800 250 Z" fill="${p.line}" fill-opacity="0.1" stroke="${p.line}" stroke-width="5"/>`;
  for (let i = 0; i < 5; i++) {
    s += `<path d="M200 ${290 + i * 42} Q320 ${250 + i * 42} 440 ${290 + i * 42}" fill="none" stroke="${p.line}" stroke-opacity="0.45" stroke-width="4"/>`;
  }
  for (let i = 0; i < 5; i++) {
    const x = 540 + i * 48;
    const top = 470 - i * 48;
    s += `<rect x="${x}" y="${top}" width="36" height="${480 - top}" rx="6" fill="${i === 4 ? p.accent : p.glow}" fill-opacity="${0.45 + i * 0.1}"/>`;
  }
  s += `<path d="M540 440 L590 400 L640 360 L690 300 L760 220" fill="none" stroke="${p.accent}" stroke-width="6" stroke-linecap="round"/>`;
  s += `<polygon points="760,200 780,236 742,232" fill="${p.accent}"/>`;
  s += `<circle cx="480" cy="130" r="44" fill="${p.accent}" fill-opacity="0.9"/><path d="M452 130 l20 20 l36 -40" fill="none" stroke="${p.from}" stroke-width="9" stroke-linecap="round" stroke-linejoin="round"/>`;
  return frame(p, s, w, h);
}

/** The link preview: mark, name and promise. Text is drawn with the machine's sans font. */
function ogArt(): string {
  const p = PALETTES[0];
  const w = 1200;
  const h = 630;
  const s = `
  <g transform="translate(90 150)">
    <rect width="120" height="120" rx="26" fill="#4338ca"/>
    <path d="M34 86V34h28a19 19 0 0 1 0 38H48v14z" fill="none" stroke="#fff" stroke-width="11" stroke-linejoin="round"/>
    <circle cx="86" cy="83" r="8" fill="#fb923c"/>
  </g>
  <text x="240" y="238" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="76" font-weight="700" fill="#fff">Pathshala</text>
  <text x="90" y="370" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="46" font-weight="700" fill="#fff">Your institute online in 24 hours.</text>
  <text x="90" y="440" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="32" fill="#c7d2fe">Courses, students, payments and your own website</text>
  <text x="90" y="486" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="32" fill="#c7d2fe">for JEE, NEET and Boards coaching.</text>
  <rect x="90" y="530" width="120" height="8" rx="4" fill="${p.accent}"/>`;
  return frame(p, s, w, h);
}

function write(path: string, data: Buffer) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
  console.log(`${path.slice(ROOT.length + 1)}  ${(data.length / 1024).toFixed(1)} KB`);
}

async function variants(svg: string, name: string, widths: number[], width: number, height: number) {
  const source = Buffer.from(svg);
  for (const w of widths) {
    const h = Math.round((w / width) * height);
    const base = sharp(source).resize(w, h);
    write(join(OUT, `${name}-${w}.avif`), await base.clone().avif({ quality: 50, effort: 6 }).toBuffer());
    write(join(OUT, `${name}-${w}.webp`), await base.clone().webp({ quality: 72, effort: 6 }).toBuffer());
  }
}

async function main() {
  const heroes = [boards, physics, biology, maths, network];
  for (let i = 0; i < heroes.length; i++)
    await variants(heroes[i](PALETTES[i]), `hero/hero-${i + 1}`, HERO_WIDTHS, W, H);
  await variants(aboutArt(), "about/about", ABOUT_WIDTHS, 960, 720);
  write(
    join(OUT, "og.png"),
    await sharp(Buffer.from(ogArt())).png({ compressionLevel: 9, palette: true, quality: 90 }).toBuffer(),
  );
}

await main();
