import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { encodingChooser } from "../accept-encoding.ts";

const ENCODINGS = ["br", "gzip"] as const;
export type PageEncoding = (typeof ENCODINGS)[number];
const chooseEncoding = encodingChooser(ENCODINGS);
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this a page goes out as it is (as server/middleware/compress.ts decides for other answers). */
const THRESHOLD_BYTES = 1024;

/**
 * A rendered page, whole, compressed for this visitor in one go on libuv's threads: brotli at
 * quality 4 (smaller than gzip's default level for the same time) or gzip, as Accept-Encoding
 * prefers. One call for the whole page costs about half of what compressing React's stream of
 * chunks through a CompressionStream did, and none of it on the main thread.
 */
export async function compressPage(page: Buffer, acceptEncoding: string | null): Promise<{ body: Buffer; encoding?: PageEncoding }> {
  const encoding = page.length < THRESHOLD_BYTES ? undefined : chooseEncoding(acceptEncoding ?? undefined);
  if (encoding === "br") {
    const params = { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: page.length, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT };
    return { body: await brotliAsync(page, { params }), encoding };
  }
  if (encoding === "gzip") return { body: await gzipAsync(page), encoding };
  return { body: page };
}
