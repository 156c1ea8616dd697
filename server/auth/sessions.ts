import { and, eq, isNotNull, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import { sessions, users } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import type { Role } from "#common/validation/account.ts";
import { generateToken, hashToken } from "./tokens.ts";
import { openWithToken, sealWithToken } from "./token-seal.ts";
import type { SessionCache } from "../caches/session-cache.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Lifetimes. Web sessions slide: each use pushes the inactivity expiry out, up to an absolute cap.
 * A "remember me" session survives browser restarts and idles longer.
 */
export const LIFETIMES = {
  webIdle: 12 * HOUR,
  webAbsolute: 7 * DAY,
  rememberedIdle: 30 * DAY,
  rememberedAbsolute: 90 * DAY,
  access: 15 * MINUTE,
  refresh: 30 * DAY,
  /** However often it is refreshed, an API login ends after this. */
  refreshFamilyAbsolute: 180 * DAY,
} as const;

/** How long after its rotation a refresh token used again gets the same new pair instead of revoking its login. */
export const REFRESH_REUSE_GRACE_MS = 10_000;

/** What an API sign-in or refresh hands the client. */
export interface ApiTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  avatarKey: string | null;
  signupCenterId: string | null;
  createdAt: Date;
}

export interface ValidSession {
  id: string;
  kind: "web" | "access";
  familyId: string | null;
  persistent: boolean;
  expiresAt: Date;
  /** True when this use moved the expiry (the cookie should be re-sent). */
  extended: boolean;
}

export interface ClientMeta {
  ip?: string;
  userAgent?: string;
}

/** The columns of a user that a session carries (never the password hash). */
export const sessionUserColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  avatarKey: users.avatarKey,
  signupCenterId: users.signupCenterId,
  createdAt: users.createdAt,
};

/** The lookup every signed-in request runs: prepared once, so it is neither rebuilt nor re-planned. */
function prepareLookup(db: Db) {
  return db
    .select({
      session: {
        id: sessions.id,
        kind: sessions.kind,
        host: sessions.host,
        familyId: sessions.familyId,
        persistent: sessions.persistent,
        lastUsedAt: sessions.lastUsedAt,
        expiresAt: sessions.expiresAt,
        absoluteExpiresAt: sessions.absoluteExpiresAt,
        revokedAt: sessions.revokedAt,
      },
      user: sessionUserColumns,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sql.placeholder("id")))
    .prepare("pathshala_session_lookup");
}

/** A session with the user it belongs to, as looked up (and kept by the session cache). */
export type SessionRow = Awaited<ReturnType<ReturnType<typeof prepareLookup>["execute"]>>[number];

export class SessionStore {
  private readonly db: Db;
  private readonly now: () => number;
  /** Checked sessions kept in memory (see session-cache.ts); absent means none (scripts that only create sessions). */
  private readonly cache: SessionCache<SessionRow> | undefined;

  private readonly lookup: ReturnType<typeof prepareLookup>;

  constructor(db: Db, now: () => number = Date.now, cache?: SessionCache<SessionRow>) {
    this.db = db;
    this.now = now;
    this.cache = cache;
    this.lookup = prepareLookup(db);
  }

  /** A fresh browser session (always a new token at sign-in, so a planted one is never adopted). */
  async createWebSession(userId: string, host: string, persistent: boolean, meta: ClientMeta = {}) {
    const token = generateToken();
    const now = this.now();
    const idle = persistent ? LIFETIMES.rememberedIdle : LIFETIMES.webIdle;
    const absolute = persistent ? LIFETIMES.rememberedAbsolute : LIFETIMES.webAbsolute;
    const expiresAt = new Date(now + idle);
    await this.db.insert(sessions).values({
      id: hashToken(token),
      userId,
      kind: "web",
      host,
      persistent,
      createdAt: new Date(now),
      lastUsedAt: new Date(now),
      expiresAt,
      absoluteExpiresAt: new Date(now + absolute),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300),
    });
    return { token, expiresAt, persistent };
  }

  /** An access + refresh pair for API clients; `familyId` continues a rotation chain. */
  async issueApiTokens(
    userId: string,
    host: string,
    meta: ClientMeta = {},
    family?: { id: string; absoluteExpiresAt: Date },
  ): Promise<ApiTokens> {
    const now = this.now();
    const familyId = family?.id ?? crypto.randomUUID();
    const familyEnd = family?.absoluteExpiresAt ?? new Date(now + LIFETIMES.refreshFamilyAbsolute);
    const accessToken = generateToken();
    const refreshToken = generateToken();
    const base = {
      userId,
      host,
      familyId,
      createdAt: new Date(now),
      lastUsedAt: new Date(now),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300),
    };
    await this.db.insert(sessions).values([
      {
        ...base,
        id: hashToken(accessToken),
        kind: "access" as const,
        expiresAt: new Date(Math.min(now + LIFETIMES.access, familyEnd.getTime())),
        absoluteExpiresAt: new Date(Math.min(now + LIFETIMES.access, familyEnd.getTime())),
      },
      {
        ...base,
        id: hashToken(refreshToken),
        kind: "refresh" as const,
        expiresAt: new Date(Math.min(now + LIFETIMES.refresh, familyEnd.getTime())),
        absoluteExpiresAt: familyEnd,
      },
    ]);
    return { access_token: accessToken, refresh_token: refreshToken, expires_in: Math.floor(LIFETIMES.access / 1000) };
  }

  /** Checks a cookie or bearer token for this host; slides web sessions. */
  async validate(
    token: string,
    host: string,
    kind: "web" | "access",
  ): Promise<{ user: SessionUser; session: ValidSession } | null> {
    if (!token || token.length > 100) return null;
    const id = hashToken(token);
    const now = this.now();
    const row = await this.lookupRow(id, now);
    if (!row || row.session.kind !== kind || row.session.host !== host || row.session.revokedAt) return null;
    if (row.session.expiresAt.getTime() <= now || row.session.absoluteExpiresAt.getTime() <= now) return null;

    let { expiresAt } = row.session;
    let extended = false;
    if (kind === "web") {
      const idle = row.session.persistent ? LIFETIMES.rememberedIdle : LIFETIMES.webIdle;
      const target = Math.min(now + idle, row.session.absoluteExpiresAt.getTime());
      // Write at most once a minute per session, not on every request.
      if (target - expiresAt.getTime() > MINUTE) {
        expiresAt = new Date(target);
        extended = true;
        await this.db
          .update(sessions)
          .set({ expiresAt, lastUsedAt: new Date(now) })
          .where(eq(sessions.id, id));
        this.cache?.forgetSession(id);
      }
    }
    return {
      user: row.user,
      session: { id, kind, familyId: row.session.familyId, persistent: row.session.persistent, expiresAt, extended },
    };
  }

  /** The session and its user, from memory when this instance holds it, else from the database. */
  private async lookupRow(id: string, now: number): Promise<SessionRow | undefined> {
    const load = async () => (await this.lookup.execute({ id }))[0];
    return this.cache ? this.cache.lookup(id, load, now) : load();
  }

  /** Call after changing a user's row elsewhere, so this instance stops using what it kept at once. */
  forgetUser(userId: string): void {
    this.cache?.forgetUser(userId);
  }

  /**
   * Rotates a refresh token. A token that was already rotated is being replayed (stolen or
   * raced): the whole family, access tokens included, is revoked; except within
   * REFRESH_REUSE_GRACE_MS of its rotation, when it gets the pair that rotation issued, so two
   * tabs (or a retry after a lost answer) refreshing one login together keep it signed in.
   *
   * That pair is kept in the rotated row, sealed under a key made from the rotated token itself
   * (token-seal.ts): the server never stores that token, only its hash, so the database alone
   * cannot open the seal, while whoever presents the token can. It is cleared by housekeeping
   * once the grace is over. Deriving the next pair from the old token instead would need a
   * server secret and would let anyone holding both mint the pair for as long as it lives.
   */
  async refresh(refreshToken: string, host: string, meta: ClientMeta = {}) {
    const id = hashToken(refreshToken);
    const now = new Date(this.now());
    let replayedBy: string | undefined;
    const result = await this.db.transaction(async (tx) => {
      // The row lock queues uses of one token: the first rotates it, the others then find it rotated.
      const [row] = await tx
        .select()
        .from(sessions)
        .where(and(eq(sessions.id, id), eq(sessions.kind, "refresh")))
        .for("update");
      if (!row || row.host !== host) return { ok: false as const, reason: "invalid" as const };
      if (row.rotatedAt) {
        const inGrace = !row.revokedAt && now.getTime() - row.rotatedAt.getTime() < REFRESH_REUSE_GRACE_MS;
        const issued = inGrace && row.successor ? openWithToken(refreshToken, row.successor) : null;
        if (issued) return { ok: true as const, userId: row.userId, tokens: JSON.parse(issued) as ApiTokens };
        await tx
          .update(sessions)
          .set({ revokedAt: now, successor: null })
          .where(and(eq(sessions.familyId, row.familyId!), isNull(sessions.revokedAt)));
        replayedBy = row.userId;
        return { ok: false as const, reason: "reused" as const };
      }
      if (row.revokedAt || row.expiresAt <= now || row.absoluteExpiresAt <= now)
        return { ok: false as const, reason: "expired" as const };
      const store = new SessionStore(tx as unknown as Db, this.now);
      const tokens = await store.issueApiTokens(row.userId, host, meta, {
        id: row.familyId!,
        absoluteExpiresAt: row.absoluteExpiresAt,
      });
      await tx
        .update(sessions)
        .set({ rotatedAt: now, lastUsedAt: now, successor: sealWithToken(refreshToken, JSON.stringify(tokens)) })
        .where(eq(sessions.id, id));
      return { ok: true as const, userId: row.userId, tokens };
    });
    // A replay revoked the family's access tokens: stop honouring them here at once, not when
    // the database's announcement arrives. Only once committed, or a lookup in between could
    // keep the old row.
    if (replayedBy) this.cache?.forgetUser(replayedBy);
    return result;
  }

  /** Ends one web session, or a whole API login (every token of its family). */
  async revoke(session: Pick<ValidSession, "id" | "familyId">): Promise<void> {
    const now = new Date(this.now());
    const where = session.familyId ? eq(sessions.familyId, session.familyId) : eq(sessions.id, session.id);
    const revoked = await this.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(where, isNull(sessions.revokedAt)))
      .returning({ userId: sessions.userId });
    // Every instance hears of it from the database; this one forgets at once, the whole family
    // with it (the cache keeps sessions by user, not by family).
    this.cache?.forgetSession(session.id);
    if (session.familyId && revoked[0]) this.cache?.forgetUser(revoked[0].userId);
  }

  /** Signs the user out everywhere, or everywhere but `except` (the session that asked, and its token family). */
  async revokeAllForUser(userId: string, except?: Pick<ValidSession, "id" | "familyId">): Promise<void> {
    const keep = except
      ? except.familyId
        ? sql`(${sessions.familyId} is null or ${sessions.familyId} <> ${except.familyId})`
        : ne(sessions.id, except.id)
      : undefined;
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date(this.now()) })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep));
    this.cache?.forgetUser(userId);
  }

  /** Housekeeping: forget sessions that can no longer be used, and successor pairs past their grace. */
  async purgeExpired(): Promise<number> {
    await this.db
      .update(sessions)
      .set({ successor: null })
      .where(
        and(isNotNull(sessions.successor), lte(sessions.rotatedAt, new Date(this.now() - REFRESH_REUSE_GRACE_MS))),
      );
    const cutoff = new Date(this.now() - DAY);
    const gone = await this.db
      .delete(sessions)
      .where(or(lt(sessions.absoluteExpiresAt, cutoff), lt(sessions.expiresAt, cutoff)))
      .returning({ id: sessions.id });
    return gone.length;
  }
}
