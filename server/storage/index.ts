import { join } from "node:path";
import type { Env } from "../runtime/env.ts";
import { DiskStorage } from "./disk.ts";
import { S3Storage } from "./s3.ts";
import type { Storage } from "./types.ts";

export type { Storage } from "./types.ts";

type StorageEnv = Pick<
  Env,
  | "DATA_DIR"
  | "FILE_CACHE_MB"
  | "S3_BUCKET"
  | "S3_ENDPOINT"
  | "S3_REGION"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
  | "S3_FORCE_PATH_STYLE"
>;

/** Disk under DATA_DIR by default; S3-compatible storage (shared by every instance) when S3_BUCKET is set. */
export function createStorage(env: StorageEnv, onCleanupError?: (error: unknown) => void): Storage {
  if (env.S3_BUCKET) {
    return new S3Storage({
      bucket: env.S3_BUCKET,
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      onCleanupError,
    });
  }
  return new DiskStorage(join(env.DATA_DIR, "files"), { cacheBytes: env.FILE_CACHE_MB * 1024 * 1024 });
}
