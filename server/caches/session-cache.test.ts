import { describe, expect, it } from "vitest";
import { SESSIONS_CHANNEL, SessionCache } from "./session-cache.ts";

/** A database stand-in whose announcements the test makes by hand. */
function fakeDatabase() {
  const handlers = new Map<string, (payload: string) => void>();
  const db = {
    up: true,
    listen(channel: string, onMessage: (payload: string) => void) {
      handlers.set(channel, onMessage);
      return () => handlers.delete(channel);
    },
    listening: () => db.up,
    announce: (payload: string) => handlers.get(SESSIONS_CHANNEL)?.(payload),
  };
  return db;
}

type Row = { session: { id: string }; user: { id: string } };
const row = (userId: string, sessionId = `session-of-${userId}`): Row => ({
  session: { id: sessionId },
  user: { id: userId },
});

/**
 * A cache and a lookup through it that says whether the database was asked: `found` is what the
 * database would answer now (a row, or undefined for no such session).
 */
function connectedCache(options?: { maxEntries?: number; maxAgeMs?: number }, connected = true) {
  const database = fakeDatabase();
  const cache = new SessionCache<Row>(database, options);
  if (connected) database.announce("*");
  const lookup = async (sessionId: string, found: Row | undefined, now = 0) => {
    let asked = false;
    const answer = await cache.lookup(
      sessionId,
      async () => {
        asked = true;
        return found;
      },
      now,
    );
    return { answer, fromMemory: !asked };
  };
  /** Looks up session `sessionId` of user `userId` (which the database holds): whether memory answered. */
  const fromMemory = async (sessionId: string, userId: string, now?: number) =>
    (await lookup(sessionId, row(userId, sessionId), now)).fromMemory;
  return { database, cache, lookup, fromMemory };
}

describe("session cache", () => {
  it("keeps nothing until the listener has said it is connected", async () => {
    const { database, lookup } = connectedCache(undefined, false);
    await lookup("s1", row("u1"));
    expect((await lookup("s1", row("u1"))).fromMemory).toBe(false);
    database.announce("*");
    await lookup("s1", row("u1"));
    expect(await lookup("s1", undefined)).toEqual({ answer: row("u1"), fromMemory: true });
  });

  it("does not keep a session the database did not find", async () => {
    const { cache, lookup } = connectedCache();
    expect(await lookup("nope", undefined)).toEqual({ answer: undefined, fromMemory: false });
    expect(cache.size).toBe(0);
  });

  it("drops a session when the database announces that it changed", async () => {
    const { database, fromMemory } = connectedCache();
    await fromMemory("s1", "u1");
    await fromMemory("s2", "u2");
    database.announce("s:s1");
    expect(await fromMemory("s1", "u1")).toBe(false);
    expect(await fromMemory("s2", "u2")).toBe(true);
  });

  it("drops every session of a user when the user changed", async () => {
    const { database, fromMemory } = connectedCache();
    await fromMemory("a", "u1");
    await fromMemory("b", "u1");
    await fromMemory("c", "u2");
    database.announce("u:u1");
    expect(await fromMemory("a", "u1")).toBe(false);
    expect(await fromMemory("b", "u1")).toBe(false);
    expect(await fromMemory("c", "u2")).toBe(true);
  });

  it("forgets everything on '*' (too many changes to name, or the listener reconnected)", async () => {
    const { database, cache, fromMemory } = connectedCache();
    await fromMemory("a", "u1");
    database.announce("*");
    expect(cache.size).toBe(0);
  });

  it("does not store a row read before an announcement that arrived while it was being read", async () => {
    const { database, cache } = connectedCache();
    const read = cache.lookup("s1", async () => {
      database.announce("s:other");
      return row("u1", "s1");
    });
    expect(await read).toEqual(row("u1", "s1"));
    expect(cache.size).toBe(0);
  });

  it("trusts nothing while the listener is down, and nothing it held before once it is back", async () => {
    const { database, fromMemory } = connectedCache();
    await fromMemory("s1", "u1");
    database.up = false;
    expect(await fromMemory("s1", "u1")).toBe(false);
    await fromMemory("s2", "u2");
    database.up = true;
    database.announce("*");
    expect(await fromMemory("s1", "u1")).toBe(false);
    expect(await fromMemory("s2", "u2")).toBe(false);
  });

  it("re-reads an entry older than its maximum age", async () => {
    const { cache, lookup } = connectedCache({ maxAgeMs: 1000 });
    await lookup("s1", row("u1", "s1"), 5000);
    expect((await lookup("s1", row("u1", "s1"), 6000)).fromMemory).toBe(true);
    expect((await lookup("s1", undefined, 6001)).fromMemory).toBe(false);
    expect(cache.size).toBe(0);
  });

  it("holds at most maxEntries, dropping the oldest", async () => {
    const { database, cache, fromMemory } = connectedCache({ maxEntries: 2 });
    await fromMemory("a", "u1");
    await fromMemory("b", "u2");
    await fromMemory("c", "u3");
    expect(cache.size).toBe(2);
    // The evicted session's user no longer points at it.
    database.announce("u:u1");
    expect(await fromMemory("b", "u2")).toBe(true);
    expect(await fromMemory("a", "u1")).toBe(false);
  });

  it("forgets at once what this instance changed itself", async () => {
    const { cache, fromMemory } = connectedCache();
    await fromMemory("a", "u1");
    await fromMemory("b", "u2");
    cache.forgetSession("a");
    cache.forgetUser("u2");
    expect(cache.size).toBe(0);
    const read = cache.lookup("a", async () => {
      cache.forgetSession("a");
      return row("u1", "a");
    });
    await read;
    expect(cache.size).toBe(0);
  });
});
