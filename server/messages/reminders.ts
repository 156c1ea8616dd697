import { and, eq, gt, isNull, lte, sql } from "drizzle-orm";
import { centers, contents, enrollments, users } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import type { MessageService } from "./service.ts";
import type { SiteLinks } from "./links.ts";
import { messageDate, messageTime } from "./format.ts";
import type { AbsenceAlerts } from "./absence-alerts.ts";
import type { FeeReminders } from "./fee-reminders.ts";
import { repeat } from "../runtime/repeat.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * Messages that come from the clock rather than from a request (issue 30 §5): the live class
 * reminder 15 minutes before, the plan expiry reminders 7 days and 1 day before and on the
 * day, absence alerts once a class's register closes (issue 41 §4, ./absence-alerts.ts), and fee
 * reminders before, on and after a due's last date (issue 42 §4, ./fee-reminders.ts).
 * Every instance may run it each minute; a reminder's key makes it written once.
 */
export class Reminders {
  private readonly deps: {
    db: Db;
    messages: MessageService;
    links: SiteLinks;
    absences: AbsenceAlerts;
    fees: FeeReminders;
  };

  constructor(deps: Reminders["deps"]) {
    this.deps = deps;
  }

  async run(now = new Date()): Promise<void> {
    await this.liveClasses(now);
    await this.planExpiry(now);
    await this.deps.absences.run(now);
    await this.deps.fees.run(now);
  }

  /** Each enrolled student of a live class that starts within 15 minutes, once per class time. */
  async liveClasses(now: Date): Promise<void> {
    const { db, messages, links } = this.deps;
    const due = await db
      .select({
        contentId: contents.id,
        title: contents.title,
        startsAt: contents.liveStartsAt,
        centerId: contents.centerId,
        slug: centers.slug,
        customDomain: centers.customDomain,
        studentId: users.id,
        name: users.name,
        email: users.email,
        phone: users.phone,
      })
      .from(contents)
      .innerJoin(enrollments, eq(enrollments.contentId, contents.id))
      .innerJoin(users, eq(users.id, enrollments.studentId))
      .leftJoin(centers, eq(centers.id, contents.centerId))
      .where(
        and(
          eq(contents.type, "live"),
          eq(contents.isActive, true),
          isNull(contents.archivedAt),
          gt(contents.liveStartsAt, now),
          lte(contents.liveStartsAt, new Date(now.getTime() + 15 * MINUTE)),
        ),
      );
    if (!due.length) return;
    await db.transaction(async (tx) => {
      for (const row of due)
        await messages.send(tx, {
          template: "live-class-reminder",
          values: {
            name: row.name,
            title: row.title,
            time: messageTime(row.startsAt!),
            link: links.to(row.slug ? { slug: row.slug, customDomain: row.customDomain } : null, "/student/live"),
          },
          to: { email: row.email, phone: row.phone, userId: row.studentId },
          centerId: row.centerId,
          dedupeKey: `live-class:${row.contentId}:${row.startsAt!.toISOString()}:${row.studentId}`,
        });
    });
  }

  /** The owner of each plan or free trial that ends within 7 days, within a day, or ended in the last day. */
  async planExpiry(now: Date): Promise<void> {
    const { db, messages, links } = this.deps;
    const ending = await db
      .select({
        centerId: centers.id,
        institute: centers.instituteName,
        expiresAt: centers.expiresAt,
        trial: sql<boolean>`${centers.trialEndsAt} is not null`,
        ownerId: users.id,
        name: users.name,
        email: users.email,
      })
      .from(centers)
      .innerJoin(users, eq(users.id, centers.ownerId))
      .where(
        and(
          eq(centers.status, "active"),
          gt(centers.expiresAt, new Date(now.getTime() - DAY)),
          lte(centers.expiresAt, new Date(now.getTime() + 7 * DAY)),
        ),
      );
    if (!ending.length) return;
    await db.transaction(async (tx) => {
      for (const center of ending) {
        const left = center.expiresAt!.getTime() - now.getTime();
        const [stage, when] =
          left <= 0 ? ["0", "today"] : left <= DAY ? ["1", "tomorrow"] : ["7", `in ${Math.ceil(left / DAY)} days`];
        const template = center.trial ? "trial-ending" : "plan-expiry";
        await messages.send(tx, {
          template,
          values: {
            name: center.name,
            institute: center.institute,
            when,
            date: messageDate(center.expiresAt!),
            link: links.to(null, "/business/subscription-plan"),
          },
          to: { email: center.email, userId: center.ownerId },
          centerId: center.centerId,
          dedupeKey: `${template}:${center.centerId}:${center.expiresAt!.toISOString()}:${stage}`,
        });
      }
    });
  }
}

/** Every minute, on the leading instance (server/db/leadership.ts); the keys keep each reminder to one message anyway. */
export function startReminders(reminders: Reminders, onError: (error: unknown) => void, everyMs = 60_000): () => void {
  return repeat(() => reminders.run(), everyMs, onError);
}
