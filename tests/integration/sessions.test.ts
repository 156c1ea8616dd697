import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { SessionStore, LIFETIMES, REFRESH_REUSE_GRACE_MS } from "../../server/auth/sessions.ts";
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

describe("refresh tokens", () => {
  const rowOf = async (token: string) =>
    (
      await testDb.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, hashToken(token)))
    )[0];
  const familyRows = async (familyId: string) =>
    testDb.database.db.select().from(sessions).where(eq(sessions.familyId, familyId));

  it("rotate once however many uses of one token arrive together: every use gets the same new pair", async () => {
    const first = await store.issueApiTokens(userId, "localhost");
    const { familyId } = await rowOf(first.refresh_token);
    const uses = await Promise.all(Array.from({ length: 5 }, () => store.refresh(first.refresh_token, "localhost")));
    const pairs = uses.map((use) => (use.ok ? use.tokens : use.reason));
    expect(new Set(pairs.map((pair) => JSON.stringify(pair))).size).toBe(1);
    expect(pairs[0]).toMatchObject({ refresh_token: expect.any(String), access_token: expect.any(String) });
    // The first pair and one successor pair: nobody else was issued tokens or revoked.
    const rows = await familyRows(familyId!);
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => row.revokedAt === null)).toBe(true);
    expect(
      await store.validate((pairs[0] as { access_token: string }).access_token, "localhost", "access"),
    ).not.toBeNull();
  });

  it("give a token used again within the grace the same pair, sealed so the database alone cannot read it", async () => {
    const first = await store.issueApiTokens(userId, "localhost");
    const rotated = await store.refresh(first.refresh_token, "localhost");
    if (!rotated.ok) throw new Error("the first refresh should rotate");
    const { successor } = await rowOf(first.refresh_token);
    expect(successor).toBeTruthy();
    expect(successor).not.toContain(rotated.tokens.refresh_token);
    expect(successor).not.toContain(rotated.tokens.access_token);

    clock += REFRESH_REUSE_GRACE_MS - 1000;
    expect(await store.refresh(first.refresh_token, "localhost")).toEqual(rotated);
    expect(await store.validate(rotated.tokens.access_token, "localhost", "access")).not.toBeNull();
    // The new refresh token rotates as usual.
    expect((await store.refresh(rotated.tokens.refresh_token, "localhost")).ok).toBe(true);
  });

  it("revoke the whole login when a rotated token comes back after the grace", async () => {
    const first = await store.issueApiTokens(userId, "localhost");
    const rotated = await store.refresh(first.refresh_token, "localhost");
    if (!rotated.ok) throw new Error("the first refresh should rotate");
    clock += REFRESH_REUSE_GRACE_MS;
    expect(await store.refresh(first.refresh_token, "localhost")).toEqual({ ok: false, reason: "reused" });
    expect(await store.validate(rotated.tokens.access_token, "localhost", "access")).toBeNull();
    expect((await store.refresh(rotated.tokens.refresh_token, "localhost")).ok).toBe(false);
    const rows = await familyRows((await rowOf(first.refresh_token)).familyId!);
    expect(rows.every((row) => row.revokedAt !== null && row.successor === null)).toBe(true);
  });

  it("give nothing within the grace once the login was signed out", async () => {
    const first = await store.issueApiTokens(userId, "localhost");
    const rotated = await store.refresh(first.refresh_token, "localhost");
    if (!rotated.ok) throw new Error("the first refresh should rotate");
    const access = await store.validate(rotated.tokens.access_token, "localhost", "access");
    await store.revoke(access!.session);
    expect(await store.refresh(first.refresh_token, "localhost")).toEqual({ ok: false, reason: "reused" });
  });

  it("keep a successor pair only until the grace is over", async () => {
    const first = await store.issueApiTokens(userId, "localhost");
    await store.refresh(first.refresh_token, "localhost");
    await store.purgeExpired();
    expect((await rowOf(first.refresh_token)).successor).not.toBeNull();
    clock += REFRESH_REUSE_GRACE_MS;
    await store.purgeExpired();
    expect((await rowOf(first.refresh_token)).successor).toBeNull();
  });
});
