import { and, eq, sql } from "drizzle-orm";
import { orders } from "../db/schema/index.ts";
import type { Db, DbOrTx, Tx } from "../db/types.ts";

/** One order of the ledger, whatever it sells (server/db/schema/payments.ts). */
export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type OrderSubject = OrderRow["subject"];

/**
 * The order ledger's own reads and writes: every sale is found by its gateway order id in one
 * table, marked paid or failed in one place, and knows the merchant account it was placed on.
 */
export class OrderLedger {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async byGatewayOrder(gatewayOrderId: string, db: DbOrTx = this.db): Promise<OrderRow | undefined> {
    const [row] = await db.select().from(orders).where(eq(orders.gatewayOrderId, gatewayOrderId)).limit(1);
    return row;
  }

  async byId(id: string, db: DbOrTx = this.db): Promise<OrderRow | undefined> {
    const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
    return row;
  }

  /** The order, locked (`for update`) for the rest of the transaction. */
  async lock(tx: Tx, gatewayOrderId: string): Promise<OrderRow | undefined> {
    const [row] = await tx.select().from(orders).where(eq(orders.gatewayOrderId, gatewayOrderId)).for("update");
    return row;
  }

  /**
   * The merchant account an order was placed on: null for the platform's own, undefined for an
   * order we never placed.
   */
  async accountOf(gatewayOrderId: string): Promise<string | null | undefined> {
    const [row] = await this.db
      .select({ account: orders.merchantAccountId })
      .from(orders)
      .where(eq(orders.gatewayOrderId, gatewayOrderId))
      .limit(1);
    return row ? row.account : undefined;
  }

  async insert(db: DbOrTx, order: NewOrder): Promise<OrderRow> {
    const [row] = await db.insert(orders).values(order).returning();
    return row;
  }

  async markPaid(tx: Tx, id: string, paymentId: string): Promise<void> {
    await tx
      .update(orders)
      .set({ status: "paid", gatewayPaymentId: paymentId, paidAt: sql`now()` })
      .where(eq(orders.id, id));
  }

  /** A failed attempt: the order stays payable (Checkout may retry it). */
  async markFailed(tx: Tx, id: string): Promise<void> {
    await tx
      .update(orders)
      .set({ status: "failed" })
      .where(and(eq(orders.id, id), eq(orders.status, "created")));
  }
}
