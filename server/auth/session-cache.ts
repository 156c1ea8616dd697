import type { Database } from "../db/types.ts";

/**
 * Where the database announces every change to a session or a user (migration
 * 0006_session-change-notices): "s:<session id>", "u:<user id>", or "*" when too many rows changed
 * at once (or a table was truncated) to name them.
 */
export const SESSIONS_CHANNEL = "pathshala_sessions";

/**
 * Checked sessions kept in memory, so that a signed-in request does not wait for the database to
 * look its session up again. Every entry is dropped when the database announces that its session
 * or its user changed (sign-out, revocation, expiry moved, role or profile changed, deleted), on
 * every instance, whichever code path made the change.
 *
 * Nothing is trusted while the announcements cannot be heard: before the listening connection has
 * come up, and whenever it is down, every lookup goes to the database; when it comes back, all
 * entries are forgotten (changes may have been missed meanwhile). An entry is also never older than
 * `maxAgeMs`, so even a lost announcement cannot keep a revoked session alive for long.
 */
export class SessionCache<Row extends { user: { id: string } }> {
  private readonly entries = new Map<string, { row: Row; at: number }>();
  /** Cached session ids by user, so a change to a user drops all of that user's sessions. */
  private readonly byUser = new Map<string, Set<string>>();
  /**
   * Bumped by every announcement. A lookup remembers it before asking the database and stores its
   * answer only if it has not moved since: an announcement that overtook the answer (the row was
   * read just before the change was committed) must not be undone by storing the old row.
   */
  private generation = 0;
  private heard = false;
  private readonly database: Pick<Database, "listening">;
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;

  constructor(database: Pick<Database, "listen" | "listening">, options: { maxEntries?: number; maxAgeMs?: number } = {}) {
    this.database = database;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    database.listen(SESSIONS_CHANNEL, (payload) => this.heardOf(payload));
  }

  /** Whether entries may be used: the listener is up and has told us it (re)connected. */
  private get trusted(): boolean {
    return this.heard && this.database.listening();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The generation to hand back to `set` with the row read after this call. */
  mark(): number {
    return this.generation;
  }

  get(sessionId: string, now: number): Row | undefined {
    if (!this.trusted) return undefined;
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (now - entry.at > this.maxAgeMs) {
      this.dropSession(sessionId);
      return undefined;
    }
    return entry.row;
  }

  set(sessionId: string, row: Row, readAtGeneration: number, now: number): void {
    if (!this.trusted || readAtGeneration !== this.generation) return;
    // Entries are only ever added after a miss, so the Map's insertion order is their age order:
    // drop from the front what is too old, and whatever leaves room under the cap. The cache
    // then holds about the sessions used within the last maxAgeMs, however many came before.
    this.dropSession(sessionId);
    for (const [id, entry] of this.entries) {
      if (now - entry.at <= this.maxAgeMs && this.entries.size < this.maxEntries) break;
      this.dropSession(id);
    }
    this.entries.set(sessionId, { row, at: now });
    let ids = this.byUser.get(row.user.id);
    if (!ids) this.byUser.set(row.user.id, (ids = new Set()));
    ids.add(sessionId);
  }

  /** This instance changed the session: forget it now, without waiting for the announcement. */
  forgetSession(sessionId: string): void {
    this.generation++;
    this.dropSession(sessionId);
  }

  /** This instance changed the user: forget their sessions now. */
  forgetUser(userId: string): void {
    this.generation++;
    this.dropUser(userId);
  }

  private heardOf(payload: string): void {
    this.generation++;
    if (payload.startsWith("s:")) this.dropSession(payload.slice(2));
    else if (payload.startsWith("u:")) this.dropUser(payload.slice(2));
    else {
      // "*": the listener (re)connected, or too much changed to name; either way start afresh.
      this.entries.clear();
      this.byUser.clear();
      this.heard = true;
    }
  }

  private dropSession(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.entries.delete(sessionId);
    const ids = this.byUser.get(entry.row.user.id);
    ids?.delete(sessionId);
    if (ids && ids.size === 0) this.byUser.delete(entry.row.user.id);
  }

  private dropUser(userId: string): void {
    const ids = this.byUser.get(userId);
    if (!ids) return;
    for (const id of ids) this.entries.delete(id);
    this.byUser.delete(userId);
  }
}
