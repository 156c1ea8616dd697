import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { encodingChooser } from "../http/accept-encoding.ts";

const chooseEncoding = encodingChooser(["gzip"] as const);
const gzipAsync = promisify(gzip);

/** Below this a page goes out as it is (as server/middleware/compress.ts decides for other answers). */
const THRESHOLD_BYTES = 1024;

/**
 * A rendered page, whole, gzipped for this visitor in one call on libuv's threads, at level 1
 * (nginx's default for the same job): on a profile of the signed-in pages, compressing React's
 * stream of chunks through a CompressionStream took an eighth of the main thread, and one call
 * at level 6 twice this one's CPU for a page 15 % smaller. Brotli costs more to set up per call
 * than it saves on pages of this size; a client that takes neither gets the page as it is.
 */
export async function compressPage(
  page: Buffer,
  acceptEncoding: string | null,
): Promise<{ body: Buffer; encoding?: "gzip" }> {
  if (page.length < THRESHOLD_BYTES || chooseEncoding(acceptEncoding ?? undefined) !== "gzip") return { body: page };
  return { body: await gzipAsync(page, { level: 1 }), encoding: "gzip" };
}
