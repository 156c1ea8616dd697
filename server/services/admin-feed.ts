import {
  and,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  isNull,
  lt,
  notExists,
  sql,
  type AnyColumn,
  type SQL,
} from "drizzle-orm";
import {
  adminNotificationState,
  attempts,
  centers,
  mockTests,
  notices,
  orders,
  planOrders,
  seminarBookings,
  templateSelections,
  userRoleCounts,
  users,
} from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { readTags, type ReadCache, type ReadCaches } from "../caches/read-cache.ts";

import { toNoticeJson, type NoticeJson } from "./notices.ts";
import type {
  ActivityItem,
  AdminNotifications,
  CenterStats,
  Growth,
  NotificationState,
  PurchaseNotification,
  RoleStats,
  SelectionNotification,
  TestStats,
} from "#common/admin-feed.ts";

export const NOTIFICATION_LIMIT_MAX = 50;
const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;

/**
 * Stored times have microseconds, the times we hand out (and get back) have milliseconds: compare
 * at millisecond precision, or an item the admin has seen would stay unread.
 */
const toMs = (column: AnyColumn) => sql`date_trunc('milliseconds', ${column})`;
const newerThan = (column: AnyColumn, at: Date) => sql`${toMs(column)} > ${at.toISOString()}::timestamptz`;

/** The admins' "purchases": paid plan orders. */
const paidPlans = and(eq(orders.subject, "plan"), eq(orders.status, "paid"))!;

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
const later = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : a > b ? a : b);

/**
 * What platform admins see about the whole platform: role counts, growth, the notifications of
 * paid purchases and template choices (with each admin's read and cleared times, kept here on
 * the server), and a feed of recent events.
 */
export class AdminFeedService {
  private readonly db: Db;

  /** The admin overview's counts: read on every visit of it, so prepared once, and kept in memory. */
  private readonly roleCounts;
  private readonly roleCountsKept: ReadCache<{ role: string; n: number }[]>;

  constructor(db: Db, reads: ReadCaches) {
    this.db = db;
    this.roleCountsKept = reads.create({ maxEntries: 1 });
    this.roleCounts = db
      .select({ role: userRoleCounts.role, n: userRoleCounts.accounts })
      .from(userRoleCounts)
      .prepare("pathshala_role_counts");
  }

  /** Read from the counts the database keeps (user_role_counts), not by counting every account. */
  async roleStats(): Promise<RoleStats> {
    const rows = await this.roleCountsKept.read(
      "roles",
      () => this.roleCounts.execute(),
      () => [readTags.roles],
    );
    const of = (role: string) => rows.find((r) => r.role === role)?.n ?? 0;
    return { collections: { businesses: of("business"), students: of("student"), creators: of("creator") } };
  }

  /** New business accounts this month against last month, months counted in India time. */
  async growth(now = new Date()): Promise<Growth> {
    const local = new Date(now.getTime() + IST_OFFSET_MS);
    const monthStart = (y: number, m: number) => new Date(Date.UTC(y, m, 1) - IST_OFFSET_MS);
    const thisStart = monthStart(local.getUTCFullYear(), local.getUTCMonth());
    const lastStart = monthStart(local.getUTCFullYear(), local.getUTCMonth() - 1);
    const counted = async (from: Date, to: Date) =>
      (
        await this.db
          .select({ n: count() })
          .from(users)
          .where(and(eq(users.role, "business"), gte(users.createdAt, from), lt(users.createdAt, to)))
      )[0].n;
    const [thisMonth, lastMonth] = await Promise.all([
      counted(thisStart, new Date(now.getTime() + 1)),
      counted(lastStart, thisStart),
    ]);
    return {
      thisMonth,
      lastMonth,
      percent: lastMonth === 0 ? null : Math.round(((thisMonth - lastMonth) / lastMonth) * 100),
    };
  }

  async state(adminId: string): Promise<NotificationState> {
    const row = await this.stateRow(adminId);
    return {
      purchasesSeenAt: iso(row?.purchasesSeenAt),
      selectionsSeenAt: iso(row?.selectionsSeenAt),
      purchasesClearedAt: iso(row?.purchasesClearedAt),
      selectionsClearedAt: iso(row?.selectionsClearedAt),
      noticesSeenAt: iso(row?.noticesSeenAt),
      noticesClearedAt: iso(row?.noticesClearedAt),
    };
  }

  /**
   * Centers by what keeps them online, trials apart from paid plans: on trial (trial not ended),
   * paid (a plan, not on trial, not run out), lapsed (ended trial or plan, or refunded).
   */
  async centerStats(now = new Date()): Promise<CenterStats> {
    const at = now.toISOString();
    const [row] = await this.db
      .select({
        trials: sql<number>`count(*) filter (where ${centers.trialEndsAt} > ${at}::timestamptz and ${centers.status} = 'active')::int`,
        paid: sql<number>`count(*) filter (where ${centers.trialEndsAt} is null and ${centers.planName} is not null and ${centers.status} = 'active' and (${centers.expiresAt} is null or ${centers.expiresAt} > ${at}::timestamptz))::int`,
        lapsed: sql<number>`count(*) filter (where ${centers.ownerId} is not null and (${centers.status} = 'inactive' or ${centers.expiresAt} <= ${at}::timestamptz))::int`,
      })
      .from(centers);
    return row;
  }

  /** Tests that are or were on offer, and their sittings. */
  async testStats(): Promise<TestStats> {
    const [[tests], [sittings]] = await Promise.all([
      this.db
        .select({ published: sql<number>`count(*) filter (where ${mockTests.status} <> 'draft')::int` })
        .from(mockTests),
      this.db
        .select({
          attempts: sql<number>`count(*)::int`,
          submitted: sql<number>`count(*) filter (where ${attempts.submittedAt} is not null)::int`,
        })
        .from(attempts),
    ]);
    return { published: tests.published, attempts: sittings.attempts, submitted: sittings.submitted };
  }

  /** Paid purchases, newest first, hiding what this admin cleared. */
  async recentPurchases(adminId: string, limit = 10): Promise<PurchaseNotification[]> {
    const row = await this.stateRow(adminId);
    return this.purchaseList(row?.purchasesClearedAt ?? null, limit);
  }

  async recentSelections(adminId: string, limit = 10): Promise<SelectionNotification[]> {
    const row = await this.stateRow(adminId);
    return this.selectionList(row?.selectionsClearedAt ?? null, limit);
  }

  /** Both lists, the unread counts (newer than last seen and not cleared) and the stored state, in one go. */
  async notifications(adminId: string, limit = 10): Promise<AdminNotifications> {
    const row = await this.stateRow(adminId);
    const pCleared = row?.purchasesClearedAt ?? null;
    const sCleared = row?.selectionsClearedAt ?? null;
    const nCleared = row?.noticesClearedAt ?? null;
    const pSince = later(row?.purchasesSeenAt ?? null, pCleared);
    const sSince = later(row?.selectionsSeenAt ?? null, sCleared);
    const nSince = later(row?.noticesSeenAt ?? null, nCleared);
    const [purchaseList, selectionList, noticeList, [{ p }], [{ s }], [{ n }]] = await Promise.all([
      this.purchaseList(pCleared, limit),
      this.selectionList(sCleared, limit),
      this.noticeList(nCleared, limit),
      this.db
        .select({ p: count() })
        .from(orders)
        .where(and(paidPlans, pSince ? newerThan(orders.paidAt, pSince) : undefined)),
      this.db
        .select({ s: count() })
        .from(templateSelections)
        .where(sSince ? newerThan(templateSelections.createdAt, sSince) : undefined),
      this.db
        .select({ n: count() })
        .from(notices)
        .where(and(eq(notices.audience, "admins"), nSince ? newerThan(notices.createdAt, nSince) : undefined)),
    ]);
    return {
      purchases: purchaseList,
      selections: selectionList,
      notices: noticeList,
      unread: { purchases: p, selections: s, notices: n, total: p + s + n },
      state: {
        purchasesSeenAt: iso(row?.purchasesSeenAt),
        selectionsSeenAt: iso(row?.selectionsSeenAt),
        purchasesClearedAt: iso(pCleared),
        selectionsClearedAt: iso(sCleared),
        noticesSeenAt: iso(row?.noticesSeenAt),
        noticesClearedAt: iso(nCleared),
      },
    };
  }

  /**
   * Mark all read: the newest times the admin has seen are stored (the times the panel showed, or
   * else the newest in the database), never moving backwards and never past now.
   */
  async markRead(
    adminId: string,
    seen: { purchasesSeenAt?: Date | null; selectionsSeenAt?: Date | null; noticesSeenAt?: Date | null } = {},
  ): Promise<NotificationState> {
    const now = new Date();
    const cap = (d: Date | null | undefined) => (d && d > now ? now : (d ?? null));
    const [newestPurchase, newestSelection, newestNotice] = await Promise.all([
      seen.purchasesSeenAt !== undefined
        ? cap(seen.purchasesSeenAt)
        : this.db
            .select({ at: sql<Date | null>`max(${orders.paidAt})`.mapWith((v) => (v ? new Date(v) : null)) })
            .from(orders)
            .where(paidPlans)
            .then((r) => r[0]?.at ?? null),
      seen.selectionsSeenAt !== undefined
        ? cap(seen.selectionsSeenAt)
        : this.db
            .select({
              at: sql<Date | null>`max(${templateSelections.createdAt})`.mapWith((v) => (v ? new Date(v) : null)),
            })
            .from(templateSelections)
            .then((r) => r[0]?.at ?? null),
      seen.noticesSeenAt !== undefined
        ? cap(seen.noticesSeenAt)
        : this.db
            .select({ at: sql<Date | null>`max(${notices.createdAt})`.mapWith((v) => (v ? new Date(v) : null)) })
            .from(notices)
            .where(eq(notices.audience, "admins"))
            .then((r) => r[0]?.at ?? null),
    ]);
    await this.db
      .insert(adminNotificationState)
      .values({
        userId: adminId,
        purchasesSeenAt: newestPurchase,
        selectionsSeenAt: newestSelection,
        noticesSeenAt: newestNotice,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: adminNotificationState.userId,
        set: {
          purchasesSeenAt: sql`greatest(${adminNotificationState.purchasesSeenAt}, excluded.purchases_seen_at)`,
          selectionsSeenAt: sql`greatest(${adminNotificationState.selectionsSeenAt}, excluded.selections_seen_at)`,
          noticesSeenAt: sql`greatest(${adminNotificationState.noticesSeenAt}, excluded.notices_seen_at)`,
          updatedAt: now,
        },
      });
    return this.state(adminId);
  }

  /** Clear all: everything up to now is hidden from this admin's panel and counts as read. */
  async clear(adminId: string): Promise<NotificationState> {
    const now = new Date();
    const values = {
      purchasesSeenAt: now,
      selectionsSeenAt: now,
      purchasesClearedAt: now,
      selectionsClearedAt: now,
      noticesSeenAt: now,
      noticesClearedAt: now,
      updatedAt: now,
    };
    await this.db
      .insert(adminNotificationState)
      .values({ userId: adminId, ...values })
      .onConflictDoUpdate({ target: adminNotificationState.userId, set: values });
    return this.state(adminId);
  }

  /** The newest events across the platform: paid purchases, template choices, new centers, seminar bookings. */
  async recentActivity(limit = 10): Promise<ActivityItem[]> {
    const [paid, selections, newCenters, bookings, told] = await Promise.all([
      this.purchaseList(null, limit),
      this.selectionList(null, limit),
      this.db
        .select({
          id: centers.id,
          name: centers.instituteName,
          domain: centers.customDomain,
          slug: centers.slug,
          at: centers.createdAt,
        })
        .from(centers)
        // A center its purchase created (paid in the same transaction, so at the same instant) is
        // that purchase's news, not a second event; a trial's center is its trial notice's.
        .where(
          and(
            isNull(centers.trialEndsAt),
            notExists(
              this.db
                .select({ one: sql`1` })
                .from(planOrders)
                .innerJoin(orders, eq(orders.id, planOrders.orderId))
                .where(and(eq(planOrders.centerId, centers.id), eq(orders.paidAt, centers.createdAt))),
            ),
          ),
        )
        .orderBy(desc(centers.createdAt))
        .limit(limit),
      this.db
        .select({
          id: seminarBookings.id,
          fullName: seminarBookings.fullName,
          city: seminarBookings.city,
          country: seminarBookings.country,
          date: seminarBookings.date,
          time: seminarBookings.time,
          at: seminarBookings.createdAt,
        })
        .from(seminarBookings)
        .orderBy(desc(seminarBookings.createdAt))
        .limit(limit),
      this.noticeList(null, limit),
    ]);
    const items: ActivityItem[] = [
      ...paid.map((p) => ({
        id: `purchase-${p._id}`,
        kind: "purchase" as const,
        at: p.createdAt,
        title: `${p.instituteName} bought ${p.plan}`,
        detail: `${formatPaise(p.amount)} · ${p.domain} · ${p.createdByName}`,
      })),
      ...selections.map((s) => ({
        id: `template-${s._id}`,
        kind: "template" as const,
        at: s.appliedAt,
        title: `${s.centerId.instituteName} applied template ${s.templateId}`,
        detail: [s.centerId.domain, s.businessName].filter(Boolean).join(" · "),
      })),
      ...newCenters.map((c) => ({
        id: `center-${c.id}`,
        kind: "center" as const,
        at: c.at.toISOString(),
        title: `New center: ${c.name}`,
        detail: c.domain ?? c.slug,
      })),
      ...told.map((n) => ({
        id: `notice-${n._id}`,
        kind: n.kind === "refund" ? ("refund" as const) : ("trial" as const),
        at: n.createdAt,
        title: n.title,
        detail: n.body,
      })),
      ...bookings.map((b) => ({
        id: `booking-${b.id}`,
        kind: "booking" as const,
        at: b.at.toISOString(),
        title: `${b.fullName} booked the investment seminar`,
        detail: `${b.date}, ${b.time} · ${b.city}, ${b.country}`,
      })),
    ];
    return items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit);
  }

  private async stateRow(adminId: string) {
    const [row] = await this.db.select().from(adminNotificationState).where(eq(adminNotificationState.userId, adminId));
    return row;
  }

  private async purchaseList(clearedAt: Date | null, limit: number): Promise<PurchaseNotification[]> {
    const where: SQL[] = [paidPlans];
    if (clearedAt) where.push(newerThan(orders.paidAt, clearedAt));
    const rows = await this.db
      .select({
        purchase: { ...getTableColumns(orders), ...getTableColumns(planOrders) },
        buyer: { id: users.id, name: users.name, email: users.email },
        center: {
          id: centers.id,
          instituteName: centers.instituteName,
          domain: centers.customDomain,
          plan: centers.planName,
        },
      })
      .from(orders)
      .innerJoin(planOrders, eq(planOrders.orderId, orders.id))
      .innerJoin(users, eq(users.id, orders.buyerId))
      .leftJoin(centers, eq(centers.id, planOrders.centerId))
      .where(and(...where))
      .orderBy(desc(orders.paidAt), desc(orders.id))
      .limit(limit);
    return rows.map(({ purchase: p, buyer, center }) => ({
      _id: p.id,
      createdAt: (p.paidAt ?? p.createdAt).toISOString(),
      orderedAt: p.createdAt.toISOString(),
      plan: p.planName,
      billing: p.billing,
      currency: p.currency,
      amount: p.amount,
      centerId: center?.id
        ? { _id: center.id, instituteName: center.instituteName, domain: center.domain, plan: center.plan }
        : null,
      instituteName: p.instituteName,
      domain: p.domain,
      createdByName: buyer.name,
      ownerName: p.ownerName,
      createdByEmail: buyer.email,
      email: p.email,
      businessId: { _id: buyer.id, name: buyer.name, email: buyer.email },
    }));
  }

  private async noticeList(clearedAt: Date | null, limit: number): Promise<NoticeJson[]> {
    const rows = await this.db
      .select()
      .from(notices)
      .where(and(eq(notices.audience, "admins"), clearedAt ? newerThan(notices.createdAt, clearedAt) : undefined))
      .orderBy(desc(notices.createdAt), desc(notices.id))
      .limit(limit);
    return rows.map(toNoticeJson);
  }

  private async selectionList(clearedAt: Date | null, limit: number): Promise<SelectionNotification[]> {
    const rows = await this.db
      .select({
        selection: templateSelections,
        center: { id: centers.id, instituteName: centers.instituteName, domain: centers.customDomain },
        user: { id: users.id, name: users.name, email: users.email },
      })
      .from(templateSelections)
      .innerJoin(centers, eq(centers.id, templateSelections.centerId))
      .leftJoin(users, eq(users.id, templateSelections.userId))
      .where(clearedAt ? newerThan(templateSelections.createdAt, clearedAt) : undefined)
      .orderBy(desc(templateSelections.createdAt), desc(templateSelections.id))
      .limit(limit);
    return rows.map(({ selection: s, center, user }) => {
      const business = user?.id ? { _id: user.id, name: user.name, email: user.email } : null;
      return {
        _id: s.id,
        appliedAt: s.createdAt.toISOString(),
        createdAt: s.createdAt.toISOString(),
        templateId: s.templateId,
        centerId: { _id: center.id, instituteName: center.instituteName, domain: center.domain },
        businessId: business,
        businessName: business?.name ?? null,
        businessEmail: business?.email ?? null,
      };
    });
  }
}

const WHOLE = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 0 });
const EXACT = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: 2 });
function formatPaise(paise: number): string {
  return paise % 100 === 0 ? WHOLE.format(paise / 100) : EXACT.format(paise / 100);
}
