import { and, desc, eq, getTableColumns, inArray, ne, sql } from "drizzle-orm";
import { centers, contents, enrollments, orders, planOrders, refunds, users } from "../db/schema/index.ts";
import type { Db, Tx } from "../db/types.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { HttpError, conflict, notFound } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import type { Payments } from "../payments/index.ts";
import { GatewayError } from "../payments/gateway.ts";
import type { OrderRow } from "../payments/ledger.ts";
import { isUuid } from "#common/validation/ids.ts";
import { REFUND_WINDOW_DAYS } from "#common/trial.ts";
import { formatDate, formatRupees, thePlan } from "#common/format.ts";
import type { RefundJson, StudentPaymentJson } from "#common/purchases.ts";
import { CONTENT_TYPE_LABELS } from "#common/validation/content.ts";
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
  paidToPlatform:
    "This payment was made to Pathshala's account, before your institute connected its own: Pathshala's support refunds it.",
} as const;

type RefundRow = typeof refunds.$inferSelect;
/** An order that was paid: its payment is what a refund gives back. */
type PaidOrder = OrderRow & { paidAt: Date; gatewayPaymentId: string };

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
  /** A student's courses changed (their access ended): this instance forgets what it kept. */
  studentChanged: (studentId: string) => void;
}

/**
 * Refunds of paid orders, each through the account that took the money: the platform's 30-day
 * money-back guarantee on plans (an admin's), and an institute's refund of a student's payment
 * (its owner's). An order has at most one refund that has not failed (a unique index, so two
 * refunds at once refund once), and the refund's id is the gateway's idempotency key.
 */
export class RefundService {
  private readonly deps: RefundServiceDeps;

  constructor(deps: RefundServiceDeps) {
    this.deps = deps;
  }

  /** The money-back guarantee: an admin refunds a plan order within 30 days; its center ends. */
  async refund(purchaseId: string, adminId: string, now = new Date()): Promise<RefundJson> {
    const done = await this.refundOrder({
      orderId: purchaseId,
      requestedBy: adminId,
      subject: "plan",
      check: (order) => {
        const until = refundableUntil(order.paidAt);
        if (now.getTime() > until.getTime()) throw conflict(REFUND_TEXTS.late(until));
      },
      settle: async (tx, order, refund) => {
        const [purchase] = await tx.select().from(planOrders).where(eq(planOrders.orderId, order.id));
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
        await this.deps.notices.toOwner(tx, order.buyerId, {
          ...notice,
          title: "Your payment has been refunded",
          body: `${amount} for ${thePlan(purchase.planName)} of ${purchase.instituteName} is on its way back to you. The website is no longer online.`,
        });
        await this.deps.notices.toAdmins(tx, {
          ...notice,
          title: `Refunded: ${purchase.instituteName}`,
          body: `${amount} for ${thePlan(purchase.planName)} (${purchase.domain}) was refunded; the center has ended.`,
        });
      },
    });
    this.deps.tenants.changed();
    return toRefundJson(done);
  }

  /**
   * An institute refunds a student's payment (its decision, issue 40 §3): in full, through its
   * own account that took the money; the student's access that the order bought ends, and a
   * credit note from the institute goes to them.
   */
  async refundStudentPayment(centerId: string, orderId: string, actorId: string): Promise<RefundJson> {
    let student = "";
    const done = await this.refundOrder({
      orderId,
      requestedBy: actorId,
      subject: "content",
      sellerCenterId: centerId,
      // An institute gives back only what its own account took.
      check: (order) => {
        if (!order.merchantAccountId) throw conflict(REFUND_TEXTS.paidToPlatform);
      },
      settle: async (tx, order) => {
        student = order.buyerId;
        // What this payment bought, and nothing else: an enrolment made free or by another order stays.
        await tx.delete(enrollments).where(eq(enrollments.orderId, order.id));
      },
    });
    this.deps.studentChanged(student);
    return toRefundJson(done);
  }

  /**
   * One order refunded once: locked, checked paid and not refunded (a partial unique index keeps
   * one live refund per order), recorded `pending`, refunded at the gateway of the account that
   * took the money with the refund's id as its idempotency key, then `processed` with the
   * subject's own effects, the credit note and the buyer's message in one transaction. A gateway
   * refusal leaves it `failed`, and it may be tried again.
   */
  private async refundOrder(spec: {
    orderId: string;
    requestedBy: string;
    subject: OrderRow["subject"];
    /** The institute whose sale it must be (a refund by an institute); undefined for the platform's own. */
    sellerCenterId?: string;
    check?: (order: PaidOrder) => void;
    settle: (tx: Tx, order: PaidOrder, refund: RefundRow) => Promise<void>;
  }): Promise<RefundRow> {
    const { db } = this.deps;
    let refund: RefundRow;
    let order: PaidOrder;
    try {
      ({ refund, order } = await db.transaction(async (tx) => {
        const [row] = isUuid(spec.orderId)
          ? await tx
              .select()
              .from(orders)
              .where(
                and(
                  eq(orders.id, spec.orderId),
                  eq(orders.subject, spec.subject),
                  spec.sellerCenterId ? eq(orders.sellerCenterId, spec.sellerCenterId) : undefined,
                ),
              )
              .for("update")
          : [];
        if (!row) throw notFound(REFUND_TEXTS.notFound);
        if (row.status !== "paid" || !row.paidAt || !row.gatewayPaymentId) throw conflict(REFUND_TEXTS.notPaid);
        const paid = row as PaidOrder;
        const [existing] = await tx
          .select()
          .from(refunds)
          .where(and(eq(refunds.orderId, paid.id), ne(refunds.status, "failed")))
          .limit(1);
        if (existing) throw conflict(existing.status === "processed" ? REFUND_TEXTS.already : REFUND_TEXTS.underWay);
        spec.check?.(paid);
        const [pending] = await tx
          .insert(refunds)
          .values({
            orderId: paid.id,
            centerId: spec.subject === "plan" ? await this.planCenterOf(tx, paid.id) : paid.sellerCenterId,
            amount: paid.amount,
            currency: paid.currency,
            requestedBy: spec.requestedBy,
          })
          .returning();
        return { refund: pending, order: paid };
      }));
    } catch (error) {
      if (isUniqueViolation(error, "refunds_order_live_key")) throw conflict(REFUND_TEXTS.underWay);
      throw error;
    }

    let gatewayRefund;
    try {
      // Given back through the account that took the money.
      const gateway = await this.deps.payments.gatewayOf(order.merchantAccountId);
      gatewayRefund = await gateway.refund({
        paymentId: order.gatewayPaymentId,
        amount: refund.amount,
        idempotencyKey: refund.id,
        receipt: refund.id,
        notes: { subject: `${spec.subject}-refund`, orderId: order.id },
      });
    } catch (error) {
      const reason = error instanceof GatewayError ? error.message.replace(/^refund failed: /, "") : "no answer";
      this.deps.logger.error("refund failed at the gateway", { error, refundId: refund.id, orderId: order.id });
      await db
        .update(refunds)
        .set({ status: "failed", failure: reason.slice(0, 500) })
        .where(eq(refunds.id, refund.id));
      throw new HttpError(502, REFUND_TEXTS.gateway(reason));
    }

    return db.transaction(async (tx) => {
      const [row] = await tx
        .update(refunds)
        .set({ status: "processed", gatewayRefundId: gatewayRefund.id, processedAt: sql`now()` })
        .where(eq(refunds.id, refund.id))
        .returning();
      await spec.settle(tx, order, row);
      await this.deps.refunded(tx, row);
      return row;
    });
  }

  private async planCenterOf(tx: Tx, orderId: string): Promise<string | null> {
    const [terms] = await tx
      .select({ centerId: planOrders.centerId })
      .from(planOrders)
      .where(eq(planOrders.orderId, orderId));
    return terms?.centerId ?? null;
  }

  /** The students' paid orders an institute sold, newest first, each with its refund if any. */
  async studentPayments(centerId: string, page: { limit: number; offset: number }): Promise<StudentPaymentJson[]> {
    const rows = await this.deps.db
      .select({
        order: orders,
        name: users.name,
        email: users.email,
        title: contents.title,
        type: contents.type,
        refund: refunds,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.buyerId))
      .innerJoin(contents, eq(contents.id, orders.contentId))
      .leftJoin(refunds, and(eq(refunds.orderId, orders.id), ne(refunds.status, "failed")))
      .where(and(eq(orders.sellerCenterId, centerId), eq(orders.subject, "content"), eq(orders.status, "paid")))
      .orderBy(desc(orders.paidAt), desc(orders.id))
      .limit(page.limit)
      .offset(page.offset);
    return rows.map(({ order, name, email, title, type, refund }) => ({
      _id: order.id,
      student: { name, email },
      item: `${CONTENT_TYPE_LABELS[type]}: ${title}`,
      amount: order.amount,
      currency: order.currency,
      paidAt: (order.paidAt ?? order.createdAt).toISOString(),
      paymentId: order.gatewayPaymentId ?? "",
      paidToInstitute: order.merchantAccountId !== null,
      refund: refund ? toRefundJson(refund) : null,
    }));
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
