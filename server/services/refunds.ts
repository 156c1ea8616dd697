import { and, desc, eq, getTableColumns, inArray, ne, sql } from "drizzle-orm";
import { centers, orders, planOrders, refunds } from "../db/schema/index.ts";
import type { Db, Tx } from "../db/types.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { HttpError, conflict, notFound } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import type { Payments } from "../payments/index.ts";
import { GatewayError } from "../payments/gateway.ts";
import { REFUND_WINDOW_DAYS } from "#common/trial.ts";
import { formatDate, formatRupees, thePlan } from "#common/format.ts";
import type { RefundJson } from "#common/purchases.ts";
import type { CenterPaymentJson } from "#common/validation/centers.ts";
import type { NoticeService } from "./notices.ts";
import type { TenantDirectory } from "./tenants.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export const REFUND_TEXTS = {
  notFound: "Purchase not found",
  notPaid: "Only a paid purchase can be refunded.",
  already: "This purchase has already been refunded.",
  underWay: "A refund of this purchase is already under way.",
  late: (until: Date) => `The 30-day money-back guarantee of this purchase ended on ${formatDate(until)}.`,
  gateway: (reason: string) => `The payment gateway did not refund this purchase: ${reason}`,
} as const;

type RefundRow = typeof refunds.$inferSelect;

export function toRefundJson(r: RefundRow): RefundJson {
  return {
    _id: r.id,
    amount: r.amount,
    currency: r.currency,
    status: r.status,
    refundId: r.gatewayRefundId,
    createdAt: r.createdAt.toISOString(),
    processedAt: r.processedAt?.toISOString() ?? null,
  };
}

/** The last day a purchase paid at `paidAt` can be refunded. */
export function refundableUntil(paidAt: Date): Date {
  return new Date(paidAt.getTime() + REFUND_WINDOW_DAYS * DAY_MS);
}

export interface RefundServiceDeps {
  db: Db;
  payments: Payments;
  notices: NoticeService;
  tenants: TenantDirectory;
  logger: Logger;
  /** The credit note and the buyer's message, in the transaction that records the refund. */
  refunded: (tx: Tx, refund: { id: string; amount: number; currency: string }) => Promise<void>;
}

/**
 * The 30-day money-back guarantee: an admin refunds a plan purchase through the gateway, and the
 * center it paid for ends. A purchase has at most one refund that has not failed (a unique index,
 * so two refunds at once refund once), and the refund's id is the gateway's idempotency key.
 */
export class RefundService {
  private readonly deps: RefundServiceDeps;

  constructor(deps: RefundServiceDeps) {
    this.deps = deps;
  }

  async refund(purchaseId: string, adminId: string, now = new Date()): Promise<RefundJson> {
    const { db } = this.deps;
    let refund: RefundRow;
    let paymentId: string;
    let accountId: string | null;
    try {
      ({ refund, paymentId, accountId } = await db.transaction(async (tx) => {
        const [purchase] = await tx
          .select({ ...getTableColumns(orders), centerId: planOrders.centerId })
          .from(orders)
          .innerJoin(planOrders, eq(planOrders.orderId, orders.id))
          .where(eq(orders.id, purchaseId))
          .for("update", { of: orders });
        if (!purchase) throw notFound(REFUND_TEXTS.notFound);
        if (purchase.status !== "paid" || !purchase.paidAt || !purchase.gatewayPaymentId)
          throw conflict(REFUND_TEXTS.notPaid);
        const [existing] = await tx
          .select()
          .from(refunds)
          .where(and(eq(refunds.orderId, purchase.id), ne(refunds.status, "failed")))
          .limit(1);
        if (existing) throw conflict(existing.status === "processed" ? REFUND_TEXTS.already : REFUND_TEXTS.underWay);
        const until = refundableUntil(purchase.paidAt);
        if (now.getTime() > until.getTime()) throw conflict(REFUND_TEXTS.late(until));
        const [row] = await tx
          .insert(refunds)
          .values({
            orderId: purchase.id,
            centerId: purchase.centerId,
            amount: purchase.amount,
            currency: purchase.currency,
            requestedBy: adminId,
          })
          .returning();
        return { refund: row, paymentId: purchase.gatewayPaymentId, accountId: purchase.merchantAccountId };
      }));
    } catch (error) {
      if (isUniqueViolation(error, "refunds_order_live_key")) throw conflict(REFUND_TEXTS.underWay);
      throw error;
    }

    let gatewayRefund;
    try {
      // Given back through the account that took the money.
      const gateway = await this.deps.payments.gatewayOf(accountId);
      gatewayRefund = await gateway.refund({
        paymentId,
        amount: refund.amount,
        idempotencyKey: refund.id,
        receipt: refund.id,
        notes: { subject: "plan-refund", orderId: purchaseId },
      });
    } catch (error) {
      const reason = error instanceof GatewayError ? error.message.replace(/^refund failed: /, "") : "no answer";
      this.deps.logger.error("refund failed at the gateway", { error, refundId: refund.id, purchaseId });
      await db
        .update(refunds)
        .set({ status: "failed", failure: reason.slice(0, 500) })
        .where(eq(refunds.id, refund.id));
      throw new HttpError(502, REFUND_TEXTS.gateway(reason));
    }

    const done = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(refunds)
        .set({ status: "processed", gatewayRefundId: gatewayRefund.id, processedAt: sql`now()` })
        .where(eq(refunds.id, refund.id))
        .returning();
      const [purchase] = await tx
        .select({ ...getTableColumns(planOrders), buyerId: orders.buyerId })
        .from(planOrders)
        .innerJoin(orders, eq(orders.id, planOrders.orderId))
        .where(eq(planOrders.orderId, purchaseId));
      if (purchase.centerId) {
        // The money-back guarantee gives the money back and takes the plan back: the center ends now.
        await tx
          .update(centers)
          .set({
            status: "inactive",
            expiresAt: sql`now()`,
            trialEndsAt: null,
            siteVersion: sql`${centers.siteVersion} + 1`,
            updatedAt: sql`now()`,
          })
          .where(eq(centers.id, purchase.centerId));
      }
      const amount = formatRupees(refund.amount / 100);
      const notice = { kind: "refund" as const, centerId: purchase.centerId, key: `refund:${refund.id}` };
      await this.deps.notices.toOwner(tx, purchase.buyerId, {
        ...notice,
        title: "Your payment has been refunded",
        body: `${amount} for ${thePlan(purchase.planName)} of ${purchase.instituteName} is on its way back to you. The website is no longer online.`,
      });
      await this.deps.notices.toAdmins(tx, {
        ...notice,
        title: `Refunded: ${purchase.instituteName}`,
        body: `${amount} for ${thePlan(purchase.planName)} (${purchase.domain}) was refunded; the center has ended.`,
      });
      await this.deps.refunded(tx, row);
      return row;
    });
    this.deps.tenants.changed();
    return toRefundJson(done);
  }

  /** The live (not failed) refund of each purchase given. */
  async ofPurchases(purchaseIds: string[]): Promise<Map<string, RefundRow>> {
    if (purchaseIds.length === 0) return new Map();
    const rows = await this.deps.db
      .select()
      .from(refunds)
      .where(and(inArray(refunds.orderId, purchaseIds), ne(refunds.status, "failed")));
    return new Map(rows.map((r) => [r.orderId, r]));
  }

  /**
   * What the admins' center list offers for each center: its newest paid purchase, whether it can
   * still be refunded (and until when), or its refund.
   */
  async forCenters(centerIds: string[], now = Date.now()): Promise<Map<string, CenterPaymentJson>> {
    if (centerIds.length === 0) return new Map();
    const rows = await this.deps.db
      .selectDistinctOn([planOrders.centerId], {
        purchase: { ...getTableColumns(orders), centerId: planOrders.centerId },
        refund: refunds,
      })
      .from(planOrders)
      .innerJoin(orders, eq(orders.id, planOrders.orderId))
      .leftJoin(refunds, and(eq(refunds.orderId, orders.id), ne(refunds.status, "failed")))
      .where(and(inArray(planOrders.centerId, centerIds), eq(orders.status, "paid")))
      .orderBy(planOrders.centerId, desc(orders.paidAt));
    const out = new Map<string, CenterPaymentJson>();
    for (const { purchase, refund } of rows) {
      if (!purchase.centerId || !purchase.paidAt) continue;
      const until = refundableUntil(purchase.paidAt);
      out.set(purchase.centerId, {
        purchaseId: purchase.id,
        amount: purchase.amount,
        paidAt: purchase.paidAt.toISOString(),
        refundableUntil: until.toISOString(),
        refundable: !refund && until.getTime() >= now,
        refund: refund
          ? { _id: refund.id, amount: refund.amount, status: refund.status, processedAt: iso(refund.processedAt) }
          : null,
      });
    }
    return out;
  }
}

const iso = (d: Date | null) => d?.toISOString() ?? null;
