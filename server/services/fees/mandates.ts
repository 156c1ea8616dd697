import { randomUUID } from "node:crypto";
import { and, desc, eq, gt, inArray, isNotNull, isNull, or, type SQL } from "drizzle-orm";
import { centers, feeAccounts, feeDues, feeMandateDebits, feeMandates, orders, users } from "../../db/schema/index.ts";
import type { FeeMandateRow } from "../../db/schema/index.ts";
import type { Db, DbOrTx, Tx } from "../../db/types.ts";
import { HttpError, badRequest, conflict, notFound, parseWith } from "../../http/errors.ts";
import type { Logger } from "../../runtime/logger.ts";
import type { Payments } from "../../payments/index.ts";
import type { MandateEvent, MandateEventHandler } from "../../payments/mandate-events.ts";
import { e164 } from "../../messages/phone.ts";
import { paymentRails, UPI_AUTOPAY_LIMIT } from "#common/fee-rails.ts";
import { toRupees } from "#common/fees.ts";
import { addDays, indiaDate, indiaInstant } from "#common/india-dates.ts";
import { notTakingFeesOnline } from "#common/validation/fee-online.ts";
import { FEE_ACCOUNT_NOT_FOUND } from "#common/validation/fees.ts";
import {
  FEE_MANDATE_CANCEL_FAILED,
  FEE_MANDATE_ENDED,
  FEE_MANDATE_FAILED,
  FEE_MANDATE_NOT_FOUND,
  FEE_MANDATE_NOT_MONTHLY,
  FEE_MANDATE_NOT_VERIFIED,
  FEE_MANDATE_NOTHING_AHEAD,
  FEE_MANDATE_REVOKED_BY_PAYER,
  FeeMandateCancelInput,
  FeeMandateConfirmInput,
  RAIL_NAMES,
  feeMandateExists,
  type FeeMandateCheckoutJson,
  type FeeMandateDebitJson,
  type FeeMandateJson,
  type FeeMandateStatus,
} from "#common/validation/fee-mandates.ts";
import { ledgerDues } from "./statements.ts";
import { merchantAccountOnRow } from "../../payments/event-registry.ts";

/** UPI Autopay's authorisation is a real payment of ₹1 (the gateway's smallest), given back at once. */
const UPI_AUTH_AMOUNT = 100;
/** A Checkout left unfinished is offered again for this long rather than a second customer and order. */
const REUSE_CREATED_MS = 60 * 60 * 1000;
/** The mandate runs until a month after the last due, so a late last debit still fits. */
const EXPIRY_AFTER_LAST_DUE_DAYS = 31;

const LIVE: FeeMandateStatus[] = ["pending", "active"];

/** Where a token's webhook moves a mandate; `null`: it stays as it is. */
const AFTER_EVENT: Record<MandateEvent["event"], FeeMandateStatus | null> = {
  "token.confirmed": "active",
  "token.rejected": "rejected",
  "token.cancelled": "cancelled",
  "token.paused": null,
};

/** The gateway's word for a token's state, as our mandate's (anything else: not known yet, pending). */
const FROM_TOKEN_STATUS: Partial<Record<string, FeeMandateStatus>> = {
  confirmed: "active",
  initiated: "pending",
  rejected: "rejected",
  cancelled: "cancelled",
};

interface AccountForMandate {
  accountId: string;
  centerId: string;
  studentId: string;
  planName: string;
  institute: string;
}

/**
 * Standing instructions for monthly fees (issue 42 §7, decision 0051). The payer (the student or
 * a parent linked to them: the route decided) sets one up in Checkout on the institute's own
 * account: UPI Autopay when every monthly due is at most ₹15,000 (no approval needed per debit),
 * otherwise a bank e-mandate (NACH). The gateway's token is what `FeeMandateDebits` later charges.
 * The token's webhooks (confirmed, rejected, cancelled in the payer's bank) move it on.
 */
export class FeeMandates {
  private readonly deps: { db: Db; payments: Payments; logger: Logger; now: () => Date };

  constructor(deps: Omit<FeeMandates["deps"], "now"> & { now?: () => Date }) {
    this.deps = { ...deps, now: deps.now ?? (() => new Date()) };
  }

  /** The authorisation Checkout for `payerId` on fee account `accountId` of student `studentId`. */
  async start(
    { payerId, studentId }: { payerId: string; studentId: string },
    accountId: string,
  ): Promise<FeeMandateCheckoutJson> {
    const { db, payments, logger } = this.deps;
    const account = await accountForMandate(db, accountId);
    if (!account || account.studentId !== studentId) throw notFound(FEE_ACCOUNT_NOT_FOUND);
    const today = indiaDate(this.deps.now());
    const dues = await ledgerDues(db, { accountIds: [accountId] }, today);
    const net = dues.map(({ due, figures }) => ({ dueOn: due.dueOn, amount: due.amount - figures.discount }));
    const rail = paymentRails(net).recurring;
    if (!rail) throw conflict(FEE_MANDATE_NOT_MONTHLY);
    const ahead = dues.filter(({ due, figures }) => due.dueOn >= today && figures.balance > 0);
    if (ahead.length === 0) throw conflict(FEE_MANDATE_NOTHING_AHEAD);
    const [live] = await db
      .select({ rail: feeMandates.rail })
      .from(feeMandates)
      .where(and(eq(feeMandates.accountId, accountId), inArray(feeMandates.status, LIVE)));
    if (live) throw conflict(feeMandateExists(RAIL_NAMES[live.rail]));
    const merchant = await payments.merchants.connectedOf(account.centerId);
    if (!merchant) throw new HttpError(409, notTakingFeesOnline(account.institute));

    const largest = Math.max(...net.map((d) => d.amount));
    // UPI Autopay's ceiling is the rule's own: a later due's late fee never needs a new mandate below it.
    const maxAmount = rail === "upi-autopay" ? UPI_AUTOPAY_LIMIT : largest;
    const lastDue = net.map((d) => d.dueOn).sort()[net.length - 1];
    const expiresAt = indiaInstant(addDays(lastDue, EXPIRY_AFTER_LAST_DUE_DAYS));

    // An authorisation left unfinished in the last hour is offered again (a closed Checkout, a double click).
    const [unfinished] = await db
      .select()
      .from(feeMandates)
      .where(
        and(
          eq(feeMandates.accountId, accountId),
          eq(feeMandates.payerId, payerId),
          eq(feeMandates.status, "created"),
          eq(feeMandates.rail, rail),
          eq(feeMandates.merchantAccountId, merchant.id),
          gt(feeMandates.createdAt, new Date(this.deps.now().getTime() - REUSE_CREATED_MS)),
        ),
      )
      .orderBy(desc(feeMandates.createdAt))
      .limit(1);
    // What Checkout is opened with, for the mandate `row` of this account.
    const checkout = async (row: FeeMandateRow): Promise<FeeMandateCheckoutJson> => ({
      mandate: (await this.json(db, [row]))[0],
      order: { id: row.authOrderId, amount: row.authAmount, currency: "INR" },
      key_id: merchant.keyId,
      customer_id: row.gatewayCustomerId,
      institute: account.institute,
      description: `${RAIL_NAMES[rail]}: ${account.planName} (${account.institute})`,
    });
    if (unfinished) return checkout(unfinished);

    const [payer] = await db
      .select({ name: users.name, email: users.email, phone: users.phone, verified: users.phoneVerifiedAt })
      .from(users)
      .where(eq(users.id, payerId));
    const id = randomUUID();
    const authAmount = rail === "upi-autopay" ? UPI_AUTH_AMOUNT : 0;
    let customerId: string;
    let orderId: string;
    try {
      const gateway = await payments.gatewayOf(merchant.id);
      const phone = payer.verified && payer.phone ? e164(payer.phone) : null;
      customerId = (
        await gateway.createCustomer({
          name: payer.name,
          email: payer.email,
          ...(phone ? { contact: phone } : {}),
          notes: { payerId },
        })
      ).id;
      orderId = (
        await gateway.createMandateOrder({
          method: rail === "upi-autopay" ? "upi" : "emandate",
          customerId,
          amount: authAmount,
          maxAmount,
          expireAt: expiresAt,
          receipt: id,
          notes: { mandateId: id, feeAccountId: accountId },
        })
      ).id;
    } catch (error) {
      logger.error("fee mandate authorisation order failed", { error, accountId, mandateId: id });
      throw new HttpError(502, FEE_MANDATE_FAILED);
    }
    const [row] = await db
      .insert(feeMandates)
      .values({
        id,
        centerId: account.centerId,
        accountId,
        payerId,
        rail,
        maxAmount,
        merchantAccountId: merchant.id,
        gatewayCustomerId: customerId,
        authOrderId: orderId,
        authAmount,
        expiresAt,
      })
      .returning();
    return checkout(row);
  }

  /**
   * Checkout's answer for the authorisation, from the payer: checked against the institute's
   * account, then the token the payment made is read from the gateway and the mandate moves to
   * what the token is (confirmed: active; an e-mandate the bank has yet to approve: pending).
   * UPI's ₹1 goes back at once. Answered again, it changes nothing.
   */
  async confirm(payerId: string, mandateId: string, input: unknown): Promise<FeeMandateJson> {
    const { db, payments, logger } = this.deps;
    const body = parseWith(FeeMandateConfirmInput, input);
    const mandate = await this.row(db, mandateId);
    if (!mandate || mandate.payerId !== payerId) throw notFound(FEE_MANDATE_NOT_FOUND);
    if (mandate.status !== "created") return (await this.json(db, [mandate]))[0];
    if (body.razorpay_order_id !== mandate.authOrderId) throw badRequest(FEE_MANDATE_NOT_VERIFIED);
    const gateway = await payments.gatewayOf(mandate.merchantAccountId);
    const result = {
      orderId: body.razorpay_order_id,
      paymentId: body.razorpay_payment_id,
      signature: body.razorpay_signature,
    };
    if (!gateway.verifyCheckout(result)) throw badRequest(FEE_MANDATE_NOT_VERIFIED);
    let tokenId: string;
    let status: FeeMandateStatus | null;
    try {
      const payment = await gateway.fetchPayment(body.razorpay_payment_id);
      if (payment.orderId !== mandate.authOrderId || !payment.tokenId) throw badRequest(FEE_MANDATE_NOT_VERIFIED);
      tokenId = payment.tokenId;
      status = FROM_TOKEN_STATUS[(await gateway.fetchToken(mandate.gatewayCustomerId, tokenId)).status] ?? null;
    } catch (error) {
      if (error instanceof HttpError) throw error;
      logger.error("fee mandate token could not be read", { error, mandateId });
      throw new HttpError(502, FEE_MANDATE_FAILED);
    }
    const now = this.deps.now();
    const [updated] = await db
      .update(feeMandates)
      .set({
        tokenId,
        authPaymentId: body.razorpay_payment_id,
        status: status ?? "pending",
        activatedAt: status === "active" ? now : null,
        statusReason: status === "rejected" ? "Refused by the bank." : null,
        cancelledAt: status === "cancelled" ? now : null,
      })
      .where(and(eq(feeMandates.id, mandateId), eq(feeMandates.status, "created")))
      .returning();
    const settled = updated ?? (await this.row(db, mandateId))!;
    await this.giveBackAuthorisation(settled);
    return (await this.json(db, [settled]))[0];
  }

  /**
   * Ends a mandate: its payer, or the institute's desk (the route decided who may). A live token
   * is cancelled at the gateway first: if that fails nothing changes here.
   */
  async cancel(actorId: string, mandateId: string, input: unknown): Promise<FeeMandateJson> {
    const { db, payments, logger } = this.deps;
    const body = parseWith(FeeMandateCancelInput, input ?? {});
    const mandate = await this.row(db, mandateId);
    if (!mandate) throw notFound(FEE_MANDATE_NOT_FOUND);
    if (mandate.status === "cancelled" || mandate.status === "rejected") throw conflict(FEE_MANDATE_ENDED);
    if (mandate.tokenId) {
      try {
        await (
          await payments.gatewayOf(mandate.merchantAccountId)
        ).cancelToken(mandate.gatewayCustomerId, mandate.tokenId);
      } catch (error) {
        logger.error("fee mandate cancellation failed at the gateway", { error, mandateId });
        throw new HttpError(502, FEE_MANDATE_CANCEL_FAILED);
      }
    }
    const [row] = await db
      .update(feeMandates)
      .set({
        status: "cancelled",
        cancelledAt: this.deps.now(),
        cancelledById: actorId,
        statusReason: body.reason || null,
      })
      .where(
        and(
          eq(feeMandates.id, mandateId),
          // The gateway's own token.cancelled, for this very cancellation, may have come first.
          or(
            inArray(feeMandates.status, ["created", ...LIVE]),
            and(eq(feeMandates.status, "cancelled"), isNull(feeMandates.cancelledById)),
          ),
        ),
      )
      .returning();
    return (await this.json(db, [row ?? (await this.row(db, mandateId))!]))[0];
  }

  /**
   * Ends the account's live mandate when the account closes (the student left and was refunded):
   * at the gateway first, as `cancel` does; a refusal there is logged, and nothing is presented on
   * a closed account anyway.
   */
  async endFor(accountId: string, actorId: string, reason: string): Promise<void> {
    const live = await this.deps.db
      .select({ id: feeMandates.id })
      .from(feeMandates)
      .where(and(eq(feeMandates.accountId, accountId), inArray(feeMandates.status, ["created", ...LIVE])));
    for (const { id } of live)
      await this.cancel(actorId, id, { reason }).catch((error: unknown) =>
        this.deps.logger.warn("a closed account's mandate could not be cancelled", { error, mandateId: id }),
      );
  }

  /** A mandate's institute, student and payer (who may read or end it is the route's to decide). */
  async ownerOf(mandateId: string): Promise<{ centerId: string; studentId: string; payerId: string } | null> {
    const [row] = await this.deps.db
      .select({ centerId: feeMandates.centerId, studentId: feeAccounts.studentId, payerId: feeMandates.payerId })
      .from(feeMandates)
      .innerJoin(feeAccounts, eq(feeAccounts.id, feeMandates.accountId))
      .where(eq(feeMandates.id, mandateId));
    return row ?? null;
  }

  /**
   * Each account's mandate to show: the live one, else the newest that was ever authorised
   * (refused or cancelled, so the page says so); an unfinished Checkout is not shown.
   */
  async ofAccounts(accountIds: string[]): Promise<Record<string, FeeMandateJson>> {
    if (accountIds.length === 0) return {};
    const { db } = this.deps;
    const rows = await db
      .select()
      .from(feeMandates)
      .where(
        and(
          inArray(feeMandates.accountId, accountIds),
          inArray(feeMandates.status, ["pending", "active", "rejected", "cancelled"]),
        ),
      )
      .orderBy(desc(feeMandates.createdAt));
    const shown = new Map<string, FeeMandateRow>();
    for (const row of rows) {
      const seen = shown.get(row.accountId);
      if (!seen || (!LIVE.includes(seen.status) && LIVE.includes(row.status))) shown.set(row.accountId, row);
    }
    const json = await this.json(db, [...shown.values()]);
    return Object.fromEntries(json.map((m) => [m.accountId, m]));
  }

  /** What the payment layer's webhook calls for a token's deliveries. */
  readonly events: MandateEventHandler = {
    accountOf: (tokenId) => this.merchantAccountWhere(eq(feeMandates.tokenId, tokenId)),
    accountOfOrder: (orderId) => this.merchantAccountWhere(eq(feeMandates.authOrderId, orderId)),
    apply: (tx, event) => this.apply(tx, event),
  };

  private merchantAccountWhere(where: SQL) {
    return merchantAccountOnRow(this.deps.db, feeMandates, feeMandates.merchantAccountId, where);
  }

  /** UPI authorisations whose ₹1 has not gone back yet (the gateway refused it at the time): tried again. */
  async giveBackPendingAuthorisations(): Promise<void> {
    const rows = await this.deps.db
      .select()
      .from(feeMandates)
      .where(
        and(gt(feeMandates.authAmount, 0), isNotNull(feeMandates.authPaymentId), isNull(feeMandates.authRefundedAt)),
      );
    for (const row of rows) await this.giveBackAuthorisation(row);
  }

  /** A token's delivery, in the webhook's transaction; false for a token we never had. */
  private async apply(tx: Tx, event: MandateEvent): Promise<boolean> {
    const [mandate] = await tx.select().from(feeMandates).where(eq(feeMandates.tokenId, event.tokenId)).for("update");
    if (!mandate) return false;
    const next = AFTER_EVENT[event.event];
    // A finished mandate stays finished; a late "confirmed" never revives a cancelled one.
    if (!next || next === mandate.status || mandate.status === "cancelled" || mandate.status === "rejected")
      return true;
    const now = this.deps.now();
    await tx
      .update(feeMandates)
      .set({
        status: next,
        ...(next === "active" ? { activatedAt: now } : {}),
        ...(next === "cancelled" ? { cancelledAt: now, statusReason: FEE_MANDATE_REVOKED_BY_PAYER } : {}),
        ...(next === "rejected" ? { statusReason: event.failureReason || "Refused by the bank." } : {}),
      })
      .where(eq(feeMandates.id, mandate.id));
    return true;
  }

  /** Gives UPI's ₹1 back, once (the gateway's idempotency key); a refusal is logged and tried again later. */
  private async giveBackAuthorisation(mandate: FeeMandateRow): Promise<void> {
    if (mandate.authAmount <= 0 || mandate.authRefundedAt || !mandate.authPaymentId) return;
    const { db, payments, logger } = this.deps;
    try {
      await (
        await payments.gatewayOf(mandate.merchantAccountId)
      ).refund({
        paymentId: mandate.authPaymentId,
        amount: mandate.authAmount,
        idempotencyKey: `mandate-auth-${mandate.id}`,
        notes: { mandateId: mandate.id },
      });
      await db.update(feeMandates).set({ authRefundedAt: this.deps.now() }).where(eq(feeMandates.id, mandate.id));
    } catch (error) {
      logger.warn("the ₹1 of a UPI Autopay authorisation was not given back yet; retried later", {
        error,
        mandateId: mandate.id,
      });
    }
  }

  private async row(db: DbOrTx, id: string): Promise<FeeMandateRow | undefined> {
    const [row] = await db.select().from(feeMandates).where(eq(feeMandates.id, id));
    return row;
  }

  /** Mandates as the pages read them, with their payer's name and the debits presented on them. */
  private async json(db: DbOrTx, rows: FeeMandateRow[]): Promise<FeeMandateJson[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const payers = new Map(
      (
        await db
          .select({ id: users.id, name: users.name })
          .from(users)
          .where(inArray(users.id, [...new Set(rows.map((r) => r.payerId))]))
      ).map((u) => [u.id, u.name]),
    );
    const debits = await db
      .select({
        id: feeMandateDebits.id,
        mandateId: feeMandateDebits.mandateId,
        dueId: feeMandateDebits.dueId,
        label: feeDues.label,
        amount: feeMandateDebits.amount,
        presentedOn: feeMandateDebits.presentedOn,
        error: feeMandateDebits.error,
        orderStatus: orders.status,
      })
      .from(feeMandateDebits)
      .innerJoin(feeDues, eq(feeDues.id, feeMandateDebits.dueId))
      .leftJoin(orders, eq(orders.id, feeMandateDebits.orderId))
      .where(inArray(feeMandateDebits.mandateId, ids))
      .orderBy(desc(feeMandateDebits.presentedOn));
    const byMandate = new Map<string, FeeMandateDebitJson[]>();
    for (const d of debits)
      (byMandate.get(d.mandateId) ?? byMandate.set(d.mandateId, []).get(d.mandateId)!).push({
        _id: d.id,
        dueId: d.dueId,
        label: d.label,
        amount: toRupees(d.amount),
        presentedOn: d.presentedOn,
        status: d.error || d.orderStatus === "failed" ? "failed" : d.orderStatus === "paid" ? "paid" : "presented",
        error: d.error ?? (d.orderStatus === "failed" ? "The debit failed." : null),
      });
    return rows.map((r) => ({
      _id: r.id,
      accountId: r.accountId,
      payerId: r.payerId,
      payerName: payers.get(r.payerId) ?? "",
      rail: r.rail,
      status: r.status,
      statusReason: r.statusReason,
      maxAmount: toRupees(r.maxAmount),
      expiresAt: r.expiresAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      activatedAt: r.activatedAt?.toISOString() ?? null,
      cancelledAt: r.cancelledAt?.toISOString() ?? null,
      debits: byMandate.get(r.id) ?? [],
    }));
  }
}

/** The account with its institute, student and plan; null for none. */
async function accountForMandate(db: DbOrTx, accountId: string): Promise<AccountForMandate | null> {
  const [row] = await db
    .select({
      accountId: feeAccounts.id,
      centerId: feeAccounts.centerId,
      studentId: feeAccounts.studentId,
      planName: feeAccounts.planName,
      institute: centers.instituteName,
    })
    .from(feeAccounts)
    .innerJoin(centers, eq(centers.id, feeAccounts.centerId))
    .where(eq(feeAccounts.id, accountId));
  return row ?? null;
}
