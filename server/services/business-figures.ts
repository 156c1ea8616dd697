import { and, countDistinct, eq, or, sql } from "drizzle-orm";
import { orders, contents, enrollments } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { shownByItsInstitute } from "./site-visibility.ts";

export interface BusinessFigures {
  /** Different students enrolled in content assigned to the institute, or bought on its site. */
  studentsEnrolled: number;
  /** Paid content orders counted below. */
  paidOrders: number;
  /** Paise: paid orders of content assigned to the institute, or placed on its site (each order once). */
  revenue: number;
  /** How many of the institute's contents are on sale: on its site now (active, not archived, shown by the institute). */
  contentsOnSale: number;
}

/**
 * An institute's figures for its dashboard. "Its content" is content a creator assigned to the
 * institute; an order placed on the institute's own site counts too, even if the content has
 * been moved elsewhere since (the sale happened there).
 */
export class BusinessFiguresService {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async figures(centerId: string): Promise<BusinessFigures> {
    const ours = or(eq(contents.centerId, centerId), eq(orders.sellerCenterId, centerId));
    const [[sold], [students], [onSale]] = await Promise.all([
      this.db
        .select({
          n: sql<number>`count(*)`.mapWith(Number),
          paise: sql<number>`coalesce(sum(${orders.amount}), 0)`.mapWith(Number),
        })
        .from(orders)
        .innerJoin(contents, eq(contents.id, orders.contentId))
        .where(and(eq(orders.status, "paid"), ours)),
      this.db
        .select({ n: countDistinct(enrollments.studentId) })
        .from(enrollments)
        .innerJoin(contents, eq(contents.id, enrollments.contentId))
        .leftJoin(orders, eq(orders.id, enrollments.orderId))
        .where(ours),
      this.db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(contents)
        .where(
          and(
            eq(contents.centerId, centerId),
            eq(contents.isActive, true),
            sql`${contents.archivedAt} is null`,
            shownByItsInstitute(),
          ),
        ),
    ]);
    return { studentsEnrolled: students.n, paidOrders: sold.n, revenue: sold.paise, contentsOnSale: onSale.n };
  }
}
