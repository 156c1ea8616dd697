import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GatewayError } from "./gateway.ts";
import { NoGateway, RazorpayGateway } from "./razorpay.ts";

/**
 * The recurring payment calls as Razorpay receives them: a stand-in that records each request
 * and answers what the test gives it, in Razorpay's shapes (including those the sandbox does not
 * produce: a token whose state is only in `status`, an end named `expire_at`).
 */

interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

let server: ReturnType<typeof createServer>;
let gateway: RazorpayGateway;
const seen: Seen[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(async () => {
  const app = new Hono();
  app.all("*", async (c) => {
    const text = await c.req.text();
    seen.push({
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      authorization: c.req.header("authorization"),
      body: text ? JSON.parse(text) : undefined,
    });
    return c.json(answer.body as object, answer.status as 200);
  });
  server = createServer(getRequestListener((request) => app.fetch(request), { overrideGlobalObjects: false }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  gateway = new RazorpayGateway({
    keyId: "rzp_test_key",
    keySecret: "key-secret",
    webhookSecret: "webhook-secret",
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    checkoutScript: "",
    sandbox: false,
  });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
  answer = { status: 200, body: {} };
});

const END = new Date("2027-03-31T06:30:00Z");
const END_S = Math.floor(END.getTime() / 1000);

describe("RazorpayGateway's recurring payment calls", () => {
  it('creates a customer with fail_existing "0", authenticated with the key id and secret', async () => {
    answer.body = { id: "cust_A", entity: "customer" };
    expect(
      await gateway.createCustomer({ name: "Meera Iyer", email: "m@example.com", contact: "+919876543210" }),
    ).toEqual({ id: "cust_A" });
    expect(seen).toEqual([
      {
        method: "POST",
        path: "/v1/customers",
        authorization: `Basic ${Buffer.from("rzp_test_key:key-secret").toString("base64")}`,
        body: { name: "Meera Iyer", email: "m@example.com", contact: "+919876543210", fail_existing: "0", notes: {} },
      },
    ]);
  });

  it("makes UPI Autopay's authorisation order (monthly, captured) and an e-mandate's (0, netbanking)", async () => {
    answer.body = { id: "order_A", amount: 100, currency: "INR", receipt: "r1", status: "created" };
    expect(
      await gateway.createMandateOrder({
        method: "upi",
        customerId: "cust_A",
        amount: 100,
        maxAmount: 150_000,
        expireAt: END,
        receipt: "r1",
        notes: { due: "fees" },
      }),
    ).toEqual({ id: "order_A", amount: 100, currency: "INR", receipt: "r1", status: "created" });
    answer.body = { id: "order_B", amount: 0, currency: "INR", receipt: "r2", status: "created" };
    await gateway.createMandateOrder({
      method: "emandate",
      customerId: "cust_A",
      amount: 0,
      maxAmount: 150_000,
      expireAt: END,
      receipt: "r2",
    });
    expect(seen.map((s) => [s.method, s.path, s.body])).toEqual([
      [
        "POST",
        "/v1/orders",
        {
          amount: 100,
          currency: "INR",
          customer_id: "cust_A",
          method: "upi",
          receipt: "r1",
          notes: { due: "fees" },
          payment_capture: true,
          token: { max_amount: 150_000, expire_at: END_S, frequency: "monthly" },
        },
      ],
      [
        "POST",
        "/v1/orders",
        {
          amount: 0,
          currency: "INR",
          customer_id: "cust_A",
          method: "emandate",
          receipt: "r2",
          notes: {},
          payment_capture: true,
          token: { auth_type: "netbanking", max_amount: 150_000, expire_at: END_S },
        },
      ],
    ]);
  });

  it("reads a payment's token and customer, null when it has none", async () => {
    answer.body = {
      id: "pay_A",
      order_id: "order_A",
      amount: 100,
      status: "captured",
      method: "upi",
      token_id: "token_A",
      customer_id: "cust_A",
    };
    expect(await gateway.fetchPayment("pay_A")).toEqual({
      id: "pay_A",
      orderId: "order_A",
      amount: 100,
      status: "captured",
      method: "upi",
      tokenId: "token_A",
      customerId: "cust_A",
    });
    answer.body = { id: "pay_B", amount: 500, status: "failed", method: "card" };
    expect(await gateway.fetchPayment("pay_B")).toMatchObject({ orderId: null, tokenId: null, customerId: null });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(["GET /v1/payments/pay_A", "GET /v1/payments/pay_B"]);
  });

  it("reads a token's state from recurring_details, else status, and its end from expired_at, else expire_at", async () => {
    answer.body = {
      id: "token_A",
      method: "upi",
      status: "active",
      recurring_details: { status: "confirmed", failure_reason: null },
      max_amount: 150_000,
      expired_at: END_S,
    };
    expect(await gateway.fetchToken("cust_A", "token_A")).toEqual({
      id: "token_A",
      method: "upi",
      status: "confirmed",
      maxAmount: 150_000,
      expireAt: END,
    });
    answer.body = { id: "token_B", method: "emandate", status: "initiated", max_amount: 9_999_900, expire_at: END_S };
    expect(await gateway.fetchToken("cust_A", "token_B")).toEqual({
      id: "token_B",
      method: "emandate",
      status: "initiated",
      maxAmount: 9_999_900,
      expireAt: END,
    });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      "GET /v1/customers/cust_A/tokens/token_A",
      "GET /v1/customers/cust_A/tokens/token_B",
    ]);
    answer.body = { id: "token_C", method: "card", recurring_details: { status: "confirmed" } };
    await expect(gateway.fetchToken("cust_A", "token_C")).rejects.toThrow("card token, not a UPI or e-mandate one");
  });

  it('presents a recurring debit with recurring "1" and answers its payment id', async () => {
    answer.body = { razorpay_payment_id: "pay_R", razorpay_order_id: "order_R", razorpay_signature: "sig" };
    const input = {
      orderId: "order_R",
      customerId: "cust_A",
      tokenId: "token_A",
      amount: 120_000,
      email: "m@example.com",
      contact: "+919876543210",
      description: "April fees",
      notes: { due: "april" },
    };
    expect(await gateway.createRecurringPayment(input)).toEqual({ paymentId: "pay_R" });
    expect(seen).toMatchObject([
      {
        method: "POST",
        path: "/v1/payments/create/recurring",
        body: {
          email: "m@example.com",
          contact: "+919876543210",
          amount: 120_000,
          currency: "INR",
          order_id: "order_R",
          customer_id: "cust_A",
          token: "token_A",
          recurring: "1",
          description: "April fees",
          notes: { due: "april" },
        },
      },
    ]);
    answer.body = { razorpay_order_id: "order_R" };
    await expect(gateway.createRecurringPayment(input)).rejects.toThrow("without a payment id");
    // Below ₹1 it never leaves the server.
    seen.length = 0;
    await expect(gateway.createRecurringPayment({ ...input, amount: 99 })).rejects.toBeInstanceOf(GatewayError);
    expect(seen).toEqual([]);
  });

  it("cancels a token with DELETE, and turns the gateway's refusals into GatewayErrors with its description", async () => {
    answer.body = { deleted: true };
    await gateway.cancelToken("cust_A", "token_A");
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(["DELETE /v1/customers/cust_A/tokens/token_A"]);
    answer = {
      status: 400,
      body: { error: { code: "BAD_REQUEST_ERROR", description: "The id provided does not exist" } },
    };
    for (const call of [
      gateway.cancelToken("cust_A", "token_X"),
      gateway.fetchToken("cust_A", "token_X"),
      gateway.fetchPayment("pay_X"),
      gateway.createCustomer({ name: "Meera Iyer" }),
    ]) {
      const error = await call.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ status: 400, message: expect.stringContaining("The id provided does not exist") });
    }
  });
});

describe("NoGateway", () => {
  it("refuses every recurring payment call: payments are off", async () => {
    const off = new NoGateway();
    for (const call of [
      off.createCustomer(),
      off.createMandateOrder(),
      off.fetchPayment(),
      off.fetchToken(),
      off.createRecurringPayment(),
      off.cancelToken(),
    ])
      await expect(call).rejects.toThrow("payments are not configured");
  });
});

describe("a call that gets no answer", () => {
  /** A stand-in that answers an order, but drops the connection when the `dropped(n)`-th call on it arrives. */
  async function standIn(dropped: (callOnConnection: number) => boolean) {
    const calls: number[] = [];
    const callsOn = new WeakMap<object, number>();
    const http = createServer((req, res) => {
      const n = (callsOn.get(req.socket) ?? 0) + 1;
      callsOn.set(req.socket, n);
      calls.push(n);
      if (dropped(n)) return void req.socket.destroy();
      req.resume().on("end", () => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ id: `order_${calls.length}`, amount: 50000, currency: "INR", status: "created" }));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const client = new RazorpayGateway({
      keyId: "rzp_test_key",
      keySecret: "key-secret",
      webhookSecret: "webhook-secret",
      apiUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
      checkoutScript: "",
      sandbox: false,
    });
    const close = () => {
      http.closeAllConnections();
      return new Promise<void>((resolve) => http.close(() => resolve()));
    };
    return { client, calls, close };
  }
  const order = { amount: 50000, currency: "INR" as const, receipt: "r-1" };

  it("is sent again on a new connection when the kept-alive one was closed as it went out", async () => {
    const { client, calls, close } = await standIn((n) => n === 2);
    try {
      expect((await client.createOrder(order)).id).toBe("order_1");
      // The second call goes out on the first call's connection, which the other end drops.
      expect((await client.createOrder(order)).id).toBe("order_3");
      expect(calls).toEqual([1, 2, 1]);
    } finally {
      await close();
    }
  });

  it("names the cause when no connection answers, and is not sent again on a fresh one", async () => {
    const { client, calls, close } = await standIn(() => true);
    try {
      await expect(client.createOrder(order)).rejects.toThrow(
        new GatewayError("order creation failed: no answer from the gateway (ECONNRESET)"),
      );
      expect(calls).toEqual([1]);
    } finally {
      await close();
    }
  });
});
