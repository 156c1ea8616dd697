import type { Database } from "../db/types.ts";
import { ReadCaches, type ReadCache } from "./read-cache.ts";

/**
 * Where the database announces every change to a session or a user (migration
 * 0006_session-change-notices): "s:<session id>", "u:<user id>", or "*" when too many rows changed
 * at once (or a table was truncated) to name them.
 */
export const SESSIONS_CHANNEL = "pathshala_sessions";

const sessionTag = (sessionId: string) => `s:${sessionId}`;
const userTag = (userId: string) => `u:${userId}`;

/**
 * Checked sessions kept in memory, so that a signed-in request does not wait for the database to
 * look its session up again (decision 0007). A read cache (server/caches/read-cache.ts) on its own
 * channel: each session is tagged with its own id and its user's, the two names the database
 * announces, so every entry is dropped when its session or its user changes (sign-out,
 * revocation, expiry moved, role or profile changed, deleted), on every instance, whichever code
 * path made the change. Nothing is trusted while the announcements cannot be heard, and no entry
 * is older than `maxAgeMs`, so even a lost announcement cannot keep a revoked session alive for long.
 */
export class SessionCache<Row extends { user: { id: string } }> {
  private readonly rows: ReadCache<Row | undefined>;

  constructor(
    database: Pick<Database, "listen" | "listening">,
    options: { maxEntries?: number; maxAgeMs?: number } = {},
  ) {
    const caches = new ReadCaches(database, { channel: SESSIONS_CHANNEL, metric: "sessions" });
    this.rows = caches.create({ maxEntries: options.maxEntries ?? 100_000, maxAgeMs: options.maxAgeMs ?? 60_000 });
  }

  get size(): number {
    return this.rows.size;
  }

  /** The session's row from memory, or from `load` (kept, unless there is no such session). */
  lookup(sessionId: string, load: () => Promise<Row | undefined>, now = Date.now()): Promise<Row | undefined> {
    return this.rows.read(sessionId, load, (row) => [sessionTag(sessionId), userTag(row.user.id)], now);
  }

  /** This instance changed the session: forget it now, without waiting for the announcement. */
  forgetSession(sessionId: string): void {
    this.rows.forget(sessionTag(sessionId));
  }

  /** This instance changed the user: forget their sessions now. */
  forgetUser(userId: string): void {
    this.rows.forget(userTag(userId));
  }
}
