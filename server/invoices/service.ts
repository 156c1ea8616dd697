import { and, asc, desc, eq, getTableColumns, gte, isNull, lt, sql } from "drizzle-orm";
import {
  centers,
  contents,
  invoices,
  orders,
  planOrders,
  platformSettings,
  refunds,
  users,
  type InvoiceRow,
} from "../db/schema/index.ts";
import type { Db, DbOrTx } from "../db/types.ts";
import { ADVISORY_LOCKS, lockForTransaction } from "../db/advisory-locks.ts";
import { nextInSeries } from "../db/counters.ts";
import { notFound, parseWith } from "../http/errors.ts";
import { BuyerStateInput, SellerProfileInput, type SellerProfile } from "#common/validation/billing.ts";
import { isUuid } from "#common/validation/ids.ts";
import { CONTENT_TYPE_LABELS } from "#common/validation/content.ts";
import { planTitle } from "#common/format.ts";
import {
  DEFAULT_GST_RATE,
  DEFAULT_SAC,
  documentNumber,
  financialYear,
  isInterState,
  isStateCode,
  placeOfSupply,
  splitTax,
  type InvoiceKind,
} from "#common/gst.ts";
import { INVOICE_TEXTS, type InvoiceJson } from "#common/invoices.ts";
import { invoiceFileName, invoicePdf } from "./pdf.ts";

/** What a document is issued for: an order of the ledger (a plan, a content, a test or a series). */
export type InvoiceSource = { orderId: string };

/** The platform's own identity and rates when environment defaults stand in for unset settings. */
export interface PlatformBillingDefaults {
  legalName: string | null;
  legalAddress: string | null;
  gstin: string | null;
  sac: string;
  rate: number;
}

export interface Seller {
  centerId: string | null;
  name: string;
  address: string | null;
  gstin: string | null;
  state: string | null;
}

/** An institute as the seller on its documents: its legal name and billing address, else its name and site address. */
export function instituteSeller(
  center: Pick<
    typeof centers.$inferSelect,
    "id" | "legalName" | "instituteName" | "billingAddress" | "siteProfile" | "gstin" | "gstState"
  >,
): Seller {
  return {
    centerId: center.id,
    name: center.legalName ?? center.instituteName,
    address: center.billingAddress ?? center.siteProfile.address ?? null,
    gstin: center.gstin,
    state: center.gstState ?? center.gstin?.slice(0, 2) ?? null,
  };
}

interface Buyer {
  userId: string;
  name: string;
  email: string;
  gstin: string | null;
  state: string | null;
}

export const toInvoiceJson = (row: InvoiceRow, original?: string | null): InvoiceJson => ({
  id: row.id,
  kind: row.kind,
  number: row.number,
  issuedAt: row.issuedAt.toISOString(),
  description: row.description,
  sellerName: row.sellerName,
  total: row.total,
  currency: row.currency,
  orderId: row.orderId,
  against: original ?? null,
  pdf: `/api/invoices/${row.id}/pdf`,
});

/**
 * GST documents (issue 30 §6). Every payment is issued an invoice in the transaction that
 * completes it, and every refund a credit note in the one that records it, each numbered from its
 * seller's gap-free series for the financial year. The seller is the platform for plans (its
 * identity from the admins' settings) and the institute for what it sells (from its business
 * profile); a seller without a GSTIN issues a bill of supply and charges no tax.
 */
export class InvoiceService {
  private readonly db: Db;
  private readonly defaults: PlatformBillingDefaults;

  constructor(db: Db, defaults: PlatformBillingDefaults) {
    this.db = db;
    this.defaults = defaults;
  }

  /** The invoice of a payment: issued now, or the one it already has (a completion run twice). */
  async issue(tx: DbOrTx, source: InvoiceSource): Promise<InvoiceRow> {
    const existing = await this.invoiceOf(tx, source);
    if (existing) return existing;
    const rates = await this.rates(tx);
    const sale = await this.sale(tx, source.orderId);
    const seller = sale.seller ?? (await this.platformSeller(tx));
    const supply = placeOfSupply(sale.buyer.state, seller.state);
    const kind: InvoiceKind = seller.gstin ? "invoice" : "bill_of_supply";
    const split = { sellerGstin: seller.gstin, sellerState: seller.state, placeOfSupply: supply };
    const tax = splitTax(sale.amount, rates.rate, !seller.gstin ? "none" : isInterState(split) ? "inter" : "intra");
    return this.write(tx, kind, seller, sale.buyer, {
      placeOfSupply: supply,
      description: sale.description,
      sac: rates.sac,
      rate: kind === "invoice" ? rates.rate : 0,
      ...tax,
      currency: sale.currency,
      paymentId: sale.paymentId,
      orderId: source.orderId,
    });
  }

  /** The credit note of a processed refund: the purchase's invoice reversed by the amount given back. */
  async creditNote(tx: DbOrTx, refundId: string): Promise<InvoiceRow> {
    const [done] = await tx.select().from(invoices).where(eq(invoices.refundId, refundId));
    if (done) return done;
    const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId));
    if (!refund) throw notFound(INVOICE_TEXTS.notFound);
    // A purchase paid before invoices existed is issued its invoice first: a credit note reverses one.
    const original = await this.issue(tx, { orderId: refund.orderId });
    const tax = splitTax(
      refund.amount,
      original.rate,
      original.kind === "bill_of_supply" ? "none" : isInterState(original) ? "inter" : "intra",
    );
    return this.write(
      tx,
      "credit_note",
      {
        centerId: original.sellerCenterId,
        name: original.sellerName,
        address: original.sellerAddress,
        gstin: original.sellerGstin,
        state: original.sellerState,
      },
      {
        userId: original.buyerUserId,
        name: original.buyerName,
        email: original.buyerEmail,
        gstin: original.buyerGstin,
        state: original.buyerState,
      },
      {
        placeOfSupply: original.placeOfSupply,
        description: `Refund: ${original.description}`,
        sac: original.sac,
        rate: original.rate,
        ...tax,
        currency: refund.currency,
        paymentId: refund.gatewayRefundId ?? original.paymentId,
        orderId: original.orderId,
        refundId,
        originalId: original.id,
      },
    );
  }

  /** A buyer's documents, newest first. */
  async mine(userId: string): Promise<InvoiceJson[]> {
    const rows = await this.db
      .select()
      .from(invoices)
      .where(eq(invoices.buyerUserId, userId))
      .orderBy(desc(invoices.issuedAt), desc(invoices.seq))
      .limit(200);
    return this.withOriginals(rows);
  }

  /**
   * One document for its PDF, to those who may see it: its buyer, the owner of the institute that
   * issued it, and platform admins. Anyone else is told it does not exist.
   */
  async viewable(id: string, viewer: { id: string; role: string }): Promise<InvoiceRow> {
    if (!isUuid(id)) throw notFound(INVOICE_TEXTS.notFound);
    const [row] = await this.db
      .select({ invoice: invoices, ownerId: centers.ownerId })
      .from(invoices)
      .leftJoin(centers, eq(centers.id, invoices.sellerCenterId))
      .where(eq(invoices.id, id));
    if (!row) throw notFound(INVOICE_TEXTS.notFound);
    const allowed =
      row.invoice.buyerUserId === viewer.id ||
      viewer.role === "admin" ||
      (row.ownerId !== null && row.ownerId === viewer.id);
    if (!allowed) throw notFound(INVOICE_TEXTS.notFound);
    return row.invoice;
  }

  /** The state a buyer gave for their invoices (a GST state code), or null. */
  async buyerState(userId: string): Promise<string | null> {
    const [row] = await this.db.select({ state: users.gstState }).from(users).where(eq(users.id, userId));
    return row?.state ?? null;
  }

  async setBuyerState(userId: string, raw: unknown): Promise<string | null> {
    const { state } = parseWith(BuyerStateInput, raw);
    await this.db
      .update(users)
      .set({ gstState: state || null, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    return state || null;
  }

  /** An institute's details as a seller; blanks fall back to its name and site address on invoices. */
  async sellerProfile(centerId: string): Promise<SellerProfile> {
    const [row] = await this.db
      .select({
        legalName: centers.legalName,
        address: centers.billingAddress,
        state: centers.gstState,
        gstin: centers.gstin,
      })
      .from(centers)
      .where(eq(centers.id, centerId));
    if (!row) throw notFound(INVOICE_TEXTS.notFound);
    return {
      legalName: row.legalName ?? "",
      address: row.address ?? "",
      state: (isStateCode(row.state) ? row.state : "") as SellerProfile["state"],
      gstin: row.gstin ?? "",
    };
  }

  async updateSellerProfile(centerId: string, raw: unknown): Promise<SellerProfile> {
    const input = parseWith(SellerProfileInput, raw);
    await this.db
      .update(centers)
      .set({
        legalName: input.legalName || null,
        billingAddress: input.address || null,
        // A GSTIN names its state; the form may leave the state to it.
        gstState: input.state || input.gstin.slice(0, 2) || null,
        gstin: input.gstin || null,
        updatedAt: sql`now()`,
      })
      .where(eq(centers.id, centerId));
    return this.sellerProfile(centerId);
  }

  /** The document as a PDF. */
  async pdf(row: InvoiceRow): Promise<Uint8Array> {
    return invoicePdf(row, await this.originalNumber(row));
  }

  /** The PDF an e-mail carries (the receipt's invoice, the refund's credit note). */
  async attachment(id: string): Promise<{ filename: string; content: Uint8Array; contentType: string }> {
    const [row] = await this.db.select().from(invoices).where(eq(invoices.id, id));
    if (!row) throw notFound(INVOICE_TEXTS.notFound);
    return { filename: invoiceFileName(row), content: await this.pdf(row), contentType: "application/pdf" };
  }

  /** The number of the invoice a credit note reverses. */
  async originalNumber(row: InvoiceRow): Promise<{ number: string; issuedAt: Date } | null> {
    if (!row.originalId) return null;
    const [original] = await this.db
      .select({ number: invoices.number, issuedAt: invoices.issuedAt })
      .from(invoices)
      .where(eq(invoices.id, row.originalId));
    return original ?? null;
  }

  /**
   * A seller's documents issued in [from, to), oldest first, for the accountant's export: the
   * platform's (`centerId` null) or one institute's.
   */
  async ofSeller(
    centerId: string | null,
    range: { from?: Date; to?: Date },
  ): Promise<(InvoiceRow & { against: string | null })[]> {
    const rows = await this.db
      .select()
      .from(invoices)
      .where(
        and(
          centerId ? eq(invoices.sellerCenterId, centerId) : isNull(invoices.sellerCenterId),
          range.from ? gte(invoices.issuedAt, range.from) : undefined,
          range.to ? lt(invoices.issuedAt, range.to) : undefined,
        ),
      )
      .orderBy(asc(invoices.issuedAt), asc(invoices.series), asc(invoices.seq));
    const numbers = new Map(rows.map((r) => [r.id, r.number]));
    const missing = rows.filter((r) => r.originalId && !numbers.has(r.originalId)).map((r) => r.originalId!);
    for (const id of missing) {
      const [original] = await this.db.select({ number: invoices.number }).from(invoices).where(eq(invoices.id, id));
      if (original) numbers.set(id, original.number);
    }
    return rows.map((r) => ({ ...r, against: r.originalId ? (numbers.get(r.originalId) ?? null) : null }));
  }

  private async withOriginals(rows: InvoiceRow[]): Promise<InvoiceJson[]> {
    const numbers = new Map(rows.map((r) => [r.id, r.number]));
    const out: InvoiceJson[] = [];
    for (const row of rows) {
      let against = row.originalId ? numbers.get(row.originalId) : null;
      if (row.originalId && !against) against = (await this.originalNumber(row))?.number ?? null;
      out.push(toInvoiceJson(row, against));
    }
    return out;
  }

  private async invoiceOf(tx: DbOrTx, source: InvoiceSource): Promise<InvoiceRow | undefined> {
    const [row] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, source.orderId), sql`${invoices.kind} <> 'credit_note'`));
    return row;
  }

  /**
   * Takes the next number of a series in `tx` and writes the document. The seller's lock, held until
   * `tx` ends, is taken before the date is read, so one seller's dates follow its numbers across series.
   */
  private async write(
    tx: DbOrTx,
    kind: InvoiceKind,
    seller: Seller,
    buyer: Buyer,
    rest: Omit<
      typeof invoices.$inferInsert,
      | "kind"
      | "series"
      | "financialYear"
      | "seq"
      | "number"
      | "sellerCenterId"
      | "sellerName"
      | "sellerAddress"
      | "sellerGstin"
      | "sellerState"
      | "buyerUserId"
      | "buyerName"
      | "buyerEmail"
      | "buyerGstin"
      | "buyerState"
    >,
  ): Promise<InvoiceRow> {
    const sellerKey = seller.centerId ?? "platform";
    await lockForTransaction(tx, ADVISORY_LOCKS.invoiceSellers, sellerKey);
    const issuedAt = new Date();
    const fy = financialYear(issuedAt);
    const series = `${sellerKey}:${kind}`;
    const seq = await nextInSeries(tx, series, fy);
    const [row] = await tx
      .insert(invoices)
      .values({
        ...rest,
        kind,
        series,
        financialYear: fy,
        seq,
        number: documentNumber(kind, fy, seq),
        sellerCenterId: seller.centerId,
        sellerName: seller.name,
        sellerAddress: seller.address,
        sellerGstin: seller.gstin,
        sellerState: seller.state,
        buyerUserId: buyer.userId,
        buyerName: buyer.name,
        buyerEmail: buyer.email,
        buyerGstin: buyer.gstin,
        buyerState: buyer.state,
        issuedAt,
      })
      .returning();
    return row;
  }

  private async settingsRow(tx: DbOrTx) {
    const [row] = await tx.select().from(platformSettings).where(eq(platformSettings.id, 1));
    return row;
  }

  /** SAC code and GST rate in force: the admins' settings, else the environment's. */
  private async rates(tx: DbOrTx): Promise<{ sac: string; rate: number }> {
    const row = await this.settingsRow(tx);
    const rate = row?.gstRate ? Number(row.gstRate) : this.defaults.rate;
    return {
      sac: row?.sacCode ?? this.defaults.sac ?? DEFAULT_SAC,
      rate: Number.isFinite(rate) ? rate : DEFAULT_GST_RATE,
    };
  }

  private async platformSeller(tx: DbOrTx): Promise<Seller> {
    const row = await this.settingsRow(tx);
    const gstin = row?.gstin ?? this.defaults.gstin;
    return {
      centerId: null,
      name: row?.legalName ?? this.defaults.legalName ?? "Pathshala",
      address: row?.legalAddress ?? this.defaults.legalAddress,
      gstin,
      state: gstin ? gstin.slice(0, 2) : null,
    };
  }

  /** What was sold, to whom and by whom, from the ledger's order and its subject. */
  private async sale(tx: DbOrTx, orderId: string) {
    const [order] = await tx.select({ subject: orders.subject }).from(orders).where(eq(orders.id, orderId));
    if (!order) throw notFound(INVOICE_TEXTS.notFound);
    return order.subject === "plan" ? this.planSale(tx, orderId) : this.contentSale(tx, orderId);
  }

  private async planSale(tx: DbOrTx, orderId: string) {
    const [row] = await tx
      .select({ purchase: { ...getTableColumns(orders), ...getTableColumns(planOrders) }, buyerState: users.gstState })
      .from(orders)
      .innerJoin(planOrders, eq(planOrders.orderId, orders.id))
      .innerJoin(users, eq(users.id, orders.buyerId))
      .where(eq(orders.id, orderId));
    if (!row) throw notFound(INVOICE_TEXTS.notFound);
    const p = row.purchase;
    // The buyer is the institute: its GSTIN and state when its business profile has them.
    const [center] = p.centerId
      ? await tx
          .select({ legalName: centers.legalName, gstin: centers.gstin, gstState: centers.gstState })
          .from(centers)
          .where(eq(centers.id, p.centerId))
      : [];
    const state = center?.gstState ?? (isStateCode(row.buyerState) ? row.buyerState : null);
    return {
      seller: null,
      buyer: {
        userId: p.buyerId,
        name: center?.legalName ?? p.instituteName,
        email: p.email,
        gstin: center?.gstin ?? null,
        state,
      },
      description: `${planTitle(p.planName)}, billed ${p.billing}, for ${p.domain} (${p.durationDays} days)`,
      amount: p.amount,
      currency: p.currency,
      paymentId: p.gatewayPaymentId,
    };
  }

  private async contentSale(tx: DbOrTx, orderId: string) {
    const [row] = await tx
      .select({
        order: orders,
        title: contents.title,
        type: contents.type,
        contentCenterId: contents.centerId,
        buyerName: users.name,
        buyerEmail: users.email,
        buyerState: users.gstState,
      })
      .from(orders)
      .innerJoin(contents, eq(contents.id, orders.contentId))
      .innerJoin(users, eq(users.id, orders.buyerId))
      .where(eq(orders.id, orderId));
    if (!row) throw notFound(INVOICE_TEXTS.notFound);
    const sellerId = row.order.sellerCenterId ?? row.contentCenterId;
    const [center] = sellerId ? await tx.select().from(centers).where(eq(centers.id, sellerId)) : [];
    const seller: Seller | null = center ? instituteSeller(center) : null;
    return {
      seller,
      buyer: {
        userId: row.order.buyerId,
        name: row.buyerName,
        email: row.buyerEmail,
        gstin: null,
        state: isStateCode(row.buyerState) ? row.buyerState : null,
      },
      description: `${CONTENT_TYPE_LABELS[row.type]}: ${row.title}`,
      amount: row.order.amount,
      currency: row.order.currency,
      paymentId: row.order.gatewayPaymentId,
    };
  }
}
