import { and, asc, eq } from "drizzle-orm";
import { centers, orders, users } from "../db/schema/index.ts";
import type { Services } from "../services/index.ts";
import type { Db } from "../db/types.ts";
import { DEMO_ACCOUNTS, DEMO_CENTERS } from "./demo-data.ts";

/** Sunrise Academy is GST-registered in West Bengal; the demo's other institutes are not. */
export const DEMO_SELLER = {
  legalName: "Sunrise Academy Private Limited",
  billingAddress: "14 Park Street, Kolkata 700016, West Bengal",
  gstState: "19",
  gstin: "19AAKCS4321M1ZY",
} as const;

/**
 * The demo's invoices, issued through the real invoicing: Sunrise Academy's GST details, the demo
 * student in Maharashtra (so Sunrise's invoices charge IGST), and an invoice for each of the
 * student's paid orders (a bill of supply where the seller has no GSTIN).
 */
export async function seedDemoInvoices(db: Db, services: Services): Promise<void> {
  const student = DEMO_ACCOUNTS.find((a) => a.role === "student")!;
  await db.transaction(async (tx) => {
    await tx.update(centers).set(DEMO_SELLER).where(eq(centers.slug, DEMO_CENTERS[0].slug));
    const [buyer] = await tx
      .update(users)
      .set({ gstState: "27" })
      .where(eq(users.email, student.email))
      .returning({ id: users.id });
    if (!buyer) return;
    const paid = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.buyerId, buyer.id), eq(orders.status, "paid")))
      .orderBy(asc(orders.paidAt));
    for (const order of paid) await services.invoices.issue(tx, { orderId: order.id });
  });
}
