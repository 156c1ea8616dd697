import { and, eq, gt, gte, isNotNull, isNull, lte, not } from "drizzle-orm";
import { centers, feeAccounts, feeDues, feeMandateDebits, feeMandates, users } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { HttpError } from "../../http/errors.ts";
import { familyContactsOf } from "../../db/families.ts";
import { runInTenantScope } from "../../db/tenant-scope.ts";
import type { Logger } from "../../runtime/logger.ts";
import type { OrderRow, Payments } from "../../payments/index.ts";
import type { FailedPayment } from "../../payments/completion.ts";
import type { MessageService } from "../../messages/service.ts";
import type { SiteLinks } from "../../messages/links.ts";
import { e164 } from "../../messages/phone.ts";
import type { OrderDesk } from "../orders.ts";
import { toRupees } from "#common/fees.ts";
import { formatDate, formatRupees } from "#common/format.ts";
import { addDays, indiaDate } from "#common/india-dates.ts";
import { FEE_ONLINE_MINIMUM } from "#common/validation/fee-online.ts";
import { RAIL_NAMES } from "#common/validation/fee-mandates.ts";
import { ledgerDues } from "./statements.ts";
import { refundAskedOf } from "./left.ts";
import type { FeeMandates } from "./mandates.ts";
import { repeat } from "../../runtime/repeat.ts";

/**
 * Days before a due's last date that its debit is presented: the gateway tells the payer a day
 * ahead (NPCI's pre-debit notice for UPI) and debits within about 36 hours, so the money is in
 * by the last date and no reminder or late fee is earned.
 */
export const PRESENT_DAYS_AHEAD = 2;

const DEBIT_FAILED = "The debit failed.";
/** What the family reads when the gateway refused to take a debit: its own words are for the log. */
const DEBIT_NOT_PRESENTED = "The payment gateway did not accept the debit.";
const aboveMandate = (amount: number, max: number) =>
  `${formatRupees(toRupees(amount))} is above the mandate's limit of ${formatRupees(toRupees(max))}: pay this due yourself.`;
const ACCOUNT_CHANGED =
  "The institute has changed its payment account since this was set up: set up the standing instruction again.";

interface Candidate {
  mandateId: string;
  centerId: string;
  accountId: string;
  payerId: string;
  rail: "upi-autopay" | "e-mandate";
  maxAmount: number;
  merchantAccountId: string | null;
  customerId: string;
  tokenId: string;
  dueId: string;
  label: string;
  dueOn: string;
  institute: string;
}

/**
 * The debits of standing instructions (issue 42 §7, decision 0051): on the leader's clock, each
 * due of an active mandate whose last date is at most `PRESENT_DAYS_AHEAD` days away is presented
 * once (a unique row per mandate and due, claimed before anything is asked of the gateway) for
 * what it still owes: an order of the "fee" kind on the mandate's account, then a recurring payment
 * on its token. The gateway reports the debit by webhook and the order kind receipts it, as any
 * online payment. A debit that cannot be presented or fails is recorded and the family is told,
 * once, with the Fees page to pay at; the due's ordinary reminders go on.
 */
export class FeeMandateDebits {
  private readonly deps: {
    db: Db;
    payments: Payments;
    orders: OrderDesk;
    messages: MessageService;
    links: SiteLinks;
    logger: Logger;
    now: () => Date;
  };

  constructor(deps: Omit<FeeMandateDebits["deps"], "now"> & { now?: () => Date }) {
    this.deps = { ...deps, now: deps.now ?? (() => new Date()) };
  }

  /** Presents every debit that is due to go; returns how many were presented to the gateway. */
  async run(now = this.deps.now()): Promise<number> {
    const { db } = this.deps;
    const today = indiaDate(now);
    const candidates: Candidate[] = (await runInTenantScope(null, () =>
      db
        .select({
          mandateId: feeMandates.id,
          centerId: feeMandates.centerId,
          accountId: feeMandates.accountId,
          payerId: feeMandates.payerId,
          rail: feeMandates.rail,
          maxAmount: feeMandates.maxAmount,
          merchantAccountId: feeMandates.merchantAccountId,
          customerId: feeMandates.gatewayCustomerId,
          tokenId: feeMandates.tokenId,
          dueId: feeDues.id,
          label: feeDues.label,
          dueOn: feeDues.dueOn,
          institute: centers.instituteName,
        })
        .from(feeMandates)
        .innerJoin(feeDues, eq(feeDues.accountId, feeMandates.accountId))
        .innerJoin(centers, eq(centers.id, feeMandates.centerId))
        .leftJoin(
          feeMandateDebits,
          and(eq(feeMandateDebits.mandateId, feeMandates.id), eq(feeMandateDebits.dueId, feeDues.id)),
        )
        .where(
          and(
            eq(feeMandates.status, "active"),
            isNotNull(feeMandates.tokenId),
            gt(feeMandates.expiresAt, now),
            gte(feeDues.dueOn, today),
            lte(feeDues.dueOn, addDays(today, PRESENT_DAYS_AHEAD)),
            isNull(feeMandateDebits.id),
            eq(centers.status, "active"),
            // A student leaving: once a refund is asked for, nothing more is taken, even if the
            // try that would end the mandate died before it did.
            not(refundAskedOf(db, feeMandates.accountId)),
          ),
        ),
    )) as Candidate[];
    let presented = 0;
    for (const candidate of candidates)
      if (await runInTenantScope(candidate.centerId, () => this.present(candidate, today))) presented += 1;
    return presented;
  }

  /**
   * What the "fee" order kind calls when a debit's order fails (the gateway's `payment.failed`):
   * the reason is kept on the debit and the family is told. Runs after the failure is recorded;
   * an order that is no debit is left alone.
   */
  failed(order: OrderRow, failure: FailedPayment): void {
    const { db, logger } = this.deps;
    void runInTenantScope(order.sellerCenterId, async () => {
      const [debit] = await db
        .update(feeMandateDebits)
        .set({ error: failure.reason?.slice(0, 300) || DEBIT_FAILED })
        .where(eq(feeMandateDebits.orderId, order.id))
        .returning({ id: feeMandateDebits.id });
      if (debit) await this.tell(debit.id);
    }).catch((error: unknown) => logger.warn("a failed fee debit was not recorded", { error, orderId: order.id }));
  }

  /** One due's debit, claimed once; false when nothing was presented to the gateway. */
  private async present(c: Candidate, today: string): Promise<boolean> {
    const { db, payments, orders, logger } = this.deps;
    const dues = await ledgerDues(db, { accountIds: [c.accountId] }, today);
    const owedOnDue = dues.find((d) => d.due.id === c.dueId)?.figures.balance ?? 0;
    const owedOnAccount = dues.reduce((sum, d) => sum + d.figures.balance, 0);
    const amount = Math.min(owedOnDue, owedOnAccount);
    // Paid already (at the desk, by a link), or too little for the gateway: nothing to present.
    if (amount < 100) return false;
    const merchant = await payments.merchants.connectedOf(c.centerId);
    const refusal =
      amount > c.maxAmount
        ? aboveMandate(amount, c.maxAmount)
        : merchant?.id !== c.merchantAccountId
          ? ACCOUNT_CHANGED
          : null;
    const [debit] = await db
      .insert(feeMandateDebits)
      .values({
        centerId: c.centerId,
        mandateId: c.mandateId,
        dueId: c.dueId,
        amount,
        presentedOn: today,
        error: refusal,
      })
      .onConflictDoNothing()
      .returning({ id: feeMandateDebits.id });
    if (!debit) return false;
    if (refusal) {
      await this.tell(debit.id);
      return false;
    }
    try {
      const { order } = await orders.place({
        buyerId: c.payerId,
        subject: { kind: "fee", fee: { accountId: c.accountId, amount } },
        sellerCenterId: c.centerId,
        account: merchant!,
        belowMinimum: FEE_ONLINE_MINIMUM,
        notes: { feeAccountId: c.accountId, dueId: c.dueId, mandateId: c.mandateId },
        details: async (tx, row) => {
          await tx.update(feeMandateDebits).set({ orderId: row.id }).where(eq(feeMandateDebits.id, debit.id));
        },
      });
      const [payer] = await db
        .select({ email: users.email, phone: users.phone })
        .from(users)
        .where(eq(users.id, c.payerId));
      const { paymentId } = await (
        await payments.gatewayOf(c.merchantAccountId)
      ).createRecurringPayment({
        orderId: order.gatewayOrderId,
        customerId: c.customerId,
        tokenId: c.tokenId,
        amount,
        email: payer.email,
        contact: (payer.phone && e164(payer.phone)) || "",
        description: `${c.label}: ${RAIL_NAMES[c.rail]} (${c.institute})`,
        notes: { feeAccountId: c.accountId, dueId: c.dueId, mandateId: c.mandateId, orderId: order.id },
      });
      await db.update(feeMandateDebits).set({ gatewayPaymentId: paymentId }).where(eq(feeMandateDebits.id, debit.id));
      logger.info("fee debit presented", { mandateId: c.mandateId, dueId: c.dueId, amount });
      return true;
    } catch (error) {
      const reason = error instanceof HttpError ? error.message : DEBIT_NOT_PRESENTED;
      logger.warn("fee debit could not be presented", { error, mandateId: c.mandateId, dueId: c.dueId });
      await db
        .update(feeMandateDebits)
        .set({ error: reason.slice(0, 300) })
        .where(eq(feeMandateDebits.id, debit.id));
      await this.tell(debit.id);
      return false;
    }
  }

  /** Tells the student and each parent linked there, once each, that a debit did not go through. */
  private async tell(debitId: string): Promise<void> {
    const { db, messages, links } = this.deps;
    const [row] = await db
      .select({
        amount: feeMandateDebits.amount,
        error: feeMandateDebits.error,
        label: feeDues.label,
        dueOn: feeDues.dueOn,
        rail: feeMandates.rail,
        studentId: feeAccounts.studentId,
        name: users.name,
        centerId: feeMandates.centerId,
        institute: centers.instituteName,
        slug: centers.slug,
        customDomain: centers.customDomain,
      })
      .from(feeMandateDebits)
      .innerJoin(feeMandates, eq(feeMandates.id, feeMandateDebits.mandateId))
      .innerJoin(feeAccounts, eq(feeAccounts.id, feeMandates.accountId))
      .innerJoin(users, eq(users.id, feeAccounts.studentId))
      .innerJoin(feeDues, eq(feeDues.id, feeMandateDebits.dueId))
      .innerJoin(centers, eq(centers.id, feeMandates.centerId))
      .where(eq(feeMandateDebits.id, debitId));
    if (!row) return;
    await db.transaction(async (tx) => {
      for (const contact of await familyContactsOf(tx, row.studentId, row.centerId))
        await messages.send(tx, {
          template: "fee-debit-failed",
          values: {
            name: row.name,
            institute: row.institute,
            method: RAIL_NAMES[row.rail],
            amount: formatRupees(toRupees(row.amount)),
            label: row.label,
            date: formatDate(row.dueOn),
            reason: row.error ?? DEBIT_FAILED,
            link: links.to(
              { slug: row.slug, customDomain: row.customDomain },
              contact.role === "student" ? "/student/fees" : "/parent/fees",
            ),
          },
          to: { email: contact.email, phone: contact.phone, userId: contact.userId },
          centerId: row.centerId,
          dedupeKey: `fee-debit-failed:${debitId}:${contact.userId}`,
        });
    });
  }
}

/**
 * Every quarter of an hour, on the leading instance (decision 0050): the debits that are due to go,
 * and any UPI authorisation's ₹1 the gateway did not take back at the time.
 */
export function startFeeDebits(
  services: { feeMandateDebits: FeeMandateDebits; feeMandates: Pick<FeeMandates, "giveBackPendingAuthorisations"> },
  onError: (error: unknown) => void,
  everyMs = 15 * 60_000,
): () => void {
  return repeat(
    async () => {
      await services.feeMandateDebits.run();
      await services.feeMandates.giveBackPendingAuthorisations();
    },
    everyMs,
    onError,
  );
}
