import { eq } from "drizzle-orm";
import { centers, users } from "../db/schema/index.ts";
import type { DbOrTx } from "../db/types.ts";
import type { MessageService } from "./service.ts";
import type { SiteLinks } from "./links.ts";
import { messageDate } from "./format.ts";

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
}

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat("en-IN", { style: "currency", currency }).format(amount / 100);

/** The buyer's receipt, written in the transaction that completes the payment. */
export async function sendReceipt(tx: DbOrTx, messages: MessageService, links: SiteLinks, receipt: Receipt) {
  const [buyer] = await tx
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, receipt.userId));
  if (!buyer) return;
  const [seller] = receipt.centerId
    ? await tx
        .select({ slug: centers.slug, customDomain: centers.customDomain })
        .from(centers)
        .where(eq(centers.id, receipt.centerId))
    : [];
  await messages.send(tx, {
    template: "payment-receipt",
    values: {
      name: buyer.name,
      item: receipt.item,
      amount: money(receipt.amount, receipt.currency),
      date: messageDate(new Date()),
      paymentId: receipt.paymentId,
      link: links.to(seller ?? null, receipt.path),
    },
    to: { email: buyer.email, userId: receipt.userId },
    centerId: receipt.centerId,
  });
}
