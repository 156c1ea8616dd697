import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { openDatabase } from "../../server/db/open.ts";
import type { Database } from "../../server/db/types.ts";
import { sessions, users } from "../../server/db/schema/index.ts";
import { REFRESH_REUSE_GRACE_MS, SessionStore, type SessionRow } from "../../server/auth/sessions.ts";
import { hashToken } from "../../server/auth/tokens.ts";
import { SessionCache } from "../../server/caches/session-cache.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { waitFor } from "../helpers/wait.ts";

/**
 * Two instances on one PostgreSQL, each keeping checked sessions in memory: whatever changes a
 * session or its user, through the other instance or straight in SQL, is refused or seen within a
 * second everywhere.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const HOST = "localhost";

interface Instance {
  database: Database;
  cache: SessionCache<SessionRow>;
  store: SessionStore;
}

/** An app instance's session store on `database`, keeping checked sessions in its own cache. */
function instance(database: Database): Instance {
  const cache = new SessionCache<SessionRow>(database);
  return { database, cache, store: new SessionStore(database.db, Date.now, cache) };
}

let counter = 0;
/** A new student with a browser session made through `store`. */
async function newStudentSignedIn(database: Database, store: SessionStore, name: string) {
  const [user] = await database.db
    .insert(users)
    .values({ name, email: `${name}.${++counter}.${Date.now()}@example.com`, passwordHash: "x", role: "student" })
    .returning({ id: users.id });
  const { token } = await store.createWebSession(user.id, HOST, false);
  return { userId: user.id, token };
}

/** Waits until `on` keeps the sessions it checks: its listener's first "*" has arrived. */
async function untilTrusted(on: Instance, signedIn: (name: string) => Promise<{ token: string }>) {
  await waitFor(async () => {
    const probe = await signedIn("probe");
    await on.store.validate(probe.token, HOST, "web");
    return on.cache.size > 0;
  });
}

describe.skipIf(!onPostgres)("session cache across instances", () => {
  let testDb: TestDatabase;
  let a: Instance;
  let b: Instance;
  let other: Database;
  const signedIn = (name: string) => newStudentSignedIn(testDb.database, a.store, name);

  beforeAll(async () => {
    testDb = await createTestDatabase();
    other = await openDatabase({ databaseUrl: testDb.url, poolMax: 2 });
    a = instance(testDb.database);
    b = instance(other);
    await waitFor(() => a.database.listening() && b.database.listening());
    await untilTrusted(b, signedIn);
  });
  afterAll(async () => {
    await other?.close();
    await testDb?.drop();
  });

  /** Validates through B until it answers as expected (or a second has passed). */
  async function onB(token: string, expected: (found: Awaited<ReturnType<SessionStore["validate"]>>) => boolean) {
    await waitFor(async () => expected(await b.store.validate(token, HOST, "web")), 1000);
  }

  it("keeps a checked session in memory and answers it from there", async () => {
    const { token, userId } = await signedIn("kept");
    const first = await b.store.validate(token, HOST, "web");
    expect(first?.user.id).toBe(userId);
    // Change the row behind the cache's back (triggers off for this one statement): B still
    // answers from memory, so the lookup really is skipped.
    const client = await rawClient(testDb.url!);
    try {
      await client.query("begin");
      await client.query("set local session_replication_role = replica");
      await client.query("update users set name = 'Renamed quietly' where id = $1", [userId]);
      await client.query("commit");
    } finally {
      await client.end();
    }
    expect((await b.store.validate(token, HOST, "web"))?.user.name).toBe("kept");
  });

  it("refuses on B a session signed out through A, within a second", async () => {
    const { token } = await signedIn("signout");
    const found = await b.store.validate(token, HOST, "web");
    expect(found).not.toBeNull();
    await a.store.revoke(found!.session);
    await onB(token, (x) => x === null);
    // And A, which made the change, refuses it at once.
    expect(await a.store.validate(token, HOST, "web")).toBeNull();
  });

  it("refuses a session revoked or deleted straight in SQL", async () => {
    const revoked = await signedIn("sql-revoked");
    const deleted = await signedIn("sql-deleted");
    expect(await b.store.validate(revoked.token, HOST, "web")).not.toBeNull();
    expect(await b.store.validate(deleted.token, HOST, "web")).not.toBeNull();
    await other.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, revoked.userId));
    await other.db.delete(sessions).where(eq(sessions.userId, deleted.userId));
    await onB(revoked.token, (x) => x === null);
    await onB(deleted.token, (x) => x === null);
  });

  it("sees a user's new role at once everywhere, and refuses a deleted user's sessions", async () => {
    const promoted = await signedIn("promoted");
    const removed = await signedIn("removed");
    expect((await b.store.validate(promoted.token, HOST, "web"))?.user.role).toBe("student");
    expect(await b.store.validate(removed.token, HOST, "web")).not.toBeNull();
    await testDb.database.db.update(users).set({ role: "creator" }).where(eq(users.id, promoted.userId));
    await testDb.database.db.delete(users).where(eq(users.id, removed.userId));
    await onB(promoted.token, (x) => x?.user.role === "creator");
    await onB(removed.token, (x) => x === null);
  });

  it("forgets everything when a statement changes too many sessions to name, or the table is emptied", async () => {
    const { token, userId } = await signedIn("bulk");
    expect(await b.store.validate(token, HOST, "web")).not.toBeNull();
    // 1,001 rows changed by one statement: the database says "*" instead of naming each.
    const filler = await signedIn("filler");
    await testDb.database.db.execute(sql`
      insert into sessions (id, user_id, kind, host, created_at, last_used_at, expires_at, absolute_expires_at)
      select md5(random()::text || g::text), ${filler.userId}, 'web', 'localhost', now(), now(), now() + interval '1 hour', now() + interval '1 day'
      from generate_series(1, 1001) g`);
    await testDb.database.db.execute(
      sql`update sessions set revoked_at = now() where user_id in (${filler.userId}, ${userId})`,
    );
    await onB(token, (x) => x === null);

    const next = await signedIn("truncate");
    expect(await b.store.validate(next.token, HOST, "web")).not.toBeNull();
    await waitFor(() => b.cache.size > 0);
    // The application's role may not truncate; an operator's tool may.
    const owner = await rawClient(testDb.url!);
    await owner.query("truncate sessions").finally(() => owner.end());
    await waitFor(() => b.cache.size === 0, 1000);
    expect(await b.store.validate(next.token, HOST, "web")).toBeNull();
  });
});

/**
 * The embedded database: one process, so one instance; the triggers' announcements reach it
 * through PGlite's own listeners, whatever statement made the change.
 */
describe.skipIf(onPostgres)("session cache on the embedded database", () => {
  let testDb: TestDatabase;
  let one: Instance;
  const signedIn = (name: string) => newStudentSignedIn(testDb.database, one.store, name);

  beforeAll(async () => {
    testDb = await createTestDatabase();
    one = instance(testDb.database);
    await untilTrusted(one, signedIn);
  });
  afterAll(async () => {
    await testDb?.drop();
  });

  it("answers a checked session from memory", async () => {
    const { token, userId } = await signedIn("kept");
    expect((await one.store.validate(token, HOST, "web"))?.user.id).toBe(userId);
    // Behind the cache's back (triggers off for this one statement, as the database's owner):
    // the answer still comes from memory, so the lookup really is skipped.
    const { db } = testDb.database;
    await testDb.database.asOwner(() =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.update(users).set({ name: "Renamed quietly" }).where(eq(users.id, userId));
      }),
    );
    expect((await one.store.validate(token, HOST, "web"))?.user.name).toBe("kept");
  });

  it("refuses a session revoked or deleted in SQL, and sees a new role, at once", async () => {
    const revoked = await signedIn("sql-revoked");
    const deleted = await signedIn("sql-deleted");
    const promoted = await signedIn("promoted");
    for (const { token } of [revoked, deleted, promoted])
      expect(await one.store.validate(token, HOST, "web")).not.toBeNull();
    const { db } = testDb.database;
    await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, revoked.userId));
    await db.delete(sessions).where(eq(sessions.userId, deleted.userId));
    await db.update(users).set({ role: "creator" }).where(eq(users.id, promoted.userId));
    expect(await one.store.validate(revoked.token, HOST, "web")).toBeNull();
    expect(await one.store.validate(deleted.token, HOST, "web")).toBeNull();
    expect((await one.store.validate(promoted.token, HOST, "web"))?.user.role).toBe("creator");
  });
});

/**
 * The instance that revokes must not wait for the database's announcement: until it arrives
 * (milliseconds on PostgreSQL, later under load) a revoked token would still be honoured here.
 * This instance's listener is held deaf after its first "*", so only its own forgetting counts.
 */
describe("the revoking instance forgets at once", () => {
  let testDb: TestDatabase;
  let deaf: Instance;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    const database = testDb.database;
    deaf = instance({
      ...database,
      listen: (channel, onMessage) => database.listen(channel, (payload) => payload === "*" && onMessage(payload)),
    });
    await untilTrusted(deaf, (name) => newStudentSignedIn(database, deaf.store, name));
  });
  afterAll(async () => {
    await testDb?.drop();
  });

  async function apiLogin(name: string) {
    const { userId } = await newStudentSignedIn(testDb.database, deaf.store, name);
    const tokens = await deaf.store.issueApiTokens(userId, HOST);
    const access = await deaf.store.validate(tokens.access_token, HOST, "access");
    expect(access).not.toBeNull();
    return { tokens, access: access! };
  }

  it("refuses the family's access tokens after a refresh token is replayed", async () => {
    const { tokens } = await apiLogin("replayed");
    const rotated = await deaf.store.refresh(tokens.refresh_token, HOST);
    if (!rotated.ok) throw new Error("the first refresh should rotate");
    expect(await deaf.store.validate(rotated.tokens.access_token, HOST, "access")).not.toBeNull();
    // Replayed after the grace in which a second use gets the same pair.
    await testDb.database.db
      .update(sessions)
      .set({ rotatedAt: new Date(Date.now() - REFRESH_REUSE_GRACE_MS) })
      .where(eq(sessions.id, hashToken(tokens.refresh_token)));
    expect(await deaf.store.refresh(tokens.refresh_token, HOST)).toMatchObject({ ok: false, reason: "reused" });
    expect(await deaf.store.validate(rotated.tokens.access_token, HOST, "access")).toBeNull();
    expect(await deaf.store.validate(tokens.access_token, HOST, "access")).toBeNull();
  });

  it("refuses every token of an API login signed out with one of them", async () => {
    const { tokens, access } = await apiLogin("signed-out");
    const rotated = await deaf.store.refresh(tokens.refresh_token, HOST);
    if (!rotated.ok) throw new Error("the refresh should rotate");
    const newer = await deaf.store.validate(rotated.tokens.access_token, HOST, "access");
    await deaf.store.revoke(access.session);
    expect(await deaf.store.validate(rotated.tokens.access_token, HOST, "access")).toBeNull();
    expect(newer).not.toBeNull();
  });
});

async function rawClient(url: string) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}
