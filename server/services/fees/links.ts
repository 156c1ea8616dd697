import { randomUUID } from "node:crypto";
import { and, desc, eq, gt, inArray } from "drizzle-orm";
import { familyContactsOf } from "../../db/families.ts";
import { feePaymentLinks } from "../../db/schema/index.ts";
import type { Db, Tx } from "../../db/types.ts";
import { HttpError, conflict, notFound, parseWith } from "../../http/errors.ts";
import type { Logger } from "../../runtime/logger.ts";
import type { PaymentLinkEvent, PaymentLinkHandler, Payments } from "../../payments/index.ts";
import type { MessageService } from "../../messages/service.ts";
import { e164 } from "../../messages/phone.ts";
import { indiaDate } from "#common/india-dates.ts";
import { toRupees } from "#common/fees.ts";
import { formatDate, formatRupees } from "#common/format.ts";
import {
  FEE_DUE_NOT_FOUND,
  FEE_DUE_SETTLED,
  FEE_LINK_DAYS,
  FEE_LINK_FAILED,
  FeeLinkInput,
  notTakingFeesOnline,
  type FeeLinkStatus,
  type FeePaymentLinkJson,
} from "#common/validation/fee-online.ts";
import type { FeeSettlement } from "./settlement.ts";
import { dueOwner, owedOn, partialOnline } from "./due-owner.ts";
import { merchantAccountOnRow } from "../../payments/event-registry.ts";

const DAY = 86_400_000;
type LinkRow = typeof feePaymentLinks.$inferSelect;

/** Where a link's status goes on each webhook; a paid, expired or cancelled link stays as it is. */
const NEXT_STATUS: Record<PaymentLinkEvent["event"], FeeLinkStatus> = {
  "payment_link.paid": "paid",
  "payment_link.partially_paid": "partially_paid",
  "payment_link.expired": "expired",
  "payment_link.cancelled": "cancelled",
};
const FINAL: readonly FeeLinkStatus[] = ["paid", "expired", "cancelled"];

const toJson = (row: LinkRow): FeePaymentLinkJson => ({
  _id: row.id,
  accountId: row.accountId,
  dueId: row.dueId,
  amount: toRupees(row.amount),
  acceptPartial: row.acceptPartial,
  url: row.shortUrl,
  status: row.status,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

/**
 * Razorpay Payment Links for what a student owes (issue 42 §3, decision 0046): made by the
 * institute's desk on its own connected account for a due's balance (in parts where the
 * institute allows part payments online), stored, and sent to the student by WhatsApp, SMS and
 * e-mail through the messaging layer. Its webhooks (./settlement.ts) receipt each payment once by
 * its payment id, and the link's status follows them.
 */
export class FeeLinks {
  private readonly deps: {
    db: Db;
    payments: Payments;
    settlement: FeeSettlement;
    messages: MessageService;
    logger: Logger;
    now: () => Date;
  };

  constructor(deps: Omit<FeeLinks["deps"], "now"> & { now?: () => Date }) {
    this.deps = { ...deps, now: deps.now ?? (() => new Date()) };
  }

  /** A link for due `dueId` of institute `centerId` (its manager asks), sent to the student; the same live link again if there is one. */
  async create(actorId: string, centerId: string, dueId: string, input: unknown): Promise<FeePaymentLinkJson> {
    const { db, payments, messages, logger } = this.deps;
    const body = parseWith(FeeLinkInput, input ?? {});
    const now = this.deps.now();
    const due = await dueOwner(db, dueId);
    if (!due || due.centerId !== centerId) throw notFound(FEE_DUE_NOT_FOUND);
    const owed = await owedOn(db, due, indiaDate(now));
    if (owed.due <= 0) throw conflict(FEE_DUE_SETTLED);
    const amount = Math.min(owed.due, owed.account);
    const account = await payments.merchants.connectedOf(centerId);
    if (!account) throw new HttpError(409, notTakingFeesOnline(due.institute));
    // A live link for this very amount is the one the student already has: no second link or message.
    const [live] = await db
      .select()
      .from(feePaymentLinks)
      .where(
        and(
          eq(feePaymentLinks.dueId, dueId),
          eq(feePaymentLinks.amount, amount),
          eq(feePaymentLinks.merchantAccountId, account.id),
          eq(feePaymentLinks.status, "created"),
          gt(feePaymentLinks.expiresAt, now),
        ),
      )
      .orderBy(desc(feePaymentLinks.createdAt))
      .limit(1);
    if (live) return toJson(live);
    const acceptPartial = await partialOnline(db, centerId);
    const id = randomUUID();
    const expiresAt = new Date(now.getTime() + (body.expiresInDays ?? FEE_LINK_DAYS.default) * DAY);
    const phone = due.student.phone ? e164(due.student.phone) : null;
    let made;
    try {
      const gateway = await payments.gatewayOf(account.id);
      made = await gateway.createPaymentLink({
        amount,
        currency: "INR",
        acceptPartial,
        expireBy: expiresAt,
        referenceId: id,
        description: `${due.label}, ${due.planName} (${due.institute})`,
        customer: { name: due.student.name, email: due.student.email, ...(phone ? { contact: phone } : {}) },
        notes: { feeAccountId: due.accountId, dueId, linkId: id },
      });
    } catch (error) {
      logger.error("payment link creation failed", { error, dueId, linkId: id });
      throw new HttpError(502, FEE_LINK_FAILED);
    }
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(feePaymentLinks)
        .values({
          id,
          centerId,
          accountId: due.accountId,
          dueId,
          amount,
          acceptPartial,
          merchantAccountId: account.id,
          gatewayLinkId: made.id,
          shortUrl: made.shortUrl,
          expiresAt,
          createdById: actorId,
        })
        .returning();
      // Written with the link, or neither: the family is told of exactly the links that exist. The
      // student and each parent linked to them there (decision 0047), each once.
      const values = {
        name: due.student.name,
        institute: due.institute,
        amount: formatRupees(toRupees(amount)),
        label: due.label,
        date: formatDate(due.dueOn),
        link: made.shortUrl,
      };
      for (const contact of await familyContactsOf(tx, due.studentId, centerId))
        await messages.send(tx, {
          template: "fee-payment-link",
          values,
          to: { email: contact.email, phone: contact.phone, userId: contact.userId },
          centerId,
          dedupeKey: contact.role === "student" ? `fee-payment-link:${id}` : `fee-payment-link:${id}:${contact.userId}`,
        });
      return inserted;
    });
    return toJson(row);
  }

  /** An account's links, newest first (its Fees page shows each with its status). */
  async ofAccount(accountId: string): Promise<FeePaymentLinkJson[]> {
    const rows = await this.deps.db
      .select()
      .from(feePaymentLinks)
      .where(eq(feePaymentLinks.accountId, accountId))
      .orderBy(desc(feePaymentLinks.createdAt));
    return rows.map(toJson);
  }

  /** The links of many accounts, by account. */
  async ofAccounts(accountIds: string[]): Promise<Record<string, FeePaymentLinkJson[]>> {
    if (accountIds.length === 0) return {};
    const rows = await this.deps.db
      .select()
      .from(feePaymentLinks)
      .where(inArray(feePaymentLinks.accountId, accountIds))
      .orderBy(desc(feePaymentLinks.createdAt));
    const out: Record<string, FeePaymentLinkJson[]> = {};
    for (const row of rows) (out[row.accountId] ??= []).push(toJson(row));
    return out;
  }

  /** What the payment layer's webhook calls for a link's deliveries. */
  readonly handler: PaymentLinkHandler = {
    accountOf: (linkId) =>
      merchantAccountOnRow(
        this.deps.db,
        feePaymentLinks,
        feePaymentLinks.merchantAccountId,
        eq(feePaymentLinks.gatewayLinkId, linkId),
      ),
    apply: (tx, event) => this.apply(tx, event),
  };

  /** One delivery, in the webhook's transaction: its payment taken once, the link's status moved on. */
  private async apply(tx: Tx, event: PaymentLinkEvent): Promise<boolean> {
    const [link] = await tx
      .select()
      .from(feePaymentLinks)
      .where(eq(feePaymentLinks.gatewayLinkId, event.linkId))
      .for("update");
    if (!link) return false;
    if (event.payment) {
      if (event.payment.currency !== "INR") {
        this.deps.logger.error("payment link payment in another currency; not taken", {
          linkId: event.linkId,
          paymentId: event.payment.id,
        });
        return true;
      }
      await this.deps.settlement.settle(tx, {
        centerId: link.centerId,
        accountId: link.accountId,
        amount: event.payment.amount,
        paymentId: event.payment.id,
        orderId: null,
        merchantAccountId: link.merchantAccountId,
        paidOn: indiaDate(this.deps.now()),
      });
    }
    const next = NEXT_STATUS[event.event];
    // A late or replayed delivery never moves a finished link back (partly paid after paid).
    if (!FINAL.includes(link.status) && !(next === "partially_paid" && link.status === "partially_paid"))
      await tx
        .update(feePaymentLinks)
        .set({ status: next, updatedAt: new Date() })
        .where(eq(feePaymentLinks.id, link.id));
    return true;
  }
}
