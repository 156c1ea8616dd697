/** Where uploaded files live: local disk or S3-compatible object storage (one interface). */
export interface ObjectInfo {
  size: number;
}

export interface ByteRange {
  /** Inclusive. */
  start: number;
  /** Inclusive. */
  end: number;
}

/** An object's bytes, whole in memory (small reads) or as a stream, and its full size. */
export interface StoredObject {
  body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>;
  size: number;
}

export interface Storage {
  readonly kind: "disk" | "s3";
  /**
   * Streams `body` to `key`. Past `maxBytes` the write is abandoned, nothing is left behind, and
   * a TooLargeError is thrown. The object appears only once complete.
   */
  put(
    key: string,
    body: ReadableStream<Uint8Array>,
    options: { maxBytes: number; contentType?: string },
  ): Promise<ObjectInfo>;
  /** The object's bytes (or the requested range of them), or null when it does not exist. */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  stat(key: string): Promise<ObjectInfo | null>;
  delete(key: string): Promise<void>;
  /**
   * Removes what writes cut short by a crash left behind (never a stored object), before this
   * process stores anything; answers how many were removed.
   */
  removeLeftovers(): Promise<number>;
}

export class TooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/** Stops a stream after `maxBytes`, erroring with TooLargeError. */
export function limitStream(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) controller.error(new TooLargeError(maxBytes));
      else controller.enqueue(chunk);
    },
  });
}
