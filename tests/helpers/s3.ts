import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error s3rver ships no type declarations
import S3rver from "s3rver";

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** Environment for the app to use this server. */
  env: Record<string, string>;
  /** Every file s3rver holds for the bucket: objects and unfinished multipart uploads. */
  files(): string[];
  /** Unfinished multipart uploads (their parts). */
  pendingUploads(): string[];
  close(): Promise<void>;
}

/**
 * A local S3-compatible server (the npm `s3rver`) on a free port with one bucket. s3rver does not
 * implement AbortMultipartUpload; this adds it as S3 behaves (the upload and its parts are gone),
 * so that tests can check that a failed upload leaves nothing behind.
 */
export async function startLocalS3(bucket = "pathshala-test"): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), "pathshala-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  server.middleware.unshift(async (ctx: any, next: () => Promise<void>) => {
    const [, name] = ctx.path.split("/");
    if (ctx.method === "DELETE" && ctx.query.uploadId && name === bucket) {
      await rm(join(server.store.getResourcePath(bucket, undefined, "uploads"), String(ctx.query.uploadId)), {
        recursive: true,
        force: true,
      });
      ctx.status = 204;
      return;
    }
    await next();
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const walk = (dir: string) => {
    try {
      return readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
    } catch {
      return [];
    }
  };
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: "1",
    },
    files: () => walk(join(directory, bucket)),
    pendingUploads: () => walk(join(directory, bucket)).filter((f) => f.startsWith("._S3rver_uploads/")),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
