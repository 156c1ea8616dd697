import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { S3Client } from "@aws-sdk/client-s3";
import { S3Storage, createS3Client } from "../../server/storage/s3.ts";
import { TooLargeError } from "../../server/storage/types.ts";
import { createTestApp } from "../helpers/app.ts";
import { bearer, registerUser } from "../helpers/http.ts";
import { FIXTURES, uploadContent } from "../helpers/content.ts";
import { startLocalS3, type LocalS3 } from "../helpers/s3.ts";

const MiB = 1024 * 1024;
let s3: LocalS3;
let client: S3Client;
let storage: S3Storage;
const sent: string[] = [];

beforeAll(async () => {
  s3 = await startLocalS3();
  client = createS3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
  });
  client.middlewareStack.add(
    (next, context) => (args) => {
      sent.push(context.commandName!);
      return next(args);
    },
    { step: "initialize" },
  );
  storage = new S3Storage({ bucket: s3.bucket, region: "us-east-1", forcePathStyle: true, partSize: 5 * MiB }, client);
});
afterAll(() => s3?.close());

/** `size` predictable bytes in 64 KiB chunks; optionally breaks (like a dropped connection) after `failAt` bytes. */
function generated(size: number, failAt?: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (failAt !== undefined && sent >= failAt) return controller.error(new Error("connection reset"));
      if (sent >= size) return controller.close();
      const n = Math.min(64 * 1024, size - sent);
      controller.enqueue(Uint8Array.from({ length: n }, (_, i) => (sent + i) % 251));
      sent += n;
    },
  });
}
const expected = (start: number, end: number) =>
  Uint8Array.from({ length: end - start + 1 }, (_, i) => (start + i) % 251);
const read = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer());

describe("S3Storage against a local S3 server", () => {
  it("stores a small object in one request and reads it back, whole and by range", async () => {
    sent.length = 0;
    expect(
      await storage.put("content/small.pdf", generated(1000), { maxBytes: 10 * MiB, contentType: "application/pdf" }),
    ).toEqual({ size: 1000 });
    expect(sent).toEqual(["PutObjectCommand"]);
    expect(await storage.stat("content/small.pdf")).toEqual({ size: 1000 });
    const whole = await storage.get("content/small.pdf");
    expect(whole!.size).toBe(1000);
    expect(await read(whole!.body)).toEqual(expected(0, 999));
    const slice = await storage.get("content/small.pdf", { start: 10, end: 19 });
    expect(slice!.size).toBe(1000);
    expect(await read(slice!.body)).toEqual(expected(10, 19));
  });

  it("streams a large object as a multipart upload and reads across part boundaries", async () => {
    sent.length = 0;
    const size = 12 * MiB + 123;
    expect(
      await storage.put("content/large.mp4", generated(size), { maxBytes: 20 * MiB, contentType: "video/mp4" }),
    ).toEqual({ size });
    expect(sent.filter((c) => c === "UploadPartCommand")).toHaveLength(3);
    expect(sent[0]).toBe("CreateMultipartUploadCommand");
    expect(sent.at(-1)).toBe("CompleteMultipartUploadCommand");
    expect(await storage.stat("content/large.mp4")).toEqual({ size });
    const across = await storage.get("content/large.mp4", { start: 5 * MiB - 5, end: 5 * MiB + 4 });
    expect(await read(across!.body)).toEqual(expected(5 * MiB - 5, 5 * MiB + 4));
    expect(s3.pendingUploads()).toEqual([]);
  });

  it("abandons an upload past its limit: TooLargeError, no object, no parts left", async () => {
    sent.length = 0;
    await expect(storage.put("content/too-big.mp4", generated(12 * MiB), { maxBytes: 7 * MiB })).rejects.toBeInstanceOf(
      TooLargeError,
    );
    expect(sent).toContain("AbortMultipartUploadCommand");
    expect(await storage.stat("content/too-big.mp4")).toBeNull();
    expect(s3.pendingUploads()).toEqual([]);
  });

  it("abandons an upload whose source breaks midway", async () => {
    await expect(
      storage.put("content/broken.mp4", generated(20 * MiB, 11 * MiB), { maxBytes: 30 * MiB }),
    ).rejects.toThrow("connection reset");
    expect(await storage.stat("content/broken.mp4")).toBeNull();
    expect(s3.pendingUploads()).toEqual([]);
  });

  it("deletes, and answers null for what is not there", async () => {
    await storage.put("content/gone.pdf", generated(10), { maxBytes: 100 });
    await storage.delete("content/gone.pdf");
    expect(await storage.stat("content/gone.pdf")).toBeNull();
    expect(await storage.get("content/gone.pdf")).toBeNull();
    expect(await storage.get("content/gone.pdf", { start: 0, end: 1 })).toBeNull();
  });
});

describe("the app on S3 storage", () => {
  it("uploads, serves by signed link with ranges, and leaves nothing after a refused upload", async () => {
    const t = await createTestApp({ ...s3.env, MAX_PDF_BYTES: String(6 * MiB) });
    try {
      expect(t.services.storage.kind).toBe("s3");
      const { access_token } = await registerUser(t, "creator");
      const before = s3.files().length;
      const ok = await uploadContent(
        t,
        access_token,
        { title: "On S3", type: "pdf", price: "10" },
        { file: FIXTURES.pdf(5000), thumbnail: FIXTURES.png() },
      );
      expect(ok.status).toBe(201);
      const { content } = await ok.json();
      expect(s3.files().length).toBeGreaterThan(before);
      const part = await t.request(content.fileUrl, { headers: { ...bearer(access_token), range: "bytes=0-4" } });
      expect(part.status).toBe(206);
      expect(new TextDecoder().decode(await part.arrayBuffer())).toBe("%PDF-");
      expect((await t.request(content.thumbnailUrl)).status).toBe(200);

      const snapshot = s3.files();
      const big = await uploadContent(
        t,
        access_token,
        { title: "Too big", type: "pdf" },
        { thumbnail: FIXTURES.png(), file: FIXTURES.pdf(6 * MiB + 1) },
      );
      expect(big.status).toBe(413);
      expect(s3.files()).toEqual(snapshot);

      const del = await t.request(`/api/content/${content._id}`, { method: "DELETE", headers: bearer(access_token) });
      expect((await del.json()).archived).toBe(false);
      expect(s3.files().length).toBe(before);
    } finally {
      await t.close();
    }
  });
});
