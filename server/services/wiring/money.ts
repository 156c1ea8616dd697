import type { Database, DbOrTx } from "../../db/types.ts";
import type { Env } from "../../runtime/env.ts";
import type { Logger } from "../../runtime/logger.ts";
import { readTags, type ReadCaches } from "../../caches/read-cache.ts";
import { createPayments, type Payments } from "../../payments/index.ts";
import { secretBoxFor } from "../../payments/secrets.ts";
import { InvoiceService } from "../../invoices/service.ts";
import { sendReceipt, sendRefundNote, type Receipt } from "../../messages/receipts.ts";
import type { TenantDirectory } from "../tenants.ts";
import type { RateLimiter } from "../rate-limit.ts";
import type { NoticeService } from "../notices.ts";
import type { DomainService } from "../domains.ts";
import type { DeliveryService } from "../delivery.ts";
import { PlanService } from "../plans.ts";
import { PurchaseService } from "../purchases.ts";
import { OrderDesk } from "../orders.ts";
import { TrialService } from "../trials.ts";
import { RefundService } from "../refunds.ts";
import { EnrollmentService } from "../enrollments.ts";
import type { MessagingServices } from "./messaging.ts";

/** What is bought and paid for: plans and trials, students' orders, the gateway, invoices and refunds. */
export interface MoneyServices {
  plans: PlanService;
  payments: Payments;
  purchases: PurchaseService;
  trials: TrialService;
  enrollments: EnrollmentService;
  /** Places every kind of order (fees' too: server/services/fees/online.ts). */
  orderDesk: OrderDesk;
  refunds: RefundService;
  invoices: InvoiceService;
}

export function createMoney(
  env: Env,
  database: Database,
  logger: Logger,
  { links, messages }: MessagingServices,
  shared: {
    tenants: TenantDirectory;
    rateLimiter: RateLimiter;
    notices: NoticeService;
    domains: DomainService;
    delivery: DeliveryService;
    reads: ReadCaches;
  },
): MoneyServices {
  const { db } = database;
  const { tenants, rateLimiter, notices, domains, delivery, reads } = shared;
  const plans = new PlanService(db, database);
  const invoices = new InvoiceService(db, {
    legalName: env.PLATFORM_LEGAL_NAME ?? null,
    legalAddress: env.PLATFORM_LEGAL_ADDRESS ?? null,
    gstin: env.PLATFORM_GSTIN ?? null,
    sac: env.GST_SAC,
    rate: env.GST_RATE,
  });
  messages.attachInvoicesWith((invoiceId) => invoices.attachment(invoiceId));
  // One receipt, with its invoice issued in the payment's transaction (decision 0026), for every sale.
  const receipt = async (tx: DbOrTx, sold: Receipt) =>
    sendReceipt(tx, messages, links, sold, await invoices.issue(tx, sold.source));
  const payments = createPayments(env, db, logger, {
    box: secretBoxFor(env),
    webhookUrl: (accountId) => links.to(null, `/api/payment/webhook/${accountId}`),
    platformUrl: (path) => links.to(null, path),
    centerChanged: () => tenants.changed(),
  });
  const orders = new OrderDesk({ db, payments, rateLimiter, logger: logger.child({ component: "orders" }) });
  const trials: TrialService = new TrialService({
    db,
    plans,
    domains,
    tenants,
    notices,
    rateLimiter,
    logger,
    platformDomain: env.PLATFORM_DOMAIN,
  });
  const purchases: PurchaseService = new PurchaseService({
    db,
    plans,
    orders,
    tenants,
    domains,
    logger,
    platformDomain: env.PLATFORM_DOMAIN,
    convertTrial: (tx, center, planName): Promise<void> => trials.convert(tx, center, planName),
    receipt,
  });
  payments.completion.register(purchases.orderKind);
  const enrollments = new EnrollmentService({ db, payments, orders, delivery, logger, reads, receipt });
  payments.completion.register(enrollments.orderKind);
  const refunds = new RefundService({
    db,
    payments,
    notices,
    tenants,
    logger: logger.child({ component: "refunds" }),
    refunded: (tx, refund) => sendRefundNote(tx, messages, links, refund, invoices),
    studentChanged: (studentId) => reads.forget(readTags.student(studentId)),
  });
  return { plans, payments, purchases, trials, enrollments, orderDesk: orders, refunds, invoices };
}
