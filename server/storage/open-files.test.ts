import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OpenFiles } from "./open-files.ts";

let dir: string;
let files: OpenFiles;
const fileAt = (name: string, text = name) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
/** A FileHandle's fd is -1 once it is closed. */
const isClosed = (handle: { fd: number }) => handle.fd === -1;
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pathshala-open-files-"));
});
afterEach(() => {
  files?.close();
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

describe("OpenFiles", () => {
  it("opens a file once for any number of reads, with its size", async () => {
    files = new OpenFiles();
    const path = fileAt("a", "hello");
    const [first, second] = await Promise.all([files.acquire(path), files.acquire(path)]);
    expect(first!.size).toBe(5);
    expect(second!.handle).toBe(first!.handle);
    first!.release();
    second!.release();
    const third = await files.acquire(path);
    expect(third!.handle).toBe(first!.handle);
    expect(files.size).toBe(1);
  });

  it("answers null for a missing file or a directory, and keeps nothing for them", async () => {
    files = new OpenFiles();
    expect(await files.acquire(join(dir, "missing"))).toBeNull();
    expect(await files.acquire(dir)).toBeNull();
    expect(files.size).toBe(0);
  });

  it("closes a forgotten file only when its last read ends, and opens the path afresh after", async () => {
    files = new OpenFiles();
    const path = fileAt("a", "old");
    const reading = (await files.acquire(path))!;
    files.forget(path);
    await settle();
    expect(isClosed(reading.handle)).toBe(false);
    const buffer = Buffer.alloc(3);
    await reading.handle.read(buffer, 0, 3, 0);
    expect(buffer.toString()).toBe("old");
    writeFileSync(path, "newer");
    const fresh = (await files.acquire(path))!;
    expect(fresh.size).toBe(5);
    reading.release();
    reading.release(); // a second release changes nothing
    await settle();
    expect(isClosed(reading.handle)).toBe(true);
    expect(isClosed(fresh.handle)).toBe(false);
    fresh.release();
  });

  it("keeps at most `max` files, closing the least recently used", async () => {
    files = new OpenFiles({ max: 2 });
    const leases = [];
    for (const name of ["a", "b", "a", "c"]) {
      const lease = (await files.acquire(fileAt(name)))!;
      lease.release();
      leases.push(lease);
    }
    await settle();
    expect(files.size).toBe(2);
    expect(isClosed(leases[1].handle)).toBe(true); // b: used before a's second read
    expect(isClosed(leases[0].handle)).toBe(false);
    expect(isClosed(leases[3].handle)).toBe(false);
  });

  it("closes files left unused for idleMs, never one in use", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "Date"] });
    files = new OpenFiles({ idleMs: 10_000 });
    const idle = (await files.acquire(fileAt("idle")))!;
    idle.release();
    const busy = (await files.acquire(fileAt("busy")))!;
    vi.advanceTimersByTime(25_000);
    vi.useRealTimers();
    await settle();
    expect(isClosed(idle.handle)).toBe(true);
    expect(isClosed(busy.handle)).toBe(false);
    expect(files.size).toBe(1);
    busy.release();
  });
});
