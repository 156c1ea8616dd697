import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDatabase } from "../../server/db/open.ts";
import { centers, domainClaims, orders } from "../../server/db/schema/index.ts";
import { planOrderRows } from "../helpers/orders.ts";
import { webhook } from "../helpers/payments.ts";
import { call, launch, runningServer } from "./server.ts";

const f = runningServer();

describe("the app is killed between payment capture and verify", () => {
  it("completes the purchase exactly once from the retried signed webhook; nothing is half-written", async () => {
    const id = Date.now().toString(36);
    const reg = await call(f.server.base, "/api/auth/register", {
      body: {
        name: "Crash Owner",
        email: `crash.${id}@example.com`,
        password: "tangerine-kettle-42",
        role: "business",
      },
    });
    expect(reg.status).toBe(201);
    const domain = `crash-${id}.example.com`;
    const order = await call(f.server.base, "/api/payment/create-order", {
      token: reg.json.access_token,
      body: {
        institute: "Crash Test Academy",
        owner: "Crash Owner",
        email: `crash.${id}@example.com`,
        plan: "1 Year Plan",
        billing: "monthly",
        domain,
      },
    });
    expect(order.status).toBe(200);
    const orderId: string = order.json.order.id;

    // Razorpay captures the payment; before the browser's verify (or the first webhook) gets through, the app dies.
    f.server.child.kill("SIGKILL");
    await f.server.exited;
    const delivery = webhook("payment.captured", {
      orderId,
      paymentId: `pay_crash${id}`,
      amount: order.json.order.amount,
    });

    f.server = await launch(f.store, {}, f.server.port);
    // Razorpay retries the webhook (and may deliver it more than once).
    const first = await call(f.server.base, "/api/payment/webhook", { body: delivery.body, headers: delivery.headers });
    expect(first.status).toBe(200);
    const again = await call(f.server.base, "/api/payment/webhook", { body: delivery.body, headers: delivery.headers });
    expect(again.status).toBe(200);

    const database = await openDatabaseWhileServerRuns();
    let slug: string;
    try {
      const rows = await planOrderRows(database.db).where(eq(orders.gatewayOrderId, orderId));
      expect(rows).toHaveLength(1);
      expect(rows[0].status).toBe("paid");
      expect(rows[0].gatewayPaymentId).toBe(`pay_crash${id}`);
      const made = await database.db.select().from(centers).where(eq(centers.id, rows[0].centerId!));
      expect(made).toHaveLength(1);
      // Its domain waits for its owner's proof (paying proves nothing).
      expect(made[0].customDomain).toBeNull();
      const claims = await database.db.select().from(domainClaims).where(eq(domainClaims.centerId, made[0].id));
      expect(claims.map((c) => c.domain)).toEqual([domain]);
      slug = made[0].slug;
    } finally {
      await database.close();
    }
    // The site is live on its working address.
    const site = await call(f.server.base, "/", { headers: { host: `${slug}.localhost` } });
    expect(site.text).toContain("Crash Test Academy");
  }, 120_000);
});

/** On PostgreSQL the test reads the database directly; on the embedded one it must ask the server. */
async function openDatabaseWhileServerRuns() {
  if (f.store.databaseUrl) return openDatabase({ databaseUrl: f.store.databaseUrl, poolMax: 1 });
  // The embedded database belongs to the server: stop it, read, and start it again.
  f.server.child.kill("SIGTERM");
  await f.server.exited;
  const database = await openDatabase({ dataDir: f.store.dataDir });
  const close = database.close.bind(database);
  return Object.assign(database, {
    async close() {
      await close();
      f.server = await launch(f.store, {}, f.server.port);
    },
  });
}
