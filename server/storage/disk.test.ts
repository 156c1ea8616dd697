import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DiskStorage, PARTIAL_DIR } from "./disk.ts";
import { TooLargeError } from "./types.ts";
import { OpenFiles } from "./open-files.ts";

let dir: string;
let openFiles: OpenFiles;
let storage: DiskStorage;

const bytes = (length: number) => {
  const data = new Uint8Array(length);
  for (let i = 0; i < length; i++) data[i] = (i * 31 + 7) % 251;
  return data;
};
/** Byte-for-byte check of megabytes: vitest's deep equality walks a typed array element by element and takes seconds on a slow CI machine. */
const expectSameBytes = (actual: Uint8Array, expected: Uint8Array) => {
  expect(actual.byteLength).toBe(expected.byteLength);
  expect(Buffer.compare(actual, expected), "bytes differ").toBe(0);
};
const put = (key: string, data: Uint8Array) =>
  storage.put(key, new Blob([data as Uint8Array<ArrayBuffer>]).stream(), { maxBytes: data.byteLength });
const read = async (body: ReadableStream<Uint8Array> | Uint8Array) =>
  new Uint8Array(await new Response(body as BodyInit).arrayBuffer());

const setUp = (cacheBytes: number) => {
  dir = mkdtempSync(join(tmpdir(), "pathshala-disk-"));
  openFiles = new OpenFiles();
  storage = new DiskStorage(dir, { openFiles, cacheBytes });
};
afterEach(() => {
  openFiles.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ["without", 0],
  ["with", 64 * 1024 * 1024],
])("DiskStorage reads, %s blocks kept in memory", (_, cacheBytes) => {
  beforeEach(() => setUp(cacheBytes));

  it("gives a small file or range as one buffer, with the file's full size", async () => {
    const data = bytes(100_000);
    await put("files/a.bin", data);
    expect(await storage.stat("files/a.bin")).toEqual({ size: 100_000 });
    const whole = (await storage.get("files/a.bin"))!;
    expect(whole.body).toBeInstanceOf(Uint8Array);
    expect(whole.body).toEqual(Buffer.from(data));
    const part = (await storage.get("files/a.bin", { start: 1000, end: 66_535 }))!;
    expect(part.size).toBe(100_000);
    expect(part.body).toEqual(Buffer.from(data.subarray(1000, 66_536)));
  });

  it("streams a large range chunk by chunk, byte for byte", async () => {
    const data = bytes(3 * 1024 * 1024 + 123);
    await put("files/video.mp4", data);
    const whole = (await storage.get("files/video.mp4"))!;
    expect(whole.body).toBeInstanceOf(ReadableStream);
    expectSameBytes(await read(whole.body), data);
    const part = (await storage.get("files/video.mp4", { start: 5, end: 2_000_004 }))!;
    expectSameBytes(await read(part.body), data.subarray(5, 2_000_005));
  });

  it("answers null for a key never stored or deleted, though its file was open", async () => {
    expect(await storage.get("files/none")).toBeNull();
    expect(await storage.stat("files/none")).toBeNull();
    await put("files/gone.pdf", bytes(10));
    expect(await storage.stat("files/gone.pdf")).toEqual({ size: 10 });
    await storage.delete("files/gone.pdf");
    expect(await storage.get("files/gone.pdf")).toBeNull();
    expect(await storage.stat("files/gone.pdf")).toBeNull();
  });

  it("serves the new bytes once a key is written again", async () => {
    await put("files/k", bytes(10));
    expect((await storage.get("files/k"))!.size).toBe(10);
    await put("files/k", bytes(20));
    const again = (await storage.get("files/k"))!;
    expect(again.size).toBe(20);
    expect(await read(again.body)).toEqual(bytes(20));
  });

  it("ends a streamed read's hold on its file when the stream is read to the end", async () => {
    await put("files/whole", bytes(2 * 1024 * 1024));
    const acquire = vi.spyOn(openFiles, "acquire");
    const { body } = (await storage.get("files/whole"))!;
    const { handle } = (await acquire.mock.results[0].value)!;
    expect((await read(body)).byteLength).toBe(2 * 1024 * 1024);
    await storage.delete("files/whole");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handle.fd).toBe(-1);
  });

  it("closes a streamed read's file once the reader cancels, when it was forgotten meanwhile", async () => {
    await put("files/big", bytes(2 * 1024 * 1024));
    const acquire = vi.spyOn(openFiles, "acquire");
    const { body } = (await storage.get("files/big"))!;
    const { handle } = (await acquire.mock.results[0].value)!;
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).value!.byteLength).toBe(256 * 1024);
    await storage.delete("files/big");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handle.fd).not.toBe(-1); // still being read
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handle.fd).toBe(-1);
  });
});

describe("DiskStorage writes", () => {
  beforeEach(() => setUp(0));
  /** Every file under the root, as paths relative to it. */
  const files = () =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
      .sort();

  it("keeps no unfinished file once a write completes or fails", async () => {
    await put("content/done.pdf", bytes(1000));
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes(64 * 1024));
      },
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    await expect(storage.put("content/cut.mp4", failing, { maxBytes: 1024 * 1024 })).rejects.toThrow(
      "connection reset",
    );
    await expect(
      storage.put("content/big.mp4", new Blob([bytes(2000)]).stream(), { maxBytes: 1000 }),
    ).rejects.toBeInstanceOf(TooLargeError);
    expect(files()).toEqual(["content/done.pdf"]);
  });

  it("writes an unfinished file in its own process's folder, and refuses keys there", async () => {
    let release!: () => void;
    const held = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes(10));
      },
      pull(controller) {
        return new Promise<void>((resolve) => (release = resolve)).then(() => controller.close());
      },
    });
    const writing = storage.put("content/slow.pdf", held, { maxBytes: 100 });
    await vi.waitFor(() =>
      expect(files()).toEqual([expect.stringMatching(new RegExp(`^\\${PARTIAL_DIR}/${process.pid}/[0-9a-f-]{36}$`))]),
    );
    release();
    await writing;
    expect(files()).toEqual(["content/slow.pdf"]);
    await expect(put(`${PARTIAL_DIR}/${process.pid}/x`, bytes(1))).rejects.toThrow("Invalid storage key");
  });

  it("removes unfinished files of processes that are gone, and of this one's id, and nothing else", async () => {
    await put("content/kept.pdf", bytes(10));
    await put("thumbnails/kept.png", bytes(10));
    const leave = (folder: string, name: string) => {
      mkdirSync(join(dir, PARTIAL_DIR, folder), { recursive: true });
      writeFileSync(join(dir, PARTIAL_DIR, folder, name), "x");
    };
    leave("4000001", "a");
    leave("4000001", "b");
    leave(String(process.pid), "c");
    leave("4000002", "d");
    writeFileSync(join(dir, PARTIAL_DIR, "stray"), "x");
    // 4000002 stands for another server process still running on the same folder (a cluster worker).
    expect(await storage.removeLeftovers((pid) => pid === 4000002)).toBe(4);
    expect(files()).toEqual([".partial/4000002/d", "content/kept.pdf", "thumbnails/kept.png"]);
    expect(await storage.removeLeftovers((pid) => pid === 4000002)).toBe(0);
  });

  it("has nothing to remove in a new folder", async () => {
    expect(await storage.removeLeftovers()).toBe(0);
  });
});
