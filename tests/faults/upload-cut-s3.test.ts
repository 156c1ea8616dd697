import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalS3, type LocalS3 } from "../helpers/s3.ts";
import { waitFor } from "../helpers/wait.ts";
import { call, runningServer } from "./server.ts";
import { contentsOf, newCreator, startUpload } from "./uploads.ts";

/**
 * The production build storing uploads in S3 (a local s3rver): an upload cut off by its client
 * midway, after its multipart upload has begun, is aborted (no parts, no object are left).
 * What a crash leaves is the bucket lifecycle rule's (README, "Scaling out").
 */
let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
const f = runningServer({ env: () => s3.env });
afterAll(() => s3?.close());

const MiB = 1024 * 1024;

describe("an upload to S3 whose client goes away midway", () => {
  it("is aborted at once: no parts and no object are left, and no content is recorded", async () => {
    const creator = await newCreator(f.server.base);
    const before = s3.files();
    // Parts are 8 MiB: 20 MiB start the multipart upload.
    const socket = await startUpload(f.server.port, { token: creator.token }, "/api/content", 20 * MiB);
    await waitFor(() => s3.pendingUploads().length > 0, 15_000);
    socket.destroy();
    await waitFor(() => s3.pendingUploads().length === 0, 3000);
    expect(s3.files()).toEqual(before);
    expect((await call(f.server.base, "/healthz")).status).toBe(200);
    expect(await contentsOf(f.server.base, creator.token)).toEqual([]);
  });
});
