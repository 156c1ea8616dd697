import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { enrollments, invoices, memberships, orders, planOrders, refunds } from "../../server/db/schema/index.ts";
import type { Database } from "../../server/db/types.ts";
import { openDatabaseAt } from "../helpers/older-database.ts";

/**
 * Migration 0034 (issue 40 §2) on a database the product made with two order tables: it is
 * migrated up to 0033 and given plan purchases (paid with its invoice, refunded with its credit
 * note, and unpaid) and content orders (paid on an institute's account with its enrolment and
 * invoice, and failed on the platform's), then upgraded the way a deployment is. Every row is
 * accounted for in the one ledger, and what pointed at an order still does.
 */

let older: Awaited<ReturnType<typeof openDatabaseAt>>;
let database: Database;
let insertRow: (typeof older)["insertRow"];

beforeAll(async () => {
  older = await openDatabaseAt(33);
  ({ database, insertRow } = older);
}, 300_000);
afterAll(() => older?.drop());

const person = (name: string, role: string) =>
  insertRow("users", { name, email: `${name.toLowerCase().replace(/ /g, ".")}@example.com`, passwordHash: "x", role });

let invoiceSeq = 0;
const invoice = (buyer: string, link: Record<string, string | null>, kind = "invoice", total = 500_000) => {
  invoiceSeq += 1;
  return insertRow("invoices", {
    kind,
    series: `platform:${kind}`,
    financialYear: "2026-27",
    seq: invoiceSeq,
    number: `INV/2026-27/${String(invoiceSeq).padStart(5, "0")}`,
    sellerName: "Pathshala",
    buyerUserId: buyer,
    buyerName: "Buyer",
    buyerEmail: "buyer@example.com",
    description: "What was sold",
    sac: "999293",
    rate: 18,
    taxable: Math.round(total / 1.18),
    cgst: 0,
    sgst: 0,
    igst: total - Math.round(total / 1.18),
    total,
    ...link,
  });
};

describe("migrating plan purchases and content orders into one ledger (0034)", () => {
  it("carries every order over with its id, and invoices, refunds and enrolments still point at it", async () => {
    const db = database.db;
    const owner = await person("Anita Owner", "business");
    const student = await person("Sita Student", "student");
    const other = await person("Gopal Student", "student");
    const creator = await person("Kiran Creator", "creator");
    const sunrise = await insertRow("centers", {
      slug: "sunrise",
      instituteName: "Sunrise Academy",
      ownerId: owner.id,
    });
    const plan = await insertRow("pricing_plans", {
      name: "1 Year Plan",
      monthlyPrice: 100_000,
      quarterlyPrice: 250_000,
      yearlyPrice: 500_000,
    });
    const account = await insertRow("merchant_accounts", {
      centerId: sunrise.id,
      method: "keys",
      keyId: "rzp_test_sunrise0001",
      keySecretSealed: "sealed",
      webhookSecretSealed: "sealed",
    });
    const course = await insertRow("contents", {
      creatorId: creator.id,
      centerId: sunrise.id,
      type: "pdf",
      title: "Physics notes",
      price: 49_900,
    });
    const paidAt = "2026-10-01T10:00:00.000Z";
    const terms = {
      planName: "1 Year Plan",
      billing: "yearly",
      durationDays: 365,
      instituteName: "Sunrise Academy",
      ownerName: "Anita Owner",
      email: "anita.owner@example.com",
      domain: "sunrise.example.com",
    };
    const paidPlan = await insertRow("purchases", {
      userId: owner.id,
      centerId: sunrise.id,
      planId: plan.id,
      ...terms,
      phone: "+919876543210",
      amount: 500_000,
      gatewayOrderId: "order_plan_paid",
      gatewayPaymentId: "pay_plan_paid",
      status: "paid",
      paidAt,
    });
    const unpaidPlan = await insertRow("purchases", {
      userId: owner.id,
      planId: plan.id,
      ...terms,
      domain: "later.example.com",
      amount: 100_000,
      billing: "monthly",
      durationDays: 30,
      gatewayOrderId: "order_plan_unpaid",
    });
    const paidCourse = await insertRow("content_orders", {
      contentId: course.id,
      studentId: student.id,
      creatorId: creator.id,
      centerId: sunrise.id,
      merchantAccountId: account.id,
      amount: 49_900,
      gatewayOrderId: "order_course_paid",
      gatewayPaymentId: "pay_course_paid",
      status: "paid",
      paidAt,
    });
    const failedCourse = await insertRow("content_orders", {
      contentId: course.id,
      studentId: other.id,
      creatorId: creator.id,
      amount: 49_900,
      gatewayOrderId: "order_course_failed",
      status: "failed",
    });
    const enrolment = await insertRow("enrollments", {
      studentId: student.id,
      contentId: course.id,
      orderId: paidCourse.id,
    });
    const planInvoice = await invoice(owner.id, { purchaseId: paidPlan.id });
    const courseInvoice = await invoice(student.id, { contentOrderId: paidCourse.id }, "invoice", 49_900);
    const refund = await insertRow("refunds", {
      purchaseId: paidPlan.id,
      centerId: sunrise.id,
      amount: 500_000,
      status: "processed",
      gatewayRefundId: "rfnd_plan_paid",
    });
    const creditNote = await invoice(owner.id, { purchaseId: paidPlan.id, refundId: refund.id }, "credit_note");

    await older.upgrade();

    const ledger = await db.select().from(orders).orderBy(orders.gatewayOrderId);
    expect(ledger).toHaveLength(4);
    expect(ledger).toEqual([
      expect.objectContaining({
        id: failedCourse.id,
        subject: "content",
        contentId: course.id,
        planId: null,
        buyerId: other.id,
        sellerCenterId: null,
        creatorId: creator.id,
        merchantAccountId: null,
        amount: 49_900,
        gatewayOrderId: "order_course_failed",
        gatewayPaymentId: null,
        status: "failed",
        paidAt: null,
      }),
      expect.objectContaining({
        id: paidCourse.id,
        subject: "content",
        contentId: course.id,
        buyerId: student.id,
        sellerCenterId: sunrise.id,
        creatorId: creator.id,
        merchantAccountId: account.id,
        amount: 49_900,
        currency: "INR",
        gatewayPaymentId: "pay_course_paid",
        status: "paid",
        paidAt: new Date(paidAt),
      }),
      expect.objectContaining({
        id: paidPlan.id,
        subject: "plan",
        planId: plan.id,
        contentId: null,
        buyerId: owner.id,
        // The platform sells plans.
        sellerCenterId: null,
        creatorId: null,
        merchantAccountId: null,
        amount: 500_000,
        gatewayPaymentId: "pay_plan_paid",
        status: "paid",
        paidAt: new Date(paidAt),
      }),
      expect.objectContaining({ id: unpaidPlan.id, subject: "plan", status: "created", amount: 100_000, paidAt: null }),
    ]);

    const planTerms = await db.select().from(planOrders).orderBy(planOrders.domain);
    expect(planTerms).toEqual([
      {
        orderId: unpaidPlan.id,
        ...terms,
        domain: "later.example.com",
        billing: "monthly",
        durationDays: 30,
        phone: null,
        centerId: null,
      },
      { orderId: paidPlan.id, ...terms, phone: "+919876543210", centerId: sunrise.id },
    ]);

    const documents = await db.select().from(invoices);
    expect(new Map(documents.map((d) => [d.id, d.orderId]))).toEqual(
      new Map([
        [planInvoice.id, paidPlan.id],
        [courseInvoice.id, paidCourse.id],
        [creditNote.id, paidPlan.id],
      ]),
    );
    expect(documents.find((d) => d.id === creditNote.id)?.refundId).toBe(refund.id);
    expect(await db.select({ orderId: refunds.orderId }).from(refunds)).toEqual([{ orderId: paidPlan.id }]);
    expect(
      await db.select({ orderId: enrollments.orderId }).from(enrollments).where(eq(enrollments.id, enrolment.id)),
    ).toEqual([{ orderId: paidCourse.id }]);

    const oldTables = (await db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_name in ('purchases', 'content_orders')`,
    )) as unknown as { rows: unknown[] };
    expect(oldTables.rows).toEqual([]);

    // The ledger keeps the old tables' promises: one order per gateway order, and a paid order
    // with an institute makes its buyer a student there.
    await expect(
      db.insert(orders).values({
        subject: "content",
        contentId: course.id,
        buyerId: other.id,
        amount: 49_900,
        gatewayOrderId: "order_course_paid",
      }),
    ).rejects.toThrow();
    const [again] = await db
      .insert(orders)
      .values({
        subject: "content",
        contentId: course.id,
        buyerId: other.id,
        sellerCenterId: sunrise.id,
        amount: 49_900,
        gatewayOrderId: "order_course_again",
      })
      .returning();
    const studentsOf = () =>
      db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(
          and(eq(memberships.centerId, sunrise.id), eq(memberships.userId, other.id), eq(memberships.role, "student")),
        );
    expect(await studentsOf()).toEqual([]);
    await db.update(orders).set({ status: "paid", paidAt: new Date() }).where(eq(orders.id, again.id));
    expect(await studentsOf()).toEqual([{ userId: other.id }]);
  });
});
