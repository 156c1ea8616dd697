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

const row = (userId: string, sessionId = `session-of-${userId}`) => ({ session: { id: sessionId }, user: { id: userId } });

function connectedCache(options?: { maxEntries?: number; maxAgeMs?: number }) {
  const database = fakeDatabase();
  const cache = new SessionCache<ReturnType<typeof row>>(database, options);
  database.announce("*");
  return { database, cache };
}

describe("session cache", () => {
  it("keeps nothing until the listener has said it is connected", () => {
    const database = fakeDatabase();
    const cache = new SessionCache<ReturnType<typeof row>>(database);
    cache.set("s1", row("u1"), cache.mark(), 0);
    expect(cache.get("s1", 0)).toBeUndefined();
    database.announce("*");
    cache.set("s1", row("u1"), cache.mark(), 0);
    expect(cache.get("s1", 0)).toEqual(row("u1"));
  });

  it("drops a session when the database announces that it changed", () => {
    const { database, cache } = connectedCache();
    cache.set("s1", row("u1", "s1"), cache.mark(), 0);
    cache.set("s2", row("u2", "s2"), cache.mark(), 0);
    database.announce("s:s1");
    expect(cache.get("s1", 0)).toBeUndefined();
    expect(cache.get("s2", 0)).toEqual(row("u2", "s2"));
  });

  it("drops every session of a user when the user changed", () => {
    const { database, cache } = connectedCache();
    cache.set("a", row("u1", "a"), cache.mark(), 0);
    cache.set("b", row("u1", "b"), cache.mark(), 0);
    cache.set("c", row("u2", "c"), cache.mark(), 0);
    database.announce("u:u1");
    expect(cache.get("a", 0)).toBeUndefined();
    expect(cache.get("b", 0)).toBeUndefined();
    expect(cache.get("c", 0)).toEqual(row("u2", "c"));
  });

  it("forgets everything on '*' (too many changes to name, or the listener reconnected)", () => {
    const { database, cache } = connectedCache();
    cache.set("a", row("u1", "a"), cache.mark(), 0);
    database.announce("*");
    expect(cache.size).toBe(0);
  });

  it("does not store a row read before an announcement that arrived while it was being read", () => {
    const { database, cache } = connectedCache();
    const before = cache.mark();
    database.announce("s:other");
    cache.set("s1", row("u1", "s1"), before, 0);
    expect(cache.get("s1", 0)).toBeUndefined();
  });

  it("trusts nothing while the listener is down, and nothing it held before once it is back", () => {
    const { database, cache } = connectedCache();
    cache.set("s1", row("u1", "s1"), cache.mark(), 0);
    database.up = false;
    expect(cache.get("s1", 0)).toBeUndefined();
    cache.set("s2", row("u2", "s2"), cache.mark(), 0);
    database.up = true;
    database.announce("*");
    expect(cache.get("s1", 0)).toBeUndefined();
    expect(cache.get("s2", 0)).toBeUndefined();
  });

  it("re-reads an entry older than its maximum age", () => {
    const { cache } = connectedCache({ maxAgeMs: 1000 });
    cache.set("s1", row("u1", "s1"), cache.mark(), 5000);
    expect(cache.get("s1", 6000)).toEqual(row("u1", "s1"));
    expect(cache.get("s1", 6001)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("lets go of entries past their age as new ones come in, so it holds only recent sessions", () => {
    const { cache } = connectedCache({ maxAgeMs: 1000 });
    for (let i = 0; i < 50; i++) cache.set(`old-${i}`, row(`u${i}`, `old-${i}`), cache.mark(), 0);
    expect(cache.size).toBe(50);
    cache.set("new", row("fresh", "new"), cache.mark(), 1001);
    expect(cache.size).toBe(1);
    expect(cache.get("new", 1001)).toEqual(row("fresh", "new"));
  });

  it("holds at most maxEntries, dropping the oldest", () => {
    const { database, cache } = connectedCache({ maxEntries: 2 });
    cache.set("a", row("u1", "a"), cache.mark(), 0);
    cache.set("b", row("u2", "b"), cache.mark(), 0);
    cache.set("c", row("u3", "c"), cache.mark(), 0);
    expect(cache.size).toBe(2);
    expect(cache.get("a", 0)).toBeUndefined();
    // The evicted session's user no longer points at it.
    database.announce("u:u1");
    expect(cache.get("b", 0)).toEqual(row("u2", "b"));
  });

  it("forgets at once what this instance changed itself", () => {
    const { cache } = connectedCache();
    cache.set("a", row("u1", "a"), cache.mark(), 0);
    cache.set("b", row("u2", "b"), cache.mark(), 0);
    const before = cache.mark();
    cache.forgetSession("a");
    cache.forgetUser("u2");
    expect(cache.size).toBe(0);
    cache.set("a", row("u1", "a"), before, 0);
    expect(cache.get("a", 0)).toBeUndefined();
  });
});
