import { and, asc, eq, ne, sql } from "drizzle-orm";
import { centers, orders, pricingPlans } from "../db/schema/index.ts";
import type { Database, Db, DbOrTx } from "../db/types.ts";
import { badRequest, conflict, notFound, parseWith } from "../http/errors.ts";
import { isUuid } from "#common/validation/ids.ts";
import { PlanSchema, type PlanData, type PlanInput, type PlanJson } from "#common/validation/plans.ts";

export type PlanRow = typeof pricingPlans.$inferSelect;
export type Billing = PlanRow["activeDuration"];

export const DURATION_DAYS: Record<Billing, number> = { monthly: 30, quarterly: 90, yearly: 365 };

export const PLAN_NOT_FOUND = "Plan not found";
export const PLAN_NAME_TAKEN = "A plan with this name already exists";

/**
 * Days a purchase runs (spec §7: 30 / 90 / 365). A plan whose quarter is set to more months, or
 * whose year to more years, runs that much longer; with the defaults (3 and 1) these are the spec's.
 */
export function durationDaysOf(plan: Pick<PlanRow, "quarterlyMonths" | "yearlyYears">, billing: Billing): number {
  if (billing === "monthly") return DURATION_DAYS.monthly;
  if (billing === "quarterly") return (DURATION_DAYS.quarterly / 3) * plan.quarterlyMonths;
  return DURATION_DAYS.yearly * plan.yearlyYears;
}

export function toPlanJson(plan: PlanRow): PlanJson {
  const money = (paise: number) => ({ price: paise / 100, currency: plan.currency });
  return {
    _id: plan.id,
    name: plan.name,
    description: plan.description,
    pricing: {
      monthly: money(plan.monthlyPrice),
      quarterly: money(plan.quarterlyPrice),
      yearly: money(plan.yearlyPrice),
    },
    activeDuration: plan.activeDuration,
    quarterlyMonths: plan.quarterlyMonths,
    yearlyYears: plan.yearlyYears,
    features: plan.features,
    isActive: plan.isActive,
    isPopular: plan.isPopular,
    order: plan.sortOrder,
    createdAt: plan.createdAt.toISOString(),
    updatedAt: plan.updatedAt.toISOString(),
  };
}

/** A stored plan as the editor's input (rupees), so an edit can be merged onto it and re-validated whole. */
export function planToInput(plan: PlanRow): PlanInput {
  const json = toPlanJson(plan);
  return {
    name: json.name,
    description: json.description,
    pricing: json.pricing as PlanInput["pricing"],
    activeDuration: json.activeDuration,
    quarterlyMonths: json.quarterlyMonths,
    yearlyYears: json.yearlyYears,
    features: json.features.map((f) => ({ name: f.name, description: f.description ?? "", included: f.included })),
    isActive: json.isActive,
    isPopular: json.isPopular,
    order: json.order,
  };
}

function toColumns(data: PlanData) {
  return {
    name: data.name,
    description: data.description,
    currency: "INR",
    monthlyPrice: data.pricing.monthly.price * 100,
    quarterlyPrice: data.pricing.quarterly.price * 100,
    yearlyPrice: data.pricing.yearly.price * 100,
    activeDuration: data.activeDuration,
    quarterlyMonths: data.quarterlyMonths,
    yearlyYears: data.yearlyYears,
    features: data.features.map((f) => ({
      name: f.name,
      ...(f.description ? { description: f.description } : {}),
      included: f.included,
    })),
    isActive: data.isActive,
    isPopular: data.isPopular,
    sortOrder: data.order,
  };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** An edit (any subset of the plan body) laid over the stored plan; `pricing` merges per period. */
function mergeEdit(base: PlanInput, edit: Record<string, unknown>): unknown {
  const merged: Record<string, unknown> = { ...base, ...edit };
  if (isObject(edit.pricing)) {
    const pricing: Record<string, unknown> = { ...(base.pricing as Record<string, unknown>) };
    for (const [period, value] of Object.entries(edit.pricing)) {
      const before = pricing[period];
      pricing[period] = isObject(value) && isObject(before) ? { ...before, ...value } : value;
    }
    merged.pricing = pricing;
  }
  return merged;
}

export const PLANS_CHANNEL = "pathshala_plans";

/** Pricing plans: what institutes can buy, and the admins' editing of them. */
export class PlanService {
  protected readonly db: Db;
  private readonly database?: Database;
  /** The plans on sale, asked for on every pricing page and GET /api/pricing; they change rarely. */
  private active: Promise<PlanRow[]> | undefined;
  /** Counts the changes to plans this instance has made or heard of. */
  private version = 0;
  /** Whether the listener has said that from now on no announcement is missed ("*"). */
  private heard = false;

  /** With `database`, the plans on sale are cached and every instance forgets them on any change. */
  constructor(db: Db, database?: Database) {
    this.db = db;
    this.database = database;
    database?.listen(PLANS_CHANNEL, (payload) => {
      if (payload === "*") this.heard = true;
      this.forgetActive();
    });
  }

  /**
   * A number that changes whenever the plans on sale may have, on this instance or any other:
   * what is kept from them (the /pricing page's bytes, server/pages/kept-pages.ts) is kept under
   * it. Undefined while other instances' changes cannot be heard: keep nothing then.
   */
  plansVersion(): number | undefined {
    return this.heard && this.database?.listening() ? this.version : undefined;
  }

  private forgetActive(): void {
    this.active = undefined;
    this.version++;
  }

  /** The plans on sale, in display order. */
  async listActive(): Promise<PlanRow[]> {
    const load = () =>
      this.db
        .select()
        .from(pricingPlans)
        .where(eq(pricingPlans.isActive, true))
        .orderBy(asc(pricingPlans.sortOrder), asc(pricingPlans.createdAt));
    if (!this.database?.listening()) return load();
    this.active ??= load().catch((error) => {
      this.active = undefined;
      throw error;
    });
    return this.active;
  }

  /** Call after any write to plans: every instance reloads them. */
  async changed(): Promise<void> {
    this.forgetActive();
    await this.database?.notify(PLANS_CHANNEL, "changed");
  }

  /** Every plan, for admins. */
  async listAll(): Promise<PlanRow[]> {
    return this.db.select().from(pricingPlans).orderBy(asc(pricingPlans.sortOrder), asc(pricingPlans.createdAt));
  }

  async get(id: string, db: DbOrTx = this.db): Promise<PlanRow | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await db.select().from(pricingPlans).where(eq(pricingPlans.id, id));
    return row;
  }

  /** The plan on sale with this id or (case-insensitive) name, as the setup wizard names it. */
  async findOnSale(idOrName: string): Promise<PlanRow | undefined> {
    const key = idOrName.trim();
    if (!key) return undefined;
    const where = isUuid(key) ? eq(pricingPlans.id, key) : sql`lower(${pricingPlans.name}) = ${key.toLowerCase()}`;
    const [row] = await this.db
      .select()
      .from(pricingPlans)
      .where(and(where, eq(pricingPlans.isActive, true)))
      .limit(1);
    return row;
  }

  async create(input: unknown): Promise<PlanRow> {
    if (!isObject(input)) throw badRequest("The plan must be a JSON object");
    const data = parseWith(PlanSchema, input);
    return this.db
      .transaction(async (tx) => {
        await this.assertNameFree(tx, data.name);
        const [row] = await tx.insert(pricingPlans).values(toColumns(data)).returning();
        return row;
      })
      .finally(() => this.changed());
  }

  /** Applies an edit (the whole plan body or any part of it); the result is validated as a whole. */
  async update(id: string, edit: unknown): Promise<PlanRow> {
    if (!isObject(edit)) throw badRequest("The plan must be a JSON object");
    return this.db
      .transaction(async (tx) => {
        if (!isUuid(id)) throw notFound(PLAN_NOT_FOUND);
        const [existing] = await tx.select().from(pricingPlans).where(eq(pricingPlans.id, id)).for("update");
        if (!existing) throw notFound(PLAN_NOT_FOUND);
        const data = parseWith(PlanSchema, mergeEdit(planToInput(existing), edit));
        await this.assertNameFree(tx, data.name, id);
        const [row] = await tx
          .update(pricingPlans)
          .set({ ...toColumns(data), updatedAt: sql`now()` })
          .where(eq(pricingPlans.id, id))
          .returning();
        return row;
      })
      .finally(() => this.changed());
  }

  /**
   * Deletes a plan nobody has bought; a plan with purchases (or centers on it) is deactivated
   * instead, so that history keeps naming it.
   */
  async remove(id: string): Promise<{ deleted: boolean; deactivated: boolean; plan: PlanRow }> {
    return this.db
      .transaction(async (tx) => {
        if (!isUuid(id)) throw notFound(PLAN_NOT_FOUND);
        const [existing] = await tx.select().from(pricingPlans).where(eq(pricingPlans.id, id)).for("update");
        if (!existing) throw notFound(PLAN_NOT_FOUND);
        const [bought] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.planId, id)).limit(1);
        const [used] = bought
          ? [bought]
          : await tx.select({ id: centers.id }).from(centers).where(eq(centers.planId, id)).limit(1);
        if (bought || used) {
          const [plan] = await tx
            .update(pricingPlans)
            .set({ isActive: false, updatedAt: sql`now()` })
            .where(eq(pricingPlans.id, id))
            .returning();
          return { deleted: false, deactivated: true, plan };
        }
        await tx.delete(pricingPlans).where(eq(pricingPlans.id, id));
        return { deleted: true, deactivated: false, plan: existing };
      })
      .finally(() => this.changed());
  }

  private async assertNameFree(tx: DbOrTx, name: string, exceptId?: string) {
    const sameName = sql`lower(${pricingPlans.name}) = ${name.toLowerCase()}`;
    const [clash] = await tx
      .select({ id: pricingPlans.id })
      .from(pricingPlans)
      .where(exceptId ? and(sameName, ne(pricingPlans.id, exceptId)) : sameName)
      .limit(1);
    if (clash) throw conflict(PLAN_NAME_TAKEN);
  }
}
