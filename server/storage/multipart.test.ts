import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DiskStorage } from "./disk.ts";
import { cleanFileName, INTERRUPTED, receiveMultipart, type MultipartOptions } from "./multipart.ts";

const BOUNDARY = "----pathshala-unit";
const encoder = new TextEncoder();
const filePart = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nNotes\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="notes.bin"\r\n\r\n`;
const headers = new Headers({ "content-type": `multipart/form-data; boundary=${BOUNDARY}` });

let dir: string;
let options: MultipartOptions;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pathshala-multipart-"));
  options = {
    storage: new DiskStorage(dir),
    files: {
      file: () => ({
        key: `content/${crypto.randomUUID()}.bin`,
        maxBytes: 1024 * 1024,
        contentType: "application/octet-stream",
        tooLargeMessage: "Too large.",
      }),
    },
    maxBodyBytes: 2 * 1024 * 1024,
    tooLargeMessage: "Too large.",
  };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const files = () => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

/** A body that sends the start of a file and then waits, as a connection does while its client is silent. */
function stalledBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(filePart));
      controller.enqueue(new Uint8Array(64 * 1024).fill(7));
    },
    pull: () => new Promise(() => {}),
  });
}

describe("receiveMultipart and the request's signal", () => {
  it("fails the upload at once when the connection closes, though the body stream never breaks, and keeps nothing", async () => {
    const closed = new AbortController();
    const upload = receiveMultipart({ body: stalledBody(), headers, signal: closed.signal }, options);
    // The file is being written…
    await vi.waitFor(() => expect(files().length).toBe(1));
    closed.abort();
    await expect(upload).rejects.toMatchObject({ status: 400, message: INTERRUPTED });
    expect(files()).toEqual([]);
  });

  it("refuses a request whose connection closed before it was read", async () => {
    const closed = new AbortController();
    closed.abort();
    await expect(
      receiveMultipart({ body: stalledBody(), headers, signal: closed.signal }, options),
    ).rejects.toMatchObject({ status: 400, message: INTERRUPTED });
    expect(files()).toEqual([]);
  });

  it("leaves a received upload to the caller when the connection closes afterwards", async () => {
    const closed = new AbortController();
    const body = new Blob([filePart, "0123456789", `\r\n--${BOUNDARY}--\r\n`]).stream();
    const { fields, files: received } = await receiveMultipart({ body, headers, signal: closed.signal }, options);
    closed.abort();
    expect(fields).toEqual({ title: "Notes" });
    expect(received.file.size).toBe(10);
    expect(await options.storage.stat(received.file.key)).toEqual({ size: 10 });
  });
});

describe("cleanFileName", () => {
  it("keeps a browser's file name readable and storable", () => {
    expect(cleanFileName("C:\\Users\\ravi\\notes.pdf")).toBe("notes.pdf");
    expect(cleanFileName('say "hi"\u0007.pdf')).toBe("say hi.pdf");
    expect(cleanFileName("  ")).toBe("file");
    // Cut at 200 characters, never inside one: no half an emoji.
    const cut = cleanFileName(`${"a".repeat(199)}📚📚.pdf`);
    expect(cut).toBe(`${"a".repeat(199)}📚`);
    expect(cut.isWellFormed()).toBe(true);
  });
});
