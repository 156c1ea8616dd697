import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { openDatabase } from "../../server/db/open.ts";
import { feeEntries, feeReceipts, orders, webhookEvents } from "../../server/db/schema/index.ts";
import { parseEnv } from "../../server/runtime/env.ts";
import { createLogger } from "../../server/runtime/logger.ts";
import { resolvePaymentConfig, SANDBOX_PATH, SANDBOX_WEBHOOK_SECRET } from "../../server/payments/config.ts";
import { webhookSignature } from "../../server/payments/signatures.ts";
import { sandboxRouter } from "../../server/payments/sandbox/router.ts";
import { newSandboxAccount } from "../../server/payments/sandbox/accounts.ts";
import { receiptNumber } from "../../server/services/fees/desk.ts";
import { indiaDate } from "../../common/india-dates.ts";
import { FEE_DUE_SETTLED } from "../../common/validation/fee-online.ts";
import { call, launch, runningServer } from "./server.ts";

/**
 * Issue 42 (fees), "Checked by ... the fault suite killing the server mid-payment" (decisions
 * 0045, 0046): a student's Checkout payment of a due is captured by the gateway and the server is
 * killed (-9) before the browser's verify or any webhook arrives; the gateway's webhooks, once the
 * server is back on the same store, receipt it exactly once. And a burst of desk payments cut by
 * a kill leaves whole receipts only, numbered without gaps or duplicates.
 *
 * Razorpay lives outside the server, so it must outlive the kill: the payment sandbox runs here,
 * in the test's process, as the gateway the server talks to (RAZORPAY_API_URL). Its webhooks are
 * held here while the server is down and delivered, as the gateway's retries, once it is back.
 * Everything else goes through the server's HTTP API as an outside client; the database is read
 * only to check that nothing is half-written.
 */

interface Delivery {
  event: string;
  body: string;
  headers: Record<string, string>;
}

const gateway = { apiUrl: "", deliveries: [] as Delivery[], close: async () => {} };

beforeAll(async () => {
  let handler: (request: Request) => Response | Promise<Response> = () => new Response("starting", { status: 503 });
  const server = createServer(getRequestListener((request) => handler(request), { overrideGlobalObjects: false }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const config = resolvePaymentConfig(parseEnv({ PORT: String(port), HOST: "127.0.0.1", RAZORPAY_SANDBOX: "1" }));
  const app = new Hono();
  app.route(
    SANDBOX_PATH,
    sandboxRouter({
      config,
      logger: createLogger({ LOG_LEVEL: "silent", LOG_FORMAT: "json" }),
      webhookDelayMs: 0,
      // The app is down (or about to be): the gateway keeps each signed delivery to retry later.
      deliver: async (body, headers) => {
        gateway.deliveries.push({ event: (JSON.parse(body) as { event: string }).event, body, headers });
        return 200;
      },
    }),
  );
  handler = (request) => app.fetch(request);
  gateway.apiUrl = config.apiUrl;
  gateway.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
});
afterAll(() => gateway.close());

// Registered after the gateway's beforeAll, so the server starts talking to it.
const f = runningServer({ env: () => ({ RAZORPAY_API_URL: gateway.apiUrl }) });

const today = indiaDate(new Date());
const shift = (days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const id = Date.now().toString(36);

/** The institute both tests use, made through the API by whichever runs first. */
const world = {} as {
  owner: string;
  centerId: string;
  site: string;
  merchant: ReturnType<typeof newSandboxAccount>;
  merchantAccountId: string;
  batchId: string;
};
let instituteMade: Promise<void> | undefined;
const institute = () => (instituteMade ??= makeInstitute());

/**
 * An owner, their institute (a free trial: live at once on its working address), its own sandbox
 * merchant account connected by its keys, and a batch to admit students to.
 */
async function makeInstitute() {
  const owner = await expectStatus(
    api("/api/auth/register", {
      body: {
        name: "Fee Owner",
        email: `fee.owner.${id}@example.com`,
        password: "tangerine-kettle-42",
        role: "business",
      },
    }),
    201,
  );
  world.owner = owner.access_token;
  const trial = await expectStatus(
    api("/api/trial", {
      token: world.owner,
      body: {
        institute: "Fee Crash Academy",
        domain: `fee-crash-${id}.example.com`,
        owner: "Fee Owner",
        email: `fee.owner.${id}@example.com`,
        plan: "1 Year Plan",
      },
    }),
    201,
  );
  world.centerId = trial.center._id;
  world.site = trial.center.workingHost;
  expect(world.site).toBe(`${trial.center.slug}.localhost`);
  world.merchant = newSandboxAccount();
  const connected = await expectStatus(
    api("/api/institute/payment-account", {
      method: "PUT",
      token: world.owner,
      body: { centerId: world.centerId, ...world.merchant },
    }),
    200,
  );
  world.merchantAccountId = connected.account.id;

  const batch = await expectStatus(
    api("/api/batches", { token: world.owner, body: { centerId: world.centerId, name: "JEE 2027", startsOn: today } }),
    201,
  );
  world.batchId = batch.batch._id;
}

const api = (
  path: string,
  init: { method?: string; body?: unknown; token?: string; host?: string; headers?: Record<string, string> } = {},
) => call(f.server.base, path, { ...init, headers: { ...init.headers, ...(init.host ? { host: init.host } : {}) } });

async function expectStatus(res: Promise<{ status: number; json: any; text: string }>, status: number) {
  const answer = await res;
  expect(answer.status, answer.text).toBe(status);
  return answer.json;
}

/** A fee plan of `instalments` (rupees, one a month from next week) of the institute. */
async function feePlan(name: string, instalments: number[]) {
  const made = await expectStatus(
    api("/api/fee-plans", {
      token: world.owner,
      body: {
        centerId: world.centerId,
        name,
        heads: [{ name: "Tuition", amount: instalments.reduce((a, b) => a + b, 0) }],
        instalments: instalments.map((amount, i) => ({
          label: `Instalment ${i + 1}`,
          amount,
          dueOn: shift(7 + 30 * i),
        })),
      },
    }),
    201,
  );
  return made.feePlan._id as string;
}

/** Students admitted to the institute's batch by e-mail (accounts made for addresses that have none). */
async function admit(people: { name: string; email: string }[]) {
  const csv = ["name,email,phone", ...people.map((p) => `${p.name},${p.email},`)].join("\n");
  const admitted = await expectStatus(
    api(`/api/batches/${world.batchId}/students`, { token: world.owner, body: { csv } }),
    200,
  );
  return admitted.admitted as { studentId: string; email: string }[];
}

async function assign(studentId: string, feePlanId: string) {
  const made = await expectStatus(
    api("/api/fee-accounts", { token: world.owner, body: { centerId: world.centerId, studentId, feePlanId } }),
    201,
  );
  return made.account as { _id: string; dues: { _id: string; amount: number; balance: number }[] };
}

const accountNow = async (accountId: string) =>
  (await expectStatus(api(`/api/fee-accounts/${accountId}`, { token: world.owner }), 200)).account as {
    dues: { balance: number; paid: number }[];
    paid: number;
    balance: number;
    ledger: { kind: string; amount: number; receiptId: string | null }[];
  };

/** Desk payments kept in flight at once, and how many are answered before the kill. */
const IN_FLIGHT = 16;
const ANSWERED_BEFORE_KILL = 24;

describe("the server is killed in the middle of fee payments", () => {
  it("a Checkout payment captured before the kill is receipted exactly once from the gateway's webhooks after restart", async () => {
    await institute();
    // A student signs up on the institute's site and is admitted; the owner assigns them a plan.
    const student = await expectStatus(
      api("/api/auth/register", {
        host: world.site,
        body: { name: "Priya Das", email: `fee.student.${id}@example.com`, password: "correct-horse-battery" },
      }),
      201,
    );
    const [admitted] = await admit([{ name: "Priya Das", email: `fee.student.${id}@example.com` }]);
    expect(admitted.studentId).toBe(student.user._id);
    const planId = await feePlan("Two instalments", [10_000, 5_000]);
    const account = await assign(student.user._id, planId);
    const [first] = account.dues;

    // The student pays the first due: an order on the institute's own account at the gateway.
    const placed = await expectStatus(
      api(`/api/fee-dues/${first._id}/pay`, { host: world.site, token: student.access_token, body: {} }),
      200,
    );
    expect(placed.key_id).toBe(world.merchant.keyId);
    expect(placed.order.amount).toBe(1_000_000);
    const orderId: string = placed.order.id;

    // Checkout: the gateway captures the payment. Before the browser's verify or any webhook gets
    // through, the server dies.
    const paid = await fetch(`${gateway.apiUrl}/checkout/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: placed.key_id, order_id: orderId }),
    });
    expect(paid.status, await paid.clone().text()).toBe(200);
    const paymentId = ((await paid.json()) as { razorpay_payment_id: string }).razorpay_payment_id;
    f.server.child.kill("SIGKILL");
    await f.server.exited;
    const ofThisOrder = () => gateway.deliveries.filter((d) => d.body.includes(orderId));
    await expect.poll(() => ofThisOrder().map((d) => d.event)).toEqual(["payment.captured", "order.paid"]);
    const [captured, orderPaid] = ofThisOrder();

    // Back on the same store, the due is still owed: nothing reported the payment.
    f.server = await launch(f.store, {}, f.server.port);
    expect((await accountNow(account._id)).dues.map((d) => d.balance)).toEqual([10_000, 5_000]);
    // The platform's webhook secret does not sign for the institute's account, on either route.
    const forged = {
      ...captured.headers,
      "x-razorpay-signature": webhookSignature(SANDBOX_WEBHOOK_SECRET, captured.body),
      "x-razorpay-event-id": `${captured.headers["x-razorpay-event-id"]}x`,
    };
    for (const path of [`/api/payment/webhook/${world.merchantAccountId}`, "/api/payment/webhook"])
      await expectStatus(api(path, { body: captured.body, headers: forged }), 400);
    // The gateway retries: first to the institute's own webhook URL (its account's secret signs
    // them), then all again to the platform's (the account the order was placed on signs them).
    const outcomes = [];
    for (const [path, delivery] of [
      [`/api/payment/webhook/${world.merchantAccountId}`, captured],
      [`/api/payment/webhook/${world.merchantAccountId}`, orderPaid],
      ["/api/payment/webhook", captured],
      ["/api/payment/webhook", orderPaid],
    ] as const)
      outcomes.push(await expectStatus(api(path, { body: delivery.body, headers: delivery.headers }), 200));
    expect(outcomes.map((o) => [o.status, o.result])).toEqual([
      ["processed", "completed"],
      ["processed", "already-paid"],
      ["duplicate", undefined],
      ["duplicate", undefined],
    ]);

    // The owner sees the due paid by one online receipt; the student has nothing left to pay on it.
    const after = await accountNow(account._id);
    expect(after.dues.map((d) => d.balance)).toEqual([0, 5_000]);
    expect(after.paid).toBe(10_000);
    const payments = after.ledger.filter((e) => e.kind === "payment");
    expect(payments.map((e) => e.amount)).toEqual([10_000]);
    const receipt = (await expectStatus(api(`/api/fee-receipts/${payments[0].receiptId}`, { token: world.owner }), 200))
      .receipt;
    expect(receipt).toMatchObject({ amount: 10_000, mode: "online", reference: paymentId, accountId: account._id });
    const again = await expectStatus(
      api(`/api/fee-dues/${first._id}/pay`, { host: world.site, token: student.access_token, body: {} }),
      409,
    );
    expect(again.error).toBe(FEE_DUE_SETTLED);

    // Nothing half-written: one paid order, one receipt for the payment, its ledger entries make it up.
    await readStore(async (db) => {
      const [order] = await db.select().from(orders).where(eq(orders.gatewayOrderId, orderId));
      expect(order).toMatchObject({ status: "paid", gatewayPaymentId: paymentId, feeAccountId: account._id });
      const receipts = await db.select().from(feeReceipts).where(eq(feeReceipts.accountId, account._id));
      expect(receipts.map((r) => [r.gatewayPaymentId, r.amount, r.mode])).toEqual([[paymentId, 1_000_000, "online"]]);
      const entries = await db
        .select()
        .from(feeEntries)
        .where(and(eq(feeEntries.accountId, account._id), eq(feeEntries.kind, "payment")));
      expect(entries.every((e) => e.receiptId === receipts[0].id)).toBe(true);
      expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(receipts[0].amount);
      const events = await db
        .select()
        .from(webhookEvents)
        .where(
          inArray(webhookEvents.id, [
            captured.headers["x-razorpay-event-id"],
            orderPaid.headers["x-razorpay-event-id"],
          ]),
        );
      expect(events).toHaveLength(2);
    });
  }, 120_000);

  it("a desk payment burst cut by a kill leaves whole receipts numbered without gaps or duplicates", async () => {
    await institute();
    // Four students admitted from the desk's CSV, each under a plan of ₹40,000.
    const people = [1, 2, 3, 4].map((n) => ({ name: `Desk Student ${n}`, email: `desk.${n}.${id}@example.com` }));
    const admitted = await admit(people);
    const planId = await feePlan("Desk plan", [20_000, 20_000]);
    const accounts: Awaited<ReturnType<typeof assign>>[] = [];
    for (const a of admitted) accounts.push(await assign(a.studentId, planId));

    // The desk keeps IN_FLIGHT ₹100 cash payments in flight across the four accounts (each desk
    // sends its next as soon as one is answered); once enough are answered, kill -9 mid-burst.
    const answered: { status: number; json: any }[] = [];
    let sent = 0;
    let killed = false;
    let killNow!: () => void;
    const enough = new Promise<void>((resolve) => (killNow = resolve));
    const desk = async (account: { _id: string }) => {
      while (!killed) {
        sent += 1;
        const res = await api(`/api/fee-accounts/${account._id}/payments`, {
          token: world.owner,
          body: { amount: 100, mode: "cash" },
        });
        answered.push(res);
        if (answered.length >= ANSWERED_BEFORE_KILL) killNow();
      }
    };
    // Every outcome is collected from the start: the kill makes those in flight fail.
    const outcomes = Promise.allSettled(
      Array.from({ length: IN_FLIGHT }, (_, i) => desk(accounts[i % accounts.length])),
    );
    await enough;
    killed = true;
    f.server.child.kill("SIGKILL");
    await f.server.exited;
    const settled = await outcomes;
    // The kill cut the burst: payments in flight were never answered.
    expect(settled.some((s) => s.status === "rejected")).toBe(true);
    const acknowledged = answered.map((res) => {
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      return res.json.receipt as { _id: string; number: string; amount: number };
    });

    // The store as the kill left it (read before the restart, which saves the embedded database a stop and start).
    const ids = accounts.map((a) => a._id);
    let lastSeq = 0;
    let financialYear = "";
    const kept = await readStore(async (db) => {
      const receipts = await db.select().from(feeReceipts).where(eq(feeReceipts.centerId, world.centerId));
      const entries = await db
        .select()
        .from(feeEntries)
        .where(and(eq(feeEntries.centerId, world.centerId), eq(feeEntries.kind, "payment")));
      // Every receipt is whole: its payment entries add up to it; no entry without its receipt.
      for (const r of receipts)
        expect(
          entries.filter((e) => e.receiptId === r.id).reduce((sum, e) => sum + e.amount, 0),
          `receipt ${r.number}`,
        ).toBe(r.amount);
      expect(entries.every((e) => receipts.some((r) => r.id === e.receiptId))).toBe(true);
      // Numbered 1, 2, 3, … in the financial year's series: no gap, no number twice.
      financialYear = receipts[0].financialYear;
      expect(new Set(receipts.map((r) => r.financialYear))).toEqual(new Set([financialYear]));
      const seqs = receipts.map((r) => r.seq).sort((a, b) => a - b);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      expect(new Set(receipts.map((r) => r.number)).size).toBe(receipts.length);
      for (const r of receipts) expect(r.number).toBe(receiptNumber(r.financialYear, r.seq));
      lastSeq = seqs.length;
      // Every payment the desk was told about is there, as it was told; none was made up.
      const taken = receipts.filter((r) => ids.includes(r.accountId));
      for (const a of acknowledged)
        expect(taken.find((r) => r.id === a._id)).toMatchObject({ number: a.number, amount: 10_000 });
      expect(taken.length).toBeGreaterThanOrEqual(acknowledged.length);
      expect(taken.length).toBeLessThanOrEqual(sent);
      return taken;
    });
    f.server = await launch(f.store, {}, f.server.port);

    // Each account shows what its receipts took, and the next receipt follows the last one.
    for (const a of accounts) {
      const paid = kept.filter((r) => r.accountId === a._id).length * 100;
      expect(await accountNow(a._id)).toMatchObject({ paid, balance: 40_000 - paid });
    }
    const next = await expectStatus(
      api(`/api/fee-accounts/${accounts[0]._id}/payments`, { token: world.owner, body: { amount: 100, mode: "cash" } }),
      201,
    );
    expect(next.receipt.number).toBe(receiptNumber(financialYear, lastSeq + 1));
  }, 120_000);
});

/**
 * Reads the store directly. PostgreSQL is read while the server runs; the embedded database
 * belongs to the server, so a running server is stopped, the store read, and the server started
 * again. A server that is down stays down.
 */
async function readStore<T>(read: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>): Promise<T> {
  const { child } = f.server;
  const running = child.exitCode === null && child.signalCode === null;
  const restart = running && !f.store.databaseUrl;
  if (restart) {
    child.kill("SIGTERM");
    await f.server.exited;
  }
  const database = f.store.databaseUrl
    ? await openDatabase({ databaseUrl: f.store.databaseUrl, poolMax: 1 })
    : await openDatabase({ dataDir: f.store.dataDir });
  try {
    return await read(database.db);
  } finally {
    await database.close();
    if (restart) f.server = await launch(f.store, {}, f.server.port);
  }
}
