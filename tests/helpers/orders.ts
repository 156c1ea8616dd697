import { eq, getTableColumns } from "drizzle-orm";
import { orders, planOrders } from "../../server/db/schema/index.ts";
import type { DbOrTx } from "../../server/db/types.ts";

const { orderId: _orderId, ...planTerms } = getTableColumns(planOrders);

/** Plan orders as tests read them: the ledger's row with the plan's terms beside it. */
export function planOrderRows(db: DbOrTx) {
  return db
    .select({ ...getTableColumns(orders), ...planTerms })
    .from(orders)
    .innerJoin(planOrders, eq(planOrders.orderId, orders.id));
}

type PlanOrderInput = Omit<typeof orders.$inferInsert, "subject"> & Omit<typeof planOrders.$inferInsert, "orderId">;

/** Writes a plan order straight into the ledger (a purchase made before the test). */
export async function insertPlanOrder(db: DbOrTx, input: PlanOrderInput) {
  const { planName, billing, durationDays, instituteName, ownerName, email, phone, domain, centerId, ...order } = input;
  const [row] = await db
    .insert(orders)
    .values({ ...order, subject: "plan" })
    .returning();
  const terms = { planName, billing, durationDays, instituteName, ownerName, email, phone, domain, centerId };
  await db.insert(planOrders).values({ orderId: row.id, ...terms });
  return { ...row, ...terms };
}
