import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type CompletedPart,
} from "@aws-sdk/client-s3";
import { limitStream, type ByteRange, type ObjectInfo, type Storage } from "./types.ts";

export interface S3StorageOptions {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Bytes per multipart part (S3's minimum is 5 MiB). */
  partSize?: number;
  /** Parts in flight at once; memory held is about partSize × (this + 1). */
  concurrency?: number;
  /** Called when cleaning up after a failed upload fails too (the bucket's lifecycle rule is the safety net). */
  onCleanupError?: (error: unknown) => void;
}

const MiB = 1024 * 1024;

export function createS3Client(
  options: Omit<S3StorageOptions, "bucket" | "partSize" | "concurrency" | "onCleanupError">,
): S3Client {
  return new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // Several S3-compatible stores (R2, older MinIO) reject the SDK's newer default checksum
    // headers; the parts we send are plain buffers, and S3 checks their MD5/ETag itself.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/**
 * S3-compatible object storage, so that several app instances share one set of files.
 * Uploads stream through fixed-size parts (multipart upload): memory use does not grow with the
 * file. A failed or oversized upload is aborted, so no object and no stray parts remain.
 */
export class S3Storage implements Storage {
  readonly kind = "s3" as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly partSize: number;
  private readonly concurrency: number;
  private readonly onCleanupError: (error: unknown) => void;

  constructor(options: S3StorageOptions, client: S3Client = createS3Client(options)) {
    this.client = client;
    this.bucket = options.bucket;
    this.partSize = Math.max(5 * MiB, options.partSize ?? 8 * MiB);
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.onCleanupError = options.onCleanupError ?? (() => {});
  }

  async put(
    key: string,
    body: ReadableStream<Uint8Array>,
    options: { maxBytes: number; contentType?: string },
  ): Promise<ObjectInfo> {
    const reader = body.pipeThrough(limitStream(options.maxBytes)).getReader();
    const parts = new PartCollector(this.partSize);
    let uploadId: string | undefined;
    const completed: CompletedPart[] = [];
    const inFlight = new Set<Promise<void>>();
    let failure: unknown;
    let size = 0;

    const sendPart = (partNumber: number, chunk: Buffer) => {
      const task = this.client
        .send(
          new UploadPartCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumber: partNumber,
            Body: chunk,
            ContentLength: chunk.byteLength,
          }),
        )
        .then((res) => {
          completed.push({ PartNumber: partNumber, ETag: res.ETag });
        })
        .catch((error) => {
          failure ??= error;
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    };

    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        parts.add(value);
        while (parts.hasFullPart()) {
          uploadId ??= await this.startMultipart(key, options.contentType);
          sendPart(parts.nextNumber(), parts.takeFull());
          // Backpressure: at most `concurrency` parts travel while the next one fills.
          while (inFlight.size >= this.concurrency) await Promise.race(inFlight);
          if (failure) throw failure;
        }
      }
      const rest = parts.takeRest();
      if (uploadId === undefined) {
        // Small enough for one request: no multipart bookkeeping.
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Body: rest,
            ContentLength: rest.byteLength,
            ContentType: options.contentType,
          }),
        );
        return { size };
      }
      if (rest.byteLength > 0) sendPart(parts.nextNumber(), rest);
      await Promise.all(inFlight);
      if (failure) throw failure;
      completed.sort((a, b) => a.PartNumber! - b.PartNumber!);
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: completed },
        }),
      );
      return { size };
    } catch (error) {
      await reader.cancel(error).catch(() => {});
      await Promise.allSettled(inFlight);
      if (uploadId !== undefined) {
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
          .catch(this.onCleanupError);
      }
      throw error;
    }
  }

  private async startMultipart(key: string, contentType: string | undefined): Promise<string> {
    const res = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
    );
    if (!res.UploadId) throw new Error("The object store did not start the upload");
    return res.UploadId;
  }

  async get(key: string, range?: ByteRange) {
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!res.Body) return null;
      const total = res.ContentRange ? Number(res.ContentRange.split("/")[1]) : Number(res.ContentLength ?? 0);
      return { body: res.Body.transformToWebStream() as ReadableStream<Uint8Array>, size: total };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(res.ContentLength ?? 0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * Nothing to do here: a multipart upload an instance could not abort (it crashed) is removed by
   * the bucket's lifecycle rule "abort incomplete multipart uploads after 1 day" (README, "Scaling
   * out"). Listing and aborting them here could end another instance's upload in progress.
   */
  async removeLeftovers(): Promise<number> {
    return 0;
  }
}

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.$metadata?.httpStatusCode === 404 || error.name === "NoSuchKey" || error.name === "NotFound")
  );
}

/** Gathers incoming chunks into parts of exactly `partSize` bytes (the last one may be shorter). */
class PartCollector {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private counter = 0;
  private readonly partSize: number;

  constructor(partSize: number) {
    this.partSize = partSize;
  }

  add(chunk: Uint8Array) {
    this.chunks.push(chunk);
    this.buffered += chunk.byteLength;
  }

  hasFullPart() {
    return this.buffered >= this.partSize;
  }

  nextNumber() {
    return ++this.counter;
  }

  takeFull(): Buffer {
    const all = Buffer.concat(this.chunks, this.buffered);
    const part = all.subarray(0, this.partSize);
    const rest = all.subarray(this.partSize);
    this.chunks = rest.byteLength ? [rest] : [];
    this.buffered = rest.byteLength;
    return part;
  }

  takeRest(): Buffer {
    const rest = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [];
    this.buffered = 0;
    return rest;
  }
}
