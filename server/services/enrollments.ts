import { randomUUID } from "node:crypto";
import { and, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { centers, contentOrders, contents, enrollments, mockTests, seriesTests } from "../db/schema/index.ts";
import type { Db, DbOrTx, Tx } from "../db/types.ts";
import { HttpError, badRequest, forbidden, notFound, parseWith } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import type { Receipt } from "../messages/receipts.ts";
import { CONTENT_TYPE_LABELS } from "#common/validation/content.ts";
import { readTags, type ReadCache, type ReadCaches } from "../caches/read-cache.ts";
import type { CapturedPayment, FailedPayment, OrderKind, PayableOrder } from "../payments/completion.ts";
import { INVALID_SIGNATURE, UNKNOWN_ORDER, type Payments } from "../payments/index.ts";
import type { EnrollmentJson } from "#common/content-types.ts";
import {
  CONTENT_UNAVAILABLE,
  EnrollSchema,
  ORDER_OF_ANOTHER_ACCOUNT,
  PRICE_TOO_LOW,
} from "#common/validation/enrollment.ts";
import { VerifyPaymentSchema } from "#common/validation/setup.ts";
import { MERCHANT_TEXTS } from "#common/validation/merchant-account.ts";
import { availableOn, learningItemJson, siteCenterId } from "./catalog.ts";
import { viewColumns, type ContentView } from "./content.ts";
import type { Reader } from "./content-access.ts";
import type { DeliveryService } from "./delivery.ts";
import { ORDER_FAILED } from "./purchases.ts";
import { RATE_RULES, type RateLimiter } from "./rate-limit.ts";
import { tooMany } from "./accounts.ts";
import type { Site } from "./tenants.ts";
import { shownByItsInstitute } from "./site-visibility.ts";

export type ContentOrderRow = typeof contentOrders.$inferSelect;
type ContentOrder = ContentOrderRow & PayableOrder;
/** A row of a student's courses: the content, and their enrolment in it. */
type CourseRow = ContentView & { enrollmentId: string; enrolledAt: Date };

/** An unpaid order is offered again for this long (a closed Checkout, a double click), instead of a new one. */
/** The attempts' own words for a test past its window (server/services/mock-tests/attempts.ts). */
export const TEST_CLOSED = "This test has closed";

const REUSE_PENDING_MS = 12 * 60 * 60 * 1000;

export type EnrolOutcome =
  | { kind: "enrolled"; enrollmentId: string; created: boolean }
  | {
      kind: "order";
      order: { id: string; amount: number; currency: string };
      keyId: string;
      content: { id: string; title: string };
    };

export interface EnrollmentServiceDeps {
  db: Db;
  payments: Payments;
  delivery: DeliveryService;
  rateLimiter: RateLimiter;
  logger: Logger;
  reads: ReadCaches;
  /** The buyer's receipt, in the completing transaction. */
  receipt: (tx: Tx, receipt: Receipt) => Promise<void>;
}

/**
 * Students' enrolments: free content at once, paid content through a gateway order priced from
 * the content (the "content" order kind of the payment completion, so the browser's verify and
 * the gateway's webhooks complete it exactly once), and the student's own courses.
 */
export class EnrollmentService {
  private readonly deps: EnrollmentServiceDeps;
  readonly orderKind: OrderKind<ContentOrder>;

  /** A student's courses, everywhere or on one institute's domain: the page every student opens, so prepared once. */
  private readonly courses;
  /** Their rows kept in memory (server/caches/read-cache.ts), by student and institute. */
  private readonly coursesKept: ReadCache<CourseRow[]>;

  constructor(deps: EnrollmentServiceDeps) {
    this.deps = deps;
    this.coursesKept = deps.reads.create();
    const courses = (onCenter: boolean) =>
      deps.db
        .select({ ...viewColumns, enrollmentId: enrollments.id, enrolledAt: enrollments.createdAt })
        .from(enrollments)
        .innerJoin(contents, eq(contents.id, enrollments.contentId))
        .leftJoin(centers, eq(centers.id, contents.centerId))
        // On an institute's domain, only what that institute shows (site-visibility.ts).
        .where(
          and(
            eq(enrollments.studentId, sql.placeholder("studentId")),
            onCenter ? and(eq(contents.centerId, sql.placeholder("centerId")), shownByItsInstitute()) : undefined,
          ),
        )
        .orderBy(desc(enrollments.createdAt), desc(enrollments.id))
        .prepare(onCenter ? "pathshala_my_courses_on_center" : "pathshala_my_courses");
    this.courses = { everywhere: courses(false), onCenter: courses(true) };
    this.orderKind = {
      name: "content",
      lock: (tx, gatewayOrderId) => this.lock(tx, gatewayOrderId),
      fulfil: (tx, order, payment) => this.fulfil(tx, order, payment),
      markFailed: (tx, order, failure) => this.markFailed(tx, order, failure),
      afterCommit: (order) => this.studentChanged(order.studentId),
      account: async (gatewayOrderId) => {
        const [row] = await deps.db
          .select({ account: contentOrders.merchantAccountId })
          .from(contentOrders)
          .where(eq(contentOrders.gatewayOrderId, gatewayOrderId))
          .limit(1);
        return row ? row.account : undefined;
      },
      present: async (gatewayOrderId) => {
        const order = await this.byGatewayOrder(gatewayOrderId);
        return order
          ? {
              contentId: order.contentId,
              enrollmentId: await this.enrollmentOf(deps.db, order.studentId, order.contentId),
            }
          : {};
      },
    };
  }

  /**
   * Enrols `student` in a content offered on `site`. Already enrolled: the same enrolment, nothing
   * new. Free: enrolled at once. Paid: a gateway order for the content's own price, to pay in
   * Checkout (an unpaid one from the last hours is offered again rather than a second order).
   */
  async enroll(student: Reader, input: unknown, site: Site): Promise<EnrolOutcome> {
    const { contentId } = parseWith(EnrollSchema, input);
    const existing = await this.enrollmentOf(this.deps.db, student.id, contentId);
    if (existing) return { kind: "enrolled", enrollmentId: existing, created: false };
    const [content] = await this.deps.db
      .select(viewColumns)
      .from(contents)
      .leftJoin(centers, eq(centers.id, contents.centerId))
      .where(and(eq(contents.id, contentId), availableOn(site)));
    if (!content) throw notFound(CONTENT_UNAVAILABLE);
    if (content.type === "test") {
      const [test] = await this.deps.db
        .select({ closesAt: mockTests.closesAt })
        .from(mockTests)
        .where(eq(mockTests.contentId, content.id));
      // Nobody could sit it: a closed test is never sold.
      if (test?.closesAt && test.closesAt <= new Date()) throw new HttpError(409, TEST_CLOSED);
      // Bought already, in a series: the series' enrolment opens it, never a second payment.
      const viaSeries = await this.seriesEnrollmentFor(student.id, content.id);
      if (viaSeries) return { kind: "enrolled", enrollmentId: viaSeries, created: false };
    }
    if (content.price === 0) {
      const outcome = await this.enrolFree(student, content.id, site);
      this.studentChanged(student.id);
      return outcome;
    }
    return this.placeOrder(student, content, site);
  }

  private async enrolFree(student: Reader, contentId: string, site: Site): Promise<EnrolOutcome> {
    return this.deps.db.transaction(async (tx) => {
      // Shares the lock that deleting the content takes, so a content is never deleted under a new enrolment.
      const [content] = await tx
        .select({ id: contents.id })
        .from(contents)
        .where(and(eq(contents.id, contentId), availableOn(site)))
        .for("share");
      if (!content) throw notFound(CONTENT_UNAVAILABLE);
      const [created] = await tx
        .insert(enrollments)
        .values({ studentId: student.id, contentId })
        .onConflictDoNothing()
        .returning({ id: enrollments.id });
      if (created) return { kind: "enrolled" as const, enrollmentId: created.id, created: true };
      // Enrolled meanwhile by a concurrent request: the same enrolment.
      return {
        kind: "enrolled" as const,
        enrollmentId: (await this.enrollmentOf(tx, student.id, contentId))!,
        created: false,
      };
    });
  }

  private async placeOrder(student: Reader, content: ContentView, site: Site): Promise<EnrolOutcome> {
    const { db, payments, logger } = this.deps;
    const amount = content.price;
    if (amount < 100) throw badRequest(PRICE_TOO_LOW);
    const summary = { id: content.id, title: content.title };
    // The institute the sale belongs to (the site it was made on, always the content's own there) is
    // its merchant of record: the order is placed on its own account, or not at all (decision 0040).
    // A creator with no institute still sells on the platform's account.
    const centerId = siteCenterId(site) ?? content.centerId;
    const account = centerId ? await payments.merchants.connectedOf(centerId) : null;
    if (centerId && !account)
      throw new HttpError(409, MERCHANT_TEXTS.notOnSale(content.businessName ?? "This institute"));
    const [pending] = await db
      .select()
      .from(contentOrders)
      .where(
        and(
          eq(contentOrders.studentId, student.id),
          eq(contentOrders.contentId, content.id),
          inArray(contentOrders.status, ["created", "failed"]),
          eq(contentOrders.amount, amount),
          account ? eq(contentOrders.merchantAccountId, account.id) : isNull(contentOrders.merchantAccountId),
          gt(contentOrders.createdAt, new Date(Date.now() - REUSE_PENDING_MS)),
        ),
      )
      .orderBy(desc(contentOrders.createdAt))
      .limit(1);
    if (pending)
      return {
        kind: "order",
        order: { id: pending.gatewayOrderId, amount, currency: pending.currency },
        keyId: account?.keyId ?? payments.gateway.keyId,
        content: summary,
      };

    payments.ensureConfigured();
    const limit = await this.deps.rateLimiter.hit(RATE_RULES.paymentOrderUser, student.id);
    if (!limit.allowed) throw tooMany(limit.retryAfter);
    const id = randomUUID();
    let order;
    try {
      const gateway = await payments.gatewayOf(account?.id ?? null);
      order = await gateway.createOrder({
        amount,
        currency: "INR",
        receipt: id,
        notes: { kind: "content", contentOrderId: id, contentId: content.id },
      });
    } catch (error) {
      logger.error("gateway order creation failed", { error, contentOrderId: id });
      throw new HttpError(502, ORDER_FAILED);
    }
    if (order.amount !== amount || order.currency !== "INR") {
      logger.error("gateway answered a different amount", { expected: amount, got: order.amount, orderId: order.id });
      throw new HttpError(502, ORDER_FAILED);
    }
    await db.insert(contentOrders).values({
      id,
      contentId: content.id,
      studentId: student.id,
      creatorId: content.creatorId,
      centerId,
      merchantAccountId: account?.id ?? null,
      amount,
      currency: "INR",
      gatewayOrderId: order.id,
    });
    return {
      kind: "order",
      order: { id: order.id, amount, currency: "INR" },
      keyId: account?.keyId ?? payments.gateway.keyId,
      content: summary,
    };
  }

  /**
   * The browser's Checkout result for one of the caller's content orders: checked, completed once
   * (or found completed by a webhook), and answered with the enrolment it made.
   */
  async confirm(student: Reader, input: unknown): Promise<{ enrollmentId: string; alreadyCompleted: boolean }> {
    const body = parseWith(VerifyPaymentSchema, input);
    const checkout = {
      orderId: body.razorpay_order_id,
      paymentId: body.razorpay_payment_id,
      signature: body.razorpay_signature,
    };
    const { payments, db } = this.deps;
    // Verified with the key secret of the account the order was placed on (the institute's own).
    const gateway = await payments.gatewayForOrder(checkout.orderId);
    if (!gateway.verifyCheckout(checkout)) throw new HttpError(422, INVALID_SIGNATURE);
    const order = await this.byGatewayOrder(checkout.orderId);
    if (!order) throw new HttpError(422, UNKNOWN_ORDER);
    if (order.studentId !== student.id) throw forbidden(ORDER_OF_ANOTHER_ACCOUNT);
    const result = await payments.confirmCheckout(checkout);
    const enrollmentId = await this.enrollmentOf(db, order.studentId, order.contentId);
    if (!enrollmentId) throw new Error(`paid content order ${order.id} has no enrolment`);
    return { enrollmentId, alreadyCompleted: result.outcome === "already-paid" };
  }

  /**
   * The student's enrolments, newest first, with links to open them (signed file links; live
   * links from 15 minutes before the class). On an institute's domain, only that institute's.
   * Archived or deactivated content stays: it was bought.
   */
  async myCourses(student: Reader, site: Site, now = new Date()): Promise<EnrollmentJson[]> {
    const centerId = siteCenterId(site);
    const rows = await this.coursesKept.read(
      `${student.id}|${centerId ?? ""}`,
      () =>
        centerId
          ? this.courses.onCenter.execute({ studentId: student.id, centerId })
          : this.courses.everywhere.execute({ studentId: student.id }),
      (courses) => [
        readTags.student(student.id),
        // On an institute's domain its team and hidden items decide too, even when none is listed.
        ...(centerId ? [readTags.center(centerId)] : []),
        ...courses.flatMap(readTags.ofContent),
      ],
    );
    return Promise.all(
      rows.map(async ({ enrollmentId, enrolledAt, ...content }) => {
        // Each row is the student's own enrolment: the right to the file is already established.
        const link = content.fileKey ? await this.deps.delivery.signedLink(student, content) : null;
        return {
          enrollmentId,
          enrolledAt: enrolledAt.toISOString(),
          content: learningItemJson(content, { reader: student, enrollmentId, link, now }),
        };
      }),
    );
  }

  /** This instance enrolled the student: their courses show it on the next request here. */
  private studentChanged(studentId: string): void {
    this.deps.reads.forget(readTags.student(studentId));
  }

  async byGatewayOrder(gatewayOrderId: string): Promise<ContentOrderRow | undefined> {
    const [row] = await this.deps.db
      .select()
      .from(contentOrders)
      .where(eq(contentOrders.gatewayOrderId, gatewayOrderId))
      .limit(1);
    return row;
  }

  /** The student's enrolment in a series that holds the test, if any. */
  private async seriesEnrollmentFor(studentId: string, testId: string): Promise<string | null> {
    const [row] = await this.deps.db
      .select({ id: enrollments.id })
      .from(enrollments)
      .innerJoin(seriesTests, eq(seriesTests.seriesId, enrollments.contentId))
      .where(and(eq(enrollments.studentId, studentId), eq(seriesTests.testId, testId)))
      .limit(1);
    return row?.id ?? null;
  }

  private async enrollmentOf(db: DbOrTx, studentId: string, contentId: string): Promise<string | null> {
    const [row] = await db
      .select({ id: enrollments.id })
      .from(enrollments)
      .where(and(eq(enrollments.studentId, studentId), eq(enrollments.contentId, contentId)));
    return row?.id ?? null;
  }

  private async lock(tx: Tx, gatewayOrderId: string): Promise<ContentOrder | undefined> {
    const [row] = await tx
      .select()
      .from(contentOrders)
      .where(eq(contentOrders.gatewayOrderId, gatewayOrderId))
      .for("update");
    return row ? { ...row, paymentId: row.gatewayPaymentId } : undefined;
  }

  /** Marks the order paid and enrols its student (once: an enrolment that exists already stays as it is). */
  private async fulfil(tx: Tx, order: ContentOrder, payment: CapturedPayment): Promise<void> {
    await tx
      .update(contentOrders)
      .set({ status: "paid", gatewayPaymentId: payment.paymentId, paidAt: sql`now()` })
      .where(eq(contentOrders.id, order.id));
    const [enrolled] = await tx
      .insert(enrollments)
      .values({ studentId: order.studentId, contentId: order.contentId, orderId: order.id })
      .onConflictDoNothing()
      .returning({ id: enrollments.id });
    const [bought] = await tx
      .select({ title: contents.title, type: contents.type, centerId: contents.centerId })
      .from(contents)
      .where(eq(contents.id, order.contentId));
    await this.deps.receipt(tx, {
      userId: order.studentId,
      item: `${CONTENT_TYPE_LABELS[bought.type]}: ${bought.title}`,
      amount: order.amount,
      currency: order.currency,
      paymentId: payment.paymentId,
      centerId: order.centerId ?? bought.centerId,
      path: "/student/my-courses",
      source: { contentOrderId: order.id },
    });
    if (!enrolled) {
      // Already enrolled (e.g. an older order paid in another tab): the money needs a person to refund it.
      this.deps.logger.warn("content paid for by a student already enrolled; consider a refund", {
        contentOrderId: order.id,
        paymentId: payment.paymentId,
      });
    }
  }

  private async markFailed(tx: Tx, order: ContentOrder, failure: FailedPayment): Promise<void> {
    await tx
      .update(contentOrders)
      .set({ status: "failed" })
      .where(and(eq(contentOrders.id, order.id), eq(contentOrders.status, "created")));
    this.deps.logger.info("content payment failed", {
      contentOrderId: order.id,
      paymentId: failure.paymentId,
      reason: failure.reason,
    });
  }
}
