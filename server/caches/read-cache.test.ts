import { describe, expect, it } from "vitest";
import { READS_CHANNEL, ReadCaches, readTags } from "./read-cache.ts";
import { runInTenantScope } from "../db/tenant-scope.ts";

/** A database whose announcements the test sends by hand, and whose listener it can take down. */
function fakeDatabase() {
  const listeners: ((payload: string) => void)[] = [];
  const database = {
    up: true,
    listening: () => database.up,
    listen(channel: string, onMessage: (payload: string) => void) {
      expect(channel).toBe(READS_CHANNEL);
      listeners.push(onMessage);
      return () => {};
    },
    announce: (payload: string) => listeners.forEach((listener) => listener(payload)),
  };
  return database;
}

/** A cache on a connected listener, and a loader that counts its calls. */
function setUp(options?: { maxEntries?: number; maxAgeMs?: number }) {
  const database = fakeDatabase();
  const reads = new ReadCaches(database);
  const cache = reads.create<string>(options);
  database.announce("*");
  let loads = 0;
  const read = (key: string, value = `${key}#${loads + 1}`, tags: string[] = [readTags.student(key)], now?: number) =>
    cache.read(
      key,
      async () => {
        loads++;
        return value;
      },
      () => tags,
      now,
    );
  return { database, reads, cache, read, loads: () => loads };
}

describe("ReadCache", () => {
  it("answers from memory once read", async () => {
    const { read, loads } = setUp();
    expect(await read("a")).toBe("a#1");
    expect(await read("a")).toBe("a#1");
    expect(loads()).toBe(1);
  });

  it("drops what was made from an announced tag, and everything on '*'", async () => {
    const { database, read, loads } = setUp();
    await read("a", "a1", ["student:a", "content:x"]);
    await read("b", "b1", ["student:b", "content:x"]);
    await read("c", "c1", ["student:c"]);
    database.announce("content:x");
    expect(await read("a", "a2")).toBe("a2");
    expect(await read("b", "b2")).toBe("b2");
    expect(await read("c", "c2")).toBe("c1");
    database.announce("*");
    expect(await read("c", "c3")).toBe("c3");
    expect(loads()).toBe(6);
  });

  it("never keeps 'nothing found'", async () => {
    const database = fakeDatabase();
    const cache = new ReadCaches(database).create<string | undefined>();
    database.announce("*");
    let loads = 0;
    const read = () =>
      cache.read(
        "missing",
        async () => (loads++, undefined),
        () => ["content:missing"],
      );
    expect([await read(), await read()]).toEqual([undefined, undefined]);
    expect(loads).toBe(2);
    expect(cache.size).toBe(0);
  });

  it("forgets at once what this instance changed", async () => {
    const { reads, read } = setUp();
    await read("a", "old");
    reads.forget(readTags.student("a"));
    expect(await read("a", "new")).toBe("new");
  });

  it("does not keep an answer read across an announcement", async () => {
    const { database, cache } = setUp();
    let release!: () => void;
    const slow = cache.read(
      "a",
      () => new Promise<string>((resolve) => (release = () => resolve("stale"))),
      () => ["student:a"],
    );
    await Promise.resolve();
    database.announce("student:a");
    release();
    expect(await slow).toBe("stale");
    expect(
      await cache.read(
        "a",
        async () => "fresh",
        () => ["student:a"],
      ),
    ).toBe("fresh");
  });

  it("keeps nothing before the listener has said it is connected, or while it is down", async () => {
    const database = fakeDatabase();
    const cache = new ReadCaches(database).create<number>();
    let n = 0;
    const read = () =>
      cache.read(
        "k",
        async () => ++n,
        () => [],
      );
    expect([await read(), await read()]).toEqual([1, 2]);
    database.announce("*");
    expect([await read(), await read()]).toEqual([3, 3]);
    database.up = false;
    expect(await read()).toBe(4);
    database.up = true;
    database.announce("*");
    expect([await read(), await read()]).toEqual([5, 5]);
  });

  it("ages entries out, and holds at most maxEntries", async () => {
    const { cache, read } = setUp({ maxEntries: 2, maxAgeMs: 1000 });
    await read("a", "a1", [], 0);
    expect(await read("a", "a2", [], 1000)).toBe("a1");
    expect(await read("a", "a3", [], 1001)).toBe("a3");
    await read("b", "b1", [], 1001);
    await read("c", "c1", [], 1001);
    expect(cache.size).toBe(2);
    expect(await read("a", "a4", [], 1001)).toBe("a4");
  });

  it("keeps each institute's answer apart (row-level security answers each domain differently)", async () => {
    const { read } = setUp();
    expect(await runInTenantScope("center-1", () => read("a", "on center 1"))).toBe("on center 1");
    expect(await runInTenantScope("center-2", () => read("a", "on center 2"))).toBe("on center 2");
    expect(await read("a", "on the platform")).toBe("on the platform");
    expect(await runInTenantScope("center-1", () => read("a", "again"))).toBe("on center 1");
  });
});
