import { and, desc, eq, gte, sql } from "drizzle-orm";
import { orders, contents } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";

/** The spec's Sales row (§3): money in rupees. */
export interface SalesRow {
  contentId: string;
  title: string;
  totalSales: number;
  totalEarnings: number;
}

export interface SalesPoint {
  /** "2026-11-03" for days, "2026-11" for months (India time). */
  period: string;
  orders: number;
  revenue: number;
}

export interface RecentSale {
  orderId: string;
  contentId: string;
  title: string;
  amount: number;
  paidAt: string;
}

export interface SalesSummary {
  totalRevenue: number;
  totalOrders: number;
  rows: SalesRow[];
  daily: SalesPoint[];
  monthly: SalesPoint[];
  recent: RecentSale[];
}

/** Sales are counted in India time: a sale at 00:30 IST belongs to that Indian day. */
const ZONE = "Asia/Kolkata";
const ZONE_OFFSET_MS = 5.5 * 60 * 60 * 1000;
const DAY = 24 * 60 * 60 * 1000;

const paid = (creatorId: string) => and(eq(orders.creatorId, creatorId), eq(orders.status, "paid"));
const rupees = (paise: number) => paise / 100;

/** A creator's sales figures, from paid content orders only. */
export class SalesService {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async summary(creatorId: string, now = new Date()): Promise<SalesSummary> {
    const [rows, daily, monthly, recent] = await Promise.all([
      this.rows(creatorId),
      this.series(creatorId, "day", now),
      this.series(creatorId, "month", now),
      this.recent(creatorId, 5),
    ]);
    return {
      totalRevenue: rows.reduce((sum, r) => sum + r.totalEarnings * 100, 0) / 100,
      totalOrders: rows.reduce((sum, r) => sum + r.totalSales, 0),
      rows,
      daily,
      monthly,
      recent,
    };
  }

  /** One row per content (zero for unsold ones; deleted-but-sold content keeps its row). */
  async rows(creatorId: string, contentId?: string): Promise<SalesRow[]> {
    const totals = this.db
      .select({
        contentId: orders.contentId,
        orders: sql<number>`count(*)`.mapWith(Number).as("orders"),
        earnings: sql<number>`sum(${orders.amount})`.mapWith(Number).as("earnings"),
      })
      .from(orders)
      .where(paid(creatorId))
      .groupBy(orders.contentId)
      .as("totals");
    const result = await this.db
      .select({
        contentId: contents.id,
        title: contents.title,
        orders: sql<number>`coalesce(${totals.orders}, 0)`.mapWith(Number),
        earnings: sql<number>`coalesce(${totals.earnings}, 0)`.mapWith(Number),
      })
      .from(contents)
      .leftJoin(totals, eq(totals.contentId, contents.id))
      .where(
        and(
          eq(contents.creatorId, creatorId),
          contentId ? eq(contents.id, contentId) : undefined,
          sql`(${contents.archivedAt} is null or ${totals.orders} > 0)`,
        ),
      )
      .orderBy(sql`coalesce(${totals.earnings}, 0) desc`, desc(contents.createdAt));
    return result.map((r) => ({
      contentId: r.contentId,
      title: r.title,
      totalSales: r.orders,
      totalEarnings: rupees(r.earnings),
    }));
  }

  /** Revenue per India-time day (the last 30) or month (the last 12), oldest first, gaps filled with 0. */
  async series(creatorId: string, unit: "day" | "month", now = new Date()): Promise<SalesPoint[]> {
    const periods = unit === "day" ? lastDays(now, 30) : lastMonths(now, 12);
    const since = startOfPeriodUtc(periods[0], unit);
    // Constants written into the SQL (not parameters) so that GROUP BY sees the very same expression.
    const format = unit === "day" ? "YYYY-MM-DD" : "YYYY-MM";
    const bucket = sql<string>`to_char(date_trunc('${sql.raw(unit)}', ${orders.paidAt} at time zone '${sql.raw(ZONE)}'), '${sql.raw(format)}')`;
    const rows = await this.db
      .select({
        period: bucket,
        orders: sql<number>`count(*)`.mapWith(Number),
        revenue: sql<number>`sum(${orders.amount})`.mapWith(Number),
      })
      .from(orders)
      .where(and(paid(creatorId), gte(orders.paidAt, since)))
      .groupBy(bucket);
    const byPeriod = new Map(rows.map((r) => [r.period, r]));
    return periods.map((period) => {
      const hit = byPeriod.get(period);
      return { period, orders: hit?.orders ?? 0, revenue: rupees(hit?.revenue ?? 0) };
    });
  }

  async recent(creatorId: string, limit: number): Promise<RecentSale[]> {
    const rows = await this.db
      .select({
        orderId: orders.id,
        contentId: orders.contentId,
        title: contents.title,
        amount: orders.amount,
        paidAt: orders.paidAt,
      })
      .from(orders)
      .innerJoin(contents, eq(contents.id, orders.contentId))
      .where(paid(creatorId))
      .orderBy(desc(orders.paidAt))
      .limit(limit);
    // A creator's orders are all content orders: each has its content.
    return rows.map((r) => ({
      ...r,
      contentId: r.contentId!,
      amount: rupees(r.amount),
      paidAt: (r.paidAt ?? new Date(0)).toISOString(),
    }));
  }
}

/** "YYYY-MM-DD" of `date` in India time. */
function indiaDay(date: Date): string {
  return new Date(date.getTime() + ZONE_OFFSET_MS).toISOString().slice(0, 10);
}

function lastDays(now: Date, n: number): string[] {
  const today = Date.parse(`${indiaDay(now)}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => new Date(today - (n - 1 - i) * DAY).toISOString().slice(0, 10));
}

function lastMonths(now: Date, n: number): string[] {
  const [y, m] = indiaDay(now).split("-").map(Number);
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - (n - 1 - i), 1));
    return d.toISOString().slice(0, 7);
  });
}

/** The instant an India-time day or month begins. */
function startOfPeriodUtc(period: string, unit: "day" | "month"): Date {
  const day = unit === "day" ? period : `${period}-01`;
  return new Date(Date.parse(`${day}T00:00:00Z`) - ZONE_OFFSET_MS);
}
