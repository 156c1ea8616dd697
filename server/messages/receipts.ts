import { eq } from "drizzle-orm";
import { centers, users } from "../db/schema/index.ts";
import type { DbOrTx } from "../db/types.ts";
import type { MessageService } from "./service.ts";
import type { SiteLinks } from "./links.ts";
import { messageDate } from "./format.ts";
import type { InvoiceService, InvoiceSource } from "../invoices/service.ts";
import type { InvoiceRow } from "../db/schema/index.ts";
import { INVOICE_TITLES } from "#common/gst.ts";
import { formatRupees } from "#common/format.ts";

export interface Receipt {
  userId: string;
  /** What was bought, as the receipt names it. */
  item: string;
  /** Minor units (paise). */
  amount: number;
  currency: string;
  paymentId: string;
  /** The institute that sold it (content, tests), or null for a plan bought from Pathshala. */
  centerId: string | null;
  /** Where the buyer sees what they bought (on the seller's site). */
  path: string;
  /** The payment the invoice is issued for. */
  source: InvoiceSource;
}

/** Rupees as the product's pages write them (₹20,000, ₹149.50); another currency with its code. */
const money = (amount: number, currency: string) =>
  currency === "INR"
    ? formatRupees(amount / 100)
    : new Intl.NumberFormat("en-IN", { style: "currency", currency }).format(amount / 100);

/** Where the selling institute's site is (its links point there), or null when the platform sells. */
async function sellerSite(tx: DbOrTx, centerId: string | null) {
  if (!centerId) return null;
  const [site] = await tx
    .select({ slug: centers.slug, customDomain: centers.customDomain })
    .from(centers)
    .where(eq(centers.id, centerId));
  return site ?? null;
}

/** The buyer's receipt with its invoice attached, written in the transaction that completes the payment. */
export async function sendReceipt(
  tx: DbOrTx,
  messages: MessageService,
  links: SiteLinks,
  receipt: Receipt,
  invoice: InvoiceRow,
) {
  const [buyer] = await tx
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, receipt.userId));
  if (!buyer) return;
  const seller = await sellerSite(tx, receipt.centerId);
  await messages.send(tx, {
    template: "payment-receipt",
    values: {
      name: buyer.name,
      item: receipt.item,
      amount: money(receipt.amount, receipt.currency),
      date: messageDate(new Date()),
      paymentId: receipt.paymentId,
      link: links.to(seller, receipt.path),
      invoice: `${INVOICE_TITLES[invoice.kind]} ${invoice.number}`,
    },
    to: { email: buyer.email, userId: receipt.userId },
    centerId: receipt.centerId,
    invoiceId: invoice.id,
  });
}

/**
 * A processed refund: its credit note is issued, and the buyer told with the note attached, in
 * the transaction that records the refund. The note is the seller's (the platform's for a plan,
 * the institute's for a student's payment): the message comes in its name and links to where the
 * buyer's purchases are, on its site.
 */
export async function sendRefundNote(
  tx: DbOrTx,
  messages: MessageService,
  links: SiteLinks,
  refund: { id: string; amount: number; currency: string },
  invoices: InvoiceService,
) {
  const note = await invoices.creditNote(tx, refund.id);
  const [buyer] = await tx
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, note.buyerUserId));
  if (!buyer) return;
  const seller = await sellerSite(tx, note.sellerCenterId);
  await messages.send(tx, {
    template: "refund-processed",
    values: {
      name: buyer.name,
      item: note.description.replace(/^Refund: /, ""),
      amount: money(refund.amount, refund.currency),
      creditNote: `${INVOICE_TITLES[note.kind]} ${note.number}`,
      link: seller ? links.to(seller, "/student/my-courses") : links.to(null, "/business/subscription-details"),
    },
    to: { email: buyer.email, userId: note.buyerUserId },
    centerId: note.sellerCenterId,
    invoiceId: note.id,
  });
}
