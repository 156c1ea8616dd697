import { and, desc, eq, isNull } from "drizzle-orm";
import { feePlans } from "../../db/schema/index.ts";
import type { Db, DbOrTx } from "../../db/types.ts";
import { notFound, parseWith } from "../../http/errors.ts";
import { FEE_PLAN_NOT_FOUND, FeePlanInput } from "#common/validation/fees.ts";
import { DEFAULT_GST_RATE } from "#common/gst.ts";
import { toRupees } from "#common/fees.ts";

export type FeePlanRow = typeof feePlans.$inferSelect;

export interface FeePlanJson {
  _id: string;
  centerId: string;
  name: string;
  heads: { name: string; amount: number; nonRefundable?: boolean }[];
  instalments: { label: string; amount: number; dueOn: string }[];
  total: number;
  gstRate: number;
  lateFee: { kind: "per-day" | "flat"; amount: number; graceDays: number; cap: number } | null;
  createdAt: string;
}

/** The API's view of a plan, in rupees. */
export function toFeePlanJson(row: FeePlanRow): FeePlanJson {
  return {
    _id: row.id,
    centerId: row.centerId,
    name: row.name,
    heads: row.heads.map((h) => ({
      name: h.name,
      amount: toRupees(h.amount),
      ...(h.nonRefundable ? { nonRefundable: true } : {}),
    })),
    instalments: row.instalments.map((i) => ({ label: i.label, amount: toRupees(i.amount), dueOn: i.dueOn })),
    total: toRupees(row.total),
    gstRate: row.gstRate,
    lateFee: row.lateFee
      ? { ...row.lateFee, amount: toRupees(row.lateFee.amount), cap: toRupees(row.lateFee.cap) }
      : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * An institute's fee plans (issue 42 §1): heads and a schedule that adds up to them, a GST rate
 * included in the total, a late-fee rule. A plan is read when it is assigned and its terms copied
 * into the student's dues, so changing or retiring a plan never changes dues already assigned.
 */
export class FeePlans {
  private readonly db: Db;

  constructor(deps: { db: Db }) {
    this.db = deps.db;
  }

  async create(actorId: string, centerId: string, input: unknown): Promise<FeePlanJson> {
    const plan = parseWith(FeePlanInput, input);
    const [row] = await this.db
      .insert(feePlans)
      .values({
        centerId,
        name: plan.name,
        heads: plan.heads,
        instalments: plan.instalments,
        total: plan.heads.reduce((sum, head) => sum + head.amount, 0),
        gstRate: plan.gstRate ?? DEFAULT_GST_RATE,
        lateFee: plan.lateFee ?? null,
        createdById: actorId,
      })
      .returning();
    return toFeePlanJson(row);
  }

  async list(centerId: string): Promise<FeePlanJson[]> {
    const rows = await this.db
      .select()
      .from(feePlans)
      .where(and(eq(feePlans.centerId, centerId), isNull(feePlans.archivedAt)))
      .orderBy(desc(feePlans.createdAt));
    return rows.map(toFeePlanJson);
  }

  /** The plan of this institute, or 404. */
  async get(db: DbOrTx, centerId: string, planId: string): Promise<FeePlanRow> {
    const [row] = await db
      .select()
      .from(feePlans)
      .where(and(eq(feePlans.id, planId), eq(feePlans.centerId, centerId), isNull(feePlans.archivedAt)));
    if (!row) throw notFound(FEE_PLAN_NOT_FOUND);
    return row;
  }
}
