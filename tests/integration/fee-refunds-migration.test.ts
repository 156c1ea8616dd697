import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { feeReceipts } from "../../server/db/schema/index.ts";
import type { Database } from "../../server/db/types.ts";
import { openDatabaseAt } from "../helpers/older-database.ts";

/**
 * Migration 0041 (decision 0048) on a database the product made before receipts kept the account
 * that took an online payment: it is migrated up to 0040 and given an institute that moved from
 * one Razorpay account to another, with receipts of a Checkout payment, of payment links made on
 * one account, of links made on both, and of cash; then upgraded the way a deployment is.
 */

let older: Awaited<ReturnType<typeof openDatabaseAt>>;
let database: Database;
let insertRow: (typeof older)["insertRow"];

beforeAll(async () => {
  older = await openDatabaseAt(40);
  ({ database, insertRow } = older);
}, 300_000);
afterAll(() => older?.drop());

const person = (name: string, role: string) =>
  insertRow("users", { name, email: `${name.toLowerCase().replace(/ /g, ".")}@example.com`, passwordHash: "x", role });

describe("keeping the merchant account on online receipts (0041)", () => {
  it("fills it from the Checkout order, else from the account's links when they were all on one account", async () => {
    const owner = await person("Anita Owner", "business");
    const sunrise = await insertRow("centers", {
      slug: "sunrise",
      instituteName: "Sunrise Academy",
      ownerId: owner.id,
    });
    const account = (keyId: string, status: string) =>
      insertRow("merchant_accounts", {
        centerId: sunrise.id,
        method: "keys",
        keyId,
        keySecretSealed: "sealed",
        webhookSecretSealed: "sealed",
        status,
      });
    const before = await account("rzp_test_sunrise0001", "disconnected");
    const now = await account("rzp_test_sunrise0002", "connected");
    const [plan] = (
      (await database.db.execute(
        sql`insert into fee_plans (center_id, name, heads, instalments, total, gst_rate)
            values (${sunrise.id}, 'JEE 2027', ${JSON.stringify([{ name: "Tuition", amount: 100_000 }])}::jsonb,
                    ${JSON.stringify([{ label: "Whole fee", amount: 100_000, dueOn: "2026-12-01" }])}::jsonb, 10000000, 18)
            returning id`,
      )) as unknown as { rows: { id: string }[] }
    ).rows;
    const feeAccount = async (name: string) => {
      const student = await person(name, "student");
      const row = await insertRow("fee_accounts", {
        centerId: sunrise.id,
        studentId: student.id,
        feePlanId: plan.id,
        planName: "JEE 2027",
      });
      return { ...row, studentId: student.id };
    };
    const priya = await feeAccount("Priya Das");
    const kabir = await feeAccount("Kabir Jain");
    const zoya = await feeAccount("Zoya Khan");
    let links = 0;
    const link = (accountId: string, merchantAccountId: string) =>
      insertRow("fee_payment_links", {
        centerId: sunrise.id,
        accountId,
        amount: 100_000,
        merchantAccountId,
        gatewayLinkId: `plink_${++links}`,
        shortUrl: `https://rzp.io/i/${links}`,
      });
    let seq = 0;
    const receipt = (accountId: string, mode: string, gatewayPaymentId: string | null) =>
      insertRow("fee_receipts", {
        centerId: sunrise.id,
        accountId,
        number: `RCT/26-27/${String(++seq).padStart(5, "0")}`,
        financialYear: "2026-27",
        seq,
        amount: 100_000,
        mode,
        reference: gatewayPaymentId,
        paidOn: "2026-11-01",
        gatewayPaymentId,
      });
    // Priya paid once by Checkout on the first account, once by a link made on the second.
    await insertRow("orders", {
      subject: "fee",
      feeAccountId: priya.id,
      buyerId: priya.studentId,
      sellerCenterId: sunrise.id,
      amount: 100_000,
      merchantAccountId: before.id,
      gatewayOrderId: "order_priya",
      gatewayPaymentId: "pay_priya_checkout",
      status: "paid",
      paidAt: "2026-10-01T10:00:00.000Z",
    });
    await link(priya.id, now.id);
    const checkout = await receipt(priya.id, "online", "pay_priya_checkout");
    const byLink = await receipt(priya.id, "online", "pay_priya_link");
    // Kabir was sent links on both accounts: which one took his payment cannot be told.
    await link(kabir.id, before.id);
    await link(kabir.id, now.id);
    const unknown = await receipt(kabir.id, "online", "pay_kabir_link");
    // Zoya paid cash.
    await link(zoya.id, now.id);
    const cash = await receipt(zoya.id, "cash", null);

    await older.upgrade();

    const rows = await database.db
      .select({ id: feeReceipts.id, merchantAccountId: feeReceipts.merchantAccountId })
      .from(feeReceipts);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.merchantAccountId]))).toEqual({
      [checkout.id]: before.id,
      [byLink.id]: now.id,
      [unknown.id]: null,
      [cash.id]: null,
    });
    // Receipts are append only again, and the new table is under row-level security even for its owner.
    await expect(
      database.db.update(feeReceipts).set({ amount: 1 }).where(eq(feeReceipts.id, cash.id)),
    ).rejects.toThrow();
    const forced = (await database.db.execute(
      sql`select relforcerowsecurity as forced from pg_class where relname = 'fee_refund_requests'`,
    )) as unknown as { rows: { forced: boolean }[] };
    expect(forced.rows).toEqual([{ forced: true }]);
  });
});
