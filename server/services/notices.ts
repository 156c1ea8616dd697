import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { notices } from "../db/schema/index.ts";
import type { Db, DbOrTx } from "../db/types.ts";
import type { NoticeJson, NoticeKind } from "#common/notices.ts";

export type { NoticeJson, NoticeKind };

type NoticeRow = typeof notices.$inferSelect;

export interface NewNotice {
  kind: NoticeKind;
  title: string;
  body: string;
  centerId?: string | null;
  /** Makes the notice exist once, however often a job tries to write it. */
  key?: string;
}

export function toNoticeJson(n: NoticeRow): NoticeJson {
  return {
    _id: n.id,
    kind: n.kind as NoticeKind,
    title: n.title,
    body: n.body,
    centerId: n.centerId,
    createdAt: n.createdAt.toISOString(),
    readAt: n.readAt?.toISOString() ?? null,
  };
}

/**
 * In-app notices for admins (every admin sees them, with their own read state in the admin feed)
 * and for one owner. Written in the transaction of the event they tell of, so an event is never
 * without its notice nor a notice without its event.
 */
export class NoticeService {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async toAdmins(tx: DbOrTx, notice: NewNotice): Promise<void> {
    await tx
      .insert(notices)
      .values({ audience: "admins", ...this.values(notice, "admins") })
      .onConflictDoNothing();
  }

  async toOwner(tx: DbOrTx, userId: string, notice: NewNotice): Promise<void> {
    await tx
      .insert(notices)
      .values({ audience: "owner", userId, ...this.values(notice, `owner:${userId}`) })
      .onConflictDoNothing();
  }

  /** The owner's notices, newest first. */
  async forOwner(userId: string, limit = 10): Promise<{ notices: NoticeJson[]; unread: number }> {
    const [rows, [{ unread }]] = await Promise.all([
      this.db
        .select()
        .from(notices)
        .where(and(eq(notices.audience, "owner"), eq(notices.userId, userId)))
        .orderBy(desc(notices.createdAt), desc(notices.id))
        .limit(limit),
      this.db
        .select({ unread: sql<number>`count(*)::int` })
        .from(notices)
        .where(and(eq(notices.audience, "owner"), eq(notices.userId, userId), isNull(notices.readAt))),
    ]);
    return { notices: rows.map(toNoticeJson), unread };
  }

  async markOwnerRead(userId: string): Promise<void> {
    await this.db
      .update(notices)
      .set({ readAt: sql`now()` })
      .where(and(eq(notices.audience, "owner"), eq(notices.userId, userId), isNull(notices.readAt)));
  }

  private values(notice: NewNotice, scope: string) {
    return {
      kind: notice.kind,
      title: notice.title,
      body: notice.body,
      centerId: notice.centerId ?? null,
      key: notice.key ? `${notice.key}:${scope}` : null,
    };
  }
}
