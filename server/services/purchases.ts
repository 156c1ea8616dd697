import { and, desc, eq, getTableColumns, sql } from "drizzle-orm";
import { centers, orders, planOrders } from "../db/schema/index.ts";
import type { Db, DbOrTx, Tx } from "../db/types.ts";
import { badRequest, conflict, parseWith } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import type { Receipt } from "../messages/receipts.ts";
import { planTitle } from "#common/format.ts";
import type { CapturedPayment, FailedPayment, OrderKind } from "../payments/completion.ts";
import type { OrderRow } from "../payments/ledger.ts";
import { CreateOrderSchema } from "#common/validation/setup.ts";
import { billingLabel } from "#common/validation/plans.ts";
import { thePlan } from "#common/format.ts";
import { durationDaysOf, type PlanRow, type PlanService } from "./plans.ts";
import type { OrderDesk } from "./orders.ts";
import { uniqueSlug } from "./center-slugs.ts";
import type { TenantDirectory } from "./tenants.ts";
import type { DomainService, DomainStatus } from "./domains.ts";
import { workingHost } from "#common/domains.ts";
import { ownerContactProfile } from "./site-contacts.ts";
import type { PurchaseJson } from "#common/purchases.ts";

const { orderId: _orderId, ...planTerms } = getTableColumns(planOrders);
/** A plan order: the ledger's row and the plan's terms beside it. */
const purchaseColumns = { ...getTableColumns(orders), ...planTerms };
export type PurchaseRow = OrderRow & Omit<typeof planOrders.$inferSelect, "orderId">;

export const PLAN_UNAVAILABLE = "This plan is not available. Please choose a plan on the pricing page.";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A purchase as the API shows it (spec §3 "Purchase"): amount in minor units. */

export function toPurchaseJson(p: PurchaseRow): PurchaseJson {
  return {
    _id: p.id,
    plan: p.planName,
    billing: p.billing,
    durationDays: p.durationDays,
    domain: p.domain,
    instituteName: p.instituteName,
    ownerName: p.ownerName,
    email: p.email,
    status: p.status,
    currency: p.currency,
    amount: p.amount,
    centerId: p.centerId,
    orderId: p.gatewayOrderId,
    createdAt: p.createdAt.toISOString(),
    paidAt: p.paidAt?.toISOString() ?? null,
  };
}

export interface PurchaseServiceDeps {
  db: Db;
  plans: PlanService;
  orders: OrderDesk;
  tenants: TenantDirectory;
  /** Whether a domain may be ordered for, the institute it renews, and its claim (unproven until its owner proves it). */
  domains: DomainService;
  logger: Logger;
  platformDomain: string;
  /** Paying for a center on trial converts the trial (TrialService.convert). */
  convertTrial?: (tx: Tx, center: typeof centers.$inferSelect, planName: string) => Promise<void>;
  /** The buyer's receipt, in the completing transaction. */
  receipt: (tx: Tx, receipt: Receipt) => Promise<void>;
}

/**
 * Plan purchases: ordering a plan (the order desk prices it from the stored plan and places it
 * on the platform's account, the seller of plans), and (as the "plan" order kind of the payment
 * completion) turning a paid order into an active center on the buyer's domain, or a longer one
 * on renewal.
 */
export class PurchaseService {
  private readonly deps: PurchaseServiceDeps;
  readonly orderKind: OrderKind;

  constructor(deps: PurchaseServiceDeps) {
    this.deps = deps;
    this.orderKind = {
      subject: "plan",
      fulfil: (tx, order, payment) => this.fulfil(tx, order, payment),
      failed: (order, failure) => this.failed(order, failure),
      afterCommit: () => deps.tenants.changed(),
      present: (order) => this.present(order.gatewayOrderId),
    };
  }

  /** Whether `raw` may be ordered for: a host name, not ours, not bound to another owner's institute. */
  domainStatus(raw: unknown, userId?: string): Promise<DomainStatus> {
    return this.deps.domains.status(raw, userId);
  }

  /**
   * Orders `data.plan` for `data.domain`: priced from the stored plan (never from the client),
   * placed with the gateway with our order id as its receipt, recorded as `created`.
   */
  async createOrder(userId: string, input: unknown): Promise<{ purchase: PurchaseRow; plan: PlanRow; keyId: string }> {
    const data = parseWith(CreateOrderSchema, input);
    const plan = await this.deps.plans.findOnSale(data.plan);
    if (!plan) throw badRequest(PLAN_UNAVAILABLE);
    const belowMinimum = `${thePlan(plan.name).replace(/^the/, "The")} is not sold with ${billingLabel(data.billing, plan).toLowerCase()} billing.`;
    const domain = await this.domainStatus(data.domain, userId);
    if (!domain.available) throw domain.reason === "taken" ? conflict(domain.message) : badRequest(domain.message);

    const terms = {
      planName: plan.name,
      billing: data.billing,
      durationDays: durationDaysOf(plan, data.billing),
      instituteName: data.institute,
      ownerName: data.owner,
      email: data.email,
      phone: data.phone || null,
      domain: domain.domain,
      centerId: null,
    };
    const { order, keyId } = await this.deps.orders.place({
      buyerId: userId,
      subject: { kind: "plan", plan, billing: data.billing },
      sellerCenterId: null,
      account: null,
      belowMinimum,
      notes: { plan: plan.name, billing: data.billing, domain: domain.domain },
      details: async (tx, row) => {
        await tx.insert(planOrders).values({ orderId: row.id, ...terms });
      },
    });
    return { purchase: { ...order, ...terms }, plan, keyId };
  }

  private purchases(db: DbOrTx = this.deps.db) {
    return db.select(purchaseColumns).from(orders).innerJoin(planOrders, eq(planOrders.orderId, orders.id));
  }

  async listMine(userId: string): Promise<PurchaseRow[]> {
    return this.purchases().where(eq(orders.buyerId, userId)).orderBy(desc(orders.createdAt));
  }

  /** The owner's most recent paid purchase (the Launching Soon page's "plan purchased" mark). */
  async latestPaid(userId: string): Promise<PurchaseRow | undefined> {
    const [row] = await this.purchases()
      .where(and(eq(orders.buyerId, userId), eq(orders.status, "paid")))
      .orderBy(desc(orders.paidAt))
      .limit(1);
    return row;
  }

  async byGatewayOrder(gatewayOrderId: string): Promise<PurchaseRow | undefined> {
    const [row] = await this.purchases().where(eq(orders.gatewayOrderId, gatewayOrderId)).limit(1);
    return row;
  }

  /** The purchase and the center it made, for the verify answer. */
  async present(gatewayOrderId: string) {
    const purchase = await this.byGatewayOrder(gatewayOrderId);
    if (!purchase) return {};
    const [center] = purchase.centerId
      ? await this.deps.db
          .select({
            id: centers.id,
            slug: centers.slug,
            instituteName: centers.instituteName,
            customDomain: centers.customDomain,
            status: centers.status,
            expiresAt: centers.expiresAt,
          })
          .from(centers)
          .where(eq(centers.id, purchase.centerId))
      : [];
    return {
      purchase: toPurchaseJson(purchase),
      center: center
        ? {
            _id: center.id,
            slug: center.slug,
            instituteName: center.instituteName,
            // Bound (serving the site) once proven; until then the one asked for is pending.
            domain: center.customDomain,
            pendingDomain: center.customDomain ? null : await this.deps.domains.domainOf(center),
            workingHost: workingHost(center.slug, this.deps.platformDomain),
            status: center.status,
            expiresAt: center.expiresAt?.toISOString() ?? null,
          }
        : null,
    };
  }

  /** Creates the center, or extends the buyer's own center on that domain, and keeps which on the order. */
  private async fulfil(tx: Tx, paid: OrderRow, payment: CapturedPayment): Promise<void> {
    const [terms] = await tx.select().from(planOrders).where(eq(planOrders.orderId, paid.id));
    const order = { ...paid, ...terms };
    const centerId = await this.applyToCenter(tx, order);
    await tx.update(planOrders).set({ centerId }).where(eq(planOrders.orderId, order.id));
    await this.deps.receipt(tx, {
      userId: order.buyerId,
      item: `${planTitle(order.planName)}, billed ${order.billing}, for ${order.domain}`,
      amount: order.amount,
      currency: order.currency,
      paymentId: payment.paymentId,
      centerId: null,
      path: "/business/subscription-details",
      source: { orderId: order.id },
    });
  }

  /**
   * A renewal when the domain is the buyer's own (bound to one of their institutes, or asked for
   * by one, as a trial's is); otherwise a new institute on its working address, asking for the
   * domain, which it gets once its owner proves it (DomainService).
   */
  private async applyToCenter(tx: Tx, order: PurchaseRow): Promise<string> {
    const now = new Date();
    const runs = order.durationDays * DAY_MS;
    const existing = await this.deps.domains.renewalCenter(tx, order.buyerId, order.domain);
    if (existing) {
      // A renewal runs on from the current expiry (or from now, if it has already run out).
      // A trial's remaining days are kept: the paid period starts when the trial would have ended.
      const from = existing.expiresAt && existing.expiresAt.getTime() > now.getTime() ? existing.expiresAt : now;
      await this.deps.convertTrial?.(tx, existing, order.planName);
      await tx
        .update(centers)
        .set({
          trialEndsAt: null,
          planId: order.planId,
          planName: order.planName,
          billing: order.billing,
          status: "active",
          expiresAt: new Date(from.getTime() + runs),
          siteVersion: sql`${centers.siteVersion} + 1`,
          updatedAt: sql`now()`,
        })
        .where(eq(centers.id, existing.id));
      return existing.id;
    }
    const [center] = await tx
      .insert(centers)
      .values({
        slug: await uniqueSlug(tx, order.instituteName),
        instituteName: order.instituteName,
        website: `https://${order.domain}`,
        ownerId: order.buyerId,
        planId: order.planId,
        planName: order.planName,
        billing: order.billing,
        status: "active",
        startsAt: now,
        expiresAt: new Date(now.getTime() + runs),
        siteProfile: ownerContactProfile(order),
      })
      .returning({ id: centers.id });
    // Asked for even if another institute has bound it since the order was placed: the claim
    // blocks nobody, and the owner sees why it cannot be proven.
    await this.deps.domains.claim(tx, center.id, order.domain, now);
    return center.id;
  }

  private failed(order: OrderRow, failure: FailedPayment): void {
    this.deps.logger.info("plan payment failed", {
      orderId: order.id,
      paymentId: failure.paymentId,
      reason: failure.reason,
    });
  }
}
