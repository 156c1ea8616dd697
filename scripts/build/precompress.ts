import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const MIN_BYTES = 1024;

/**
 * Writes brotli (.br, best quality) and gzip (.gz) copies next to the browser's files at build
 * time, for the static handler to send as they are (`precompressed`). Compressing per request
 * costs CPU on every fetch and, at the levels a server can afford live, more bytes.
 */
export function precompressedAssets(): Plugin {
  const clientDirs = new Set<string>();
  return {
    name: "pathshala:precompress",
    apply: "build",
    writeBundle(options) {
      // Only the browser build: the server's own bundle is never sent to anyone.
      if (this.environment.config.consumer === "client" && options.dir) clientDirs.add(options.dir);
    },
    closeBundle() {
      for (const dir of clientDirs) compressTree(dir);
      clientDirs.clear();
    },
  };
}

/** Compresses every compressible file of at least 1 KB under `dir`; a copy that saves under 5 % is skipped. */
export function compressTree(dir: string): void {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const data = readFileSync(path);
    if (data.length < MIN_BYTES) continue;
    const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
    const gz = gzipSync(data, { level: 9 });
    if (br.length < data.length * 0.95) writeFileSync(`${path}.br`, br);
    if (gz.length < data.length * 0.95) writeFileSync(`${path}.gz`, gz);
  }
}
