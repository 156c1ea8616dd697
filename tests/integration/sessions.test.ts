import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { SessionStore, LIFETIMES } from "../../server/auth/sessions.ts";
import { sessions, users } from "../../server/db/schema/index.ts";
import { hashToken } from "../../server/auth/tokens.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

let testDb: TestDatabase;
let userId: string;
let clock = Date.parse("2026-01-01T00:00:00Z");
let store: SessionStore;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const [row] = await testDb.database.db
    .insert(users)
    .values({ name: "Clock", email: "clock@example.com", passwordHash: "x", role: "student" })
    .returning({ id: users.id });
  userId = row.id;
  store = new SessionStore(testDb.database.db, () => clock);
});
afterAll(() => testDb.drop());

describe("web sessions", () => {
  it("store only the token's hash", async () => {
    const { token } = await store.createWebSession(userId, "localhost", false);
    const rows = await testDb.database.db.select().from(sessions).where(eq(sessions.userId, userId));
    expect(rows.some((r) => r.id === token)).toBe(false);
    expect(rows.some((r) => r.id === hashToken(token))).toBe(true);
    expect(token.length).toBeGreaterThanOrEqual(32);
  });

  it("slide with use, expire when idle, and stop at the absolute cap", async () => {
    const start = clock;
    const { token } = await store.createWebSession(userId, "localhost", false);
    // Used every 11 hours, it stays alive past the idle window…
    for (let i = 1; i <= 10; i++) {
      clock = start + i * 11 * 3600_000;
      const found = await store.validate(token, "localhost", "web");
      expect(found, `use ${i}`).not.toBeNull();
    }
    // …but never beyond the absolute cap.
    clock = start + LIFETIMES.webAbsolute + 1000;
    expect(await store.validate(token, "localhost", "web")).toBeNull();

    const idle = await store.createWebSession(userId, "localhost", false);
    clock += LIFETIMES.webIdle + 1000;
    expect(await store.validate(idle.token, "localhost", "web")).toBeNull();
  });

  it("remembered sessions idle longer", async () => {
    const { token } = await store.createWebSession(userId, "localhost", true);
    clock += 20 * 24 * 3600_000;
    const found = await store.validate(token, "localhost", "web");
    expect(found?.session.persistent).toBe(true);
    expect(found?.session.extended).toBe(true);
  });

  it("are valid only on their host and until revoked", async () => {
    const { token } = await store.createWebSession(userId, "acme.test", false);
    expect(await store.validate(token, "localhost", "web")).toBeNull();
    const found = await store.validate(token, "acme.test", "web");
    expect(found?.user.email).toBe("clock@example.com");
    await store.revoke(found!.session);
    expect(await store.validate(token, "acme.test", "web")).toBeNull();
  });

  it("revokeAllForUser ends every session of the person", async () => {
    const a = await store.createWebSession(userId, "localhost", false);
    const api = await store.issueApiTokens(userId, "localhost");
    await store.revokeAllForUser(userId);
    expect(await store.validate(a.token, "localhost", "web")).toBeNull();
    expect(await store.validate(api.access_token, "localhost", "access")).toBeNull();
  });

  it("purges what can no longer be used", async () => {
    clock += 400 * 24 * 3600_000;
    expect(await store.purgeExpired()).toBeGreaterThan(0);
    expect(await testDb.database.db.select().from(sessions)).toEqual([]);
  });
});
