import { and, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { centers, contents, enrollments, mockTests, orders, seriesTests } from "../db/schema/index.ts";
import type { Db, DbOrTx, Tx } from "../db/types.ts";
import { HttpError, forbidden, notFound, parseWith } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import type { Receipt } from "../messages/receipts.ts";
import { CONTENT_TYPE_LABELS } from "#common/validation/content.ts";
import { readTags, type ReadCache, type ReadCaches } from "../caches/read-cache.ts";
import type { CapturedPayment, FailedPayment, OrderKind } from "../payments/completion.ts";
import type { OrderRow } from "../payments/ledger.ts";
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
import type { OrderDesk } from "./orders.ts";
import type { Site } from "./tenants.ts";
import { shownByItsInstitute } from "./site-visibility.ts";

/** A content order: a ledger row whose subject is a content. */
type ContentOrder = OrderRow & { contentId: string };
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
  orders: OrderDesk;
  delivery: DeliveryService;
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
  readonly orderKind: OrderKind;

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
      subject: "content",
      fulfil: (tx, order, payment) => this.fulfil(tx, order as ContentOrder, payment),
      failed: (order, failure) => this.failed(order, failure),
      afterCommit: (order) => this.studentChanged(order.buyerId),
      present: async (order) => ({
        contentId: order.contentId,
        enrollmentId: order.contentId ? await this.enrollmentOf(deps.db, order.buyerId, order.contentId) : null,
      }),
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
    const { db, payments } = this.deps;
    const amount = content.price;
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
      .from(orders)
      .where(
        and(
          eq(orders.buyerId, student.id),
          eq(orders.contentId, content.id),
          inArray(orders.status, ["created", "failed"]),
          eq(orders.amount, amount),
          account ? eq(orders.merchantAccountId, account.id) : isNull(orders.merchantAccountId),
          gt(orders.createdAt, new Date(Date.now() - REUSE_PENDING_MS)),
        ),
      )
      .orderBy(desc(orders.createdAt))
      .limit(1);
    if (pending)
      return {
        kind: "order",
        order: { id: pending.gatewayOrderId, amount, currency: pending.currency },
        keyId: account?.keyId ?? payments.gateway.keyId,
        content: summary,
      };

    const { order, keyId } = await this.deps.orders.place({
      buyerId: student.id,
      subject: { kind: "content", content },
      sellerCenterId: centerId ?? null,
      account,
      belowMinimum: PRICE_TOO_LOW,
      notes: { contentId: content.id },
    });
    return {
      kind: "order",
      order: { id: order.gatewayOrderId, amount, currency: order.currency },
      keyId,
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
    const order = await payments.completion.ledger.byGatewayOrder(checkout.orderId);
    if (!order?.contentId) throw new HttpError(422, UNKNOWN_ORDER);
    if (order.buyerId !== student.id) throw forbidden(ORDER_OF_ANOTHER_ACCOUNT);
    const result = await payments.confirmCheckout(checkout);
    const enrollmentId = await this.enrollmentOf(db, order.buyerId, order.contentId);
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

  /** Enrols the order's student (once: an enrolment that exists already stays as it is). */
  private async fulfil(tx: Tx, order: ContentOrder, payment: CapturedPayment): Promise<void> {
    const [enrolled] = await tx
      .insert(enrollments)
      .values({ studentId: order.buyerId, contentId: order.contentId, orderId: order.id })
      .onConflictDoNothing()
      .returning({ id: enrollments.id });
    const [bought] = await tx
      .select({ title: contents.title, type: contents.type, centerId: contents.centerId })
      .from(contents)
      .where(eq(contents.id, order.contentId));
    await this.deps.receipt(tx, {
      userId: order.buyerId,
      item: `${CONTENT_TYPE_LABELS[bought.type]}: ${bought.title}`,
      amount: order.amount,
      currency: order.currency,
      paymentId: payment.paymentId,
      centerId: order.sellerCenterId ?? bought.centerId,
      path: "/student/my-courses",
      source: { orderId: order.id },
    });
    if (!enrolled) {
      // Already enrolled (e.g. an older order paid in another tab): the money needs a person to refund it.
      this.deps.logger.warn("content paid for by a student already enrolled; consider a refund", {
        orderId: order.id,
        paymentId: payment.paymentId,
      });
    }
  }

  private failed(order: OrderRow, failure: FailedPayment): void {
    this.deps.logger.info("content payment failed", {
      orderId: order.id,
      paymentId: failure.paymentId,
      reason: failure.reason,
    });
  }
}
