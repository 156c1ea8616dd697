import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../runtime/env.ts";
import { createLogger } from "../../runtime/logger.ts";
import { resolvePaymentConfig, SANDBOX_PATH, type PaymentConfig } from "../config.ts";
import { GatewayError, type MandateMethod } from "../gateway.ts";
import { RazorpayGateway } from "../razorpay.ts";
import { newSandboxAccount, type SandboxAccount } from "./accounts.ts";
import { authorisationText } from "./recurring.ts";
import { sandboxRouter } from "./router.ts";

/**
 * Recurring payments against the sandbox, driven as the server drives Razorpay: through
 * RazorpayGateway (the official SDK over HTTP), with Checkout's calls made as its script makes
 * them and the webhooks the sandbox sends collected as they are delivered.
 */

interface Delivery {
  event: string;
  body: string;
  json: {
    event: string;
    account_id: string;
    payload: {
      payment?: { entity: Record<string, unknown> };
      order?: { entity: Record<string, unknown> };
      token?: {
        entity: Record<string, unknown> & { recurring_details: { status: string; failure_reason: string | null } };
      };
    };
  };
  signature: string;
}

/** The bank's delay: long enough that an e-mandate is still awaiting approval a few calls later. */
const DELAY_MS = 200;
let server: ReturnType<typeof createServer>;
let config: PaymentConfig;
let base: string;
const deliveries: Delivery[] = [];
/** The platform's account and an institute's (each sees only its own customers, orders and tokens). */
let platform: RazorpayGateway;
let institute: RazorpayGateway;
let instituteAccount: SandboxAccount;

beforeAll(async () => {
  let handler: (request: Request) => Response | Promise<Response> = () => new Response("starting", { status: 503 });
  server = createServer(getRequestListener((request) => handler(request), { overrideGlobalObjects: false }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  config = resolvePaymentConfig(parseEnv({ PORT: String(port), HOST: "127.0.0.1", RAZORPAY_SANDBOX: "1" }));
  base = config.apiUrl;
  const app = new Hono();
  app.route(
    SANDBOX_PATH,
    sandboxRouter({
      config,
      logger: createLogger({ LOG_LEVEL: "silent", LOG_FORMAT: "json" }),
      webhookDelayMs: DELAY_MS,
      deliver: async (body, headers) => {
        const json = JSON.parse(body) as Delivery["json"];
        deliveries.push({ event: json.event, body, json, signature: headers["x-razorpay-signature"] });
        return 200;
      },
    }),
  );
  handler = (request) => app.fetch(request);
  platform = new RazorpayGateway(config);
  instituteAccount = newSandboxAccount();
  institute = new RazorpayGateway({ ...config, ...instituteAccount });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const DAY = 86_400_000;
/** 31 March 2027, noon in India: the mandate's end. */
const END = new Date("2027-03-31T06:30:00Z");
let n = 0;
const unique = () => `${Date.now().toString(36)}${++n}`;

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

const basic = (account: { keyId: string; keySecret: string }) => ({
  authorization: `Basic ${Buffer.from(`${account.keyId}:${account.keySecret}`).toString("base64")}`,
});

async function api(method: string, path: string, account = config as { keyId: string; keySecret: string }) {
  const res = await fetch(`${base}${path}`, { method, headers: basic(account) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

/** Deliveries of `event` about `id` (a payment's order, a token), waited for. */
async function delivered(event: string, about: (d: Delivery) => boolean, count = 1): Promise<Delivery[]> {
  let found: Delivery[] = [];
  await expect
    .poll(
      () => {
        found = deliveries.filter((d) => d.event === event && about(d));
        return found.length;
      },
      { timeout: 5_000, interval: 10 },
    )
    .toBe(count);
  return found;
}

const payer = () => ({ name: "Meera Iyer", email: `meera.${unique()}@example.com`, contact: "+919876543210" });

/** A customer and an authorisation order on `gateway`. */
async function mandateOrder(
  gateway: RazorpayGateway,
  method: MandateMethod,
  overrides: { maxAmount?: number; amount?: number } = {},
) {
  const customer = await gateway.createCustomer(payer());
  const order = await gateway.createMandateOrder({
    method,
    customerId: customer.id,
    amount: overrides.amount ?? (method === "upi" ? 100 : 0),
    maxAmount: overrides.maxAmount ?? 150_000,
    expireAt: END,
    receipt: `mandate-${unique()}`,
    notes: { purpose: "fees" },
  });
  return { customer, order };
}

/** Checkout's Pay as the sandbox's script sends it when opened with `recurring: 1`. */
const authorise = (key: string, orderId: string, customerId: string, extra: Record<string, unknown> = {}) =>
  post("/checkout/pay", {
    key,
    order_id: orderId,
    customer_id: customerId,
    recurring: 1,
    email: "",
    contact: "",
    ...extra,
  });

/** A confirmed UPI Autopay token on the platform's account. */
async function upiToken(maxAmount = 150_000) {
  const { customer, order } = await mandateOrder(platform, "upi", { maxAmount });
  const paid = await authorise(config.keyId, order.id, customer.id);
  expect(paid.status).toBe(200);
  const payment = await platform.fetchPayment(paid.json.razorpay_payment_id);
  return { customerId: customer.id, tokenId: payment.tokenId!, authorisationOrder: order.id };
}

/**
 * Resolves once every webhook the sandbox has scheduled so far was delivered: a marker token's
 * cancellation, scheduled now with the same delay, arrives after them (timers of one delay fire
 * in the order they were set), so a test may then say that something was never sent.
 */
async function allDelivered(): Promise<void> {
  const marker = await upiToken();
  await platform.cancelToken(marker.customerId, marker.tokenId);
  await delivered("token.cancelled", (d) => d.json.payload.token?.entity.id === marker.tokenId);
}

async function debit(token: { customerId: string; tokenId: string }, amount: number) {
  const order = await platform.createOrder({ amount, currency: "INR", receipt: `debit-${unique()}` });
  const { paymentId } = await platform.createRecurringPayment({
    orderId: order.id,
    customerId: token.customerId,
    tokenId: token.tokenId,
    amount,
    email: "meera@example.com",
    contact: "+919876543210",
    description: "April fees",
    notes: { due: "april" },
  });
  return { orderId: order.id, paymentId };
}

async function refusal(call: Promise<unknown>): Promise<GatewayError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe("customers", () => {
  it("gives back the same customer for the same payer (fail_existing 0), another for another payer or account", async () => {
    const details = payer();
    const first = await platform.createCustomer(details);
    expect(first.id).toMatch(/^cust_[A-Za-z0-9]{14}$/);
    expect(await platform.createCustomer(details)).toEqual(first);
    expect((await platform.createCustomer({ ...details, contact: "+919812345678" })).id).not.toBe(first.id);
    const elsewhere = await institute.createCustomer(details);
    expect(elsewhere.id).not.toBe(first.id);
    // Without fail_existing "0" Razorpay refuses the duplicate instead.
    const res = await fetch(`${base}/v1/customers`, {
      method: "POST",
      headers: { ...basic(config), "content-type": "application/json" },
      body: JSON.stringify(details),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { description: "Customer already exists for the merchant" } });
    // Another account's customer is as unknown as a made-up one.
    expect((await api("GET", `/v1/customers/${elsewhere.id}`)).status).toBe(400);
  });
});

describe("authorisation orders", () => {
  it("are checked before they reach the gateway: UPI's at least 100, an e-mandate's 0, a ceiling of 100 and an end ahead", async () => {
    const base = { customerId: "cust_x", maxAmount: 150_000, expireAt: END, receipt: "r" };
    for (const input of [
      { ...base, method: "upi" as const, amount: 99 },
      { ...base, method: "emandate" as const, amount: 100 },
      { ...base, method: "upi" as const, amount: 100, maxAmount: 99 },
      { ...base, method: "upi" as const, amount: 100, expireAt: new Date(Date.now() - DAY) },
    ])
      expect((await refusal(platform.createMandateOrder(input))).status).toBeUndefined();
  });

  it("are refused by the sandbox as by Razorpay: a customer of another account, a UPI ceiling above ₹1,00,000", async () => {
    const { id } = await institute.createCustomer(payer());
    const foreign = await refusal(
      platform.createMandateOrder({
        method: "upi",
        customerId: id,
        amount: 100,
        maxAmount: 1000,
        expireAt: END,
        receipt: "r",
      }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.message).toContain("The id provided does not exist");
    const own = await platform.createCustomer(payer());
    const high = await refusal(
      platform.createMandateOrder({
        method: "upi",
        customerId: own.id,
        amount: 100,
        maxAmount: 10_000_001,
        expireAt: END,
        receipt: "r",
      }),
    );
    expect(high.status).toBe(400);
    expect(high.message).toContain("token.max_amount must be between 100 and 10000000");
  });

  it("are orders like any other (GET /v1/orders/:id) that carry the customer, the method and the token's terms", async () => {
    const { customer, order } = await mandateOrder(platform, "upi");
    expect(order).toMatchObject({ amount: 100, currency: "INR", status: "created" });
    const fetched = await api("GET", `/v1/orders/${order.id}`);
    expect(fetched.json).toMatchObject({
      id: order.id,
      amount: 100,
      customer_id: customer.id,
      method: "upi",
      token: { method: "upi", max_amount: 150_000, expire_at: Math.floor(END.getTime() / 1000), frequency: "monthly" },
    });
    const emandate = await mandateOrder(platform, "emandate");
    expect((await api("GET", `/v1/orders/${emandate.order.id}`)).json).toMatchObject({
      amount: 0,
      method: "emandate",
      token: { auth_type: "netbanking", max_amount: 150_000 },
    });
  });
});

describe("Checkout authorising a mandate", () => {
  it("says what a UPI Autopay and a bank e-mandate authorise", async () => {
    const upi = await mandateOrder(platform, "upi", { maxAmount: 150_000 });
    const described = await post("/checkout/describe", { key: config.keyId, order_id: upi.order.id });
    expect(described.json).toMatchObject({
      order_id: upi.order.id,
      amount: 100,
      recurring: { method: "upi", customer_id: upi.customer.id, max_amount: 150_000 },
    });
    expect(described.json.recurring.text).toBe("Authorise UPI Autopay: up to ₹1,500 a month until 31 March 2027");
    const emandate = await mandateOrder(institute, "emandate", { maxAmount: 250_050 });
    expect(
      (await post("/checkout/describe", { key: instituteAccount.keyId, order_id: emandate.order.id })).json,
    ).toMatchObject({
      recurring: { text: "Authorise a bank e-mandate (NACH): up to ₹2,500.50 a debit until 31 March 2027" },
    });
    // An ordinary order authorises nothing; another account's key learns nothing about the order.
    const plain = await platform.createOrder({ amount: 50_000, currency: "INR", receipt: "plain" });
    expect((await post("/checkout/describe", { key: config.keyId, order_id: plain.id })).json.recurring).toBeNull();
    expect((await post("/checkout/describe", { key: instituteAccount.keyId, order_id: upi.order.id })).status).toBe(
      400,
    );
    expect(
      authorisationText({ method: "upi", max_amount: 100_000, expire_at: 1_830_000_000, frequency: "as_presented" }),
    ).toMatch(/^Authorise UPI Autopay: up to ₹1,000 a debit until /);
  });

  it("authorises UPI Autopay: a captured payment with a confirmed token, a signed result and the usual webhooks", async () => {
    const { customer, order } = await mandateOrder(platform, "upi");
    // Opened as a one-time payment, or for another customer, the order is not paid.
    expect((await post("/checkout/pay", { key: config.keyId, order_id: order.id })).status).toBe(400);
    expect((await authorise(config.keyId, order.id, "cust_someoneElse1")).json.error.description).toBe(
      "The customer_id does not match the order's customer",
    );
    const paid = await authorise(config.keyId, order.id, customer.id);
    expect(paid.status).toBe(200);
    const result = {
      orderId: paid.json.razorpay_order_id,
      paymentId: paid.json.razorpay_payment_id,
      signature: paid.json.razorpay_signature,
    };
    expect(result.orderId).toBe(order.id);
    expect(platform.verifyCheckout(result)).toBe(true);
    expect(institute.verifyCheckout(result)).toBe(false);

    const payment = await platform.fetchPayment(result.paymentId);
    expect(payment).toMatchObject({
      id: result.paymentId,
      orderId: order.id,
      amount: 100,
      status: "captured",
      method: "upi",
      customerId: customer.id,
    });
    expect(payment.tokenId).toMatch(/^token_[A-Za-z0-9]{14}$/);
    expect((await api("GET", `/v1/payments/${result.paymentId}`)).json).toMatchObject({ recurring: true });
    expect(await platform.fetchToken(customer.id, payment.tokenId!)).toEqual({
      id: payment.tokenId,
      method: "upi",
      status: "confirmed",
      maxAmount: 150_000,
      expireAt: new Date(Math.floor(END.getTime() / 1000) * 1000),
    });
    const listed = await api("GET", `/v1/customers/${customer.id}/tokens`);
    expect(listed.json).toMatchObject({ entity: "collection", count: 1, items: [{ id: payment.tokenId }] });

    const byOrder = (d: Delivery) => d.json.payload.payment?.entity.order_id === order.id;
    const [captured] = await delivered("payment.captured", byOrder);
    await delivered("order.paid", byOrder);
    const [confirmed] = await delivered("token.confirmed", (d) => d.json.payload.token?.entity.id === payment.tokenId);
    expect(captured.json.payload.payment!.entity).toMatchObject({ token_id: payment.tokenId, method: "upi" });
    expect(confirmed.json.payload.token!.entity).toMatchObject({
      entity: "token",
      customer_id: customer.id,
      method: "upi",
      max_amount: 150_000,
      expired_at: Math.floor(END.getTime() / 1000),
      recurring_details: { status: "confirmed", failure_reason: null },
    });
    for (const d of [captured, confirmed]) expect(platform.verifyWebhook(d.body, d.signature)).toBe(true);
    // Paid once: a second authorisation of the same order is refused.
    expect((await authorise(config.keyId, order.id, customer.id)).json.error.description).toBe(
      "This order has already been paid",
    );
  });

  it("authorises an e-mandate for 0: the token is initiated, then the bank confirms it with token.confirmed", async () => {
    const { customer, order } = await mandateOrder(institute, "emandate");
    const paid = await authorise(instituteAccount.keyId, order.id, customer.id);
    expect(paid.status).toBe(200);
    expect(
      institute.verifyCheckout({
        orderId: order.id,
        paymentId: paid.json.razorpay_payment_id,
        signature: paid.json.razorpay_signature,
      }),
    ).toBe(true);
    const payment = await institute.fetchPayment(paid.json.razorpay_payment_id);
    expect(payment).toMatchObject({ amount: 0, method: "emandate", status: "captured", customerId: customer.id });
    expect((await institute.fetchToken(customer.id, payment.tokenId!)).status).toBe("initiated");
    const [confirmed] = await delivered("token.confirmed", (d) => d.json.payload.token?.entity.id === payment.tokenId);
    expect(confirmed.json.payload.token!.entity).toMatchObject({
      method: "emandate",
      auth_type: "netbanking",
      recurring_details: { status: "confirmed" },
    });
    expect(institute.verifyWebhook(confirmed.body, confirmed.signature)).toBe(true);
    expect(platform.verifyWebhook(confirmed.body, confirmed.signature)).toBe(false);
    expect((await institute.fetchToken(customer.id, payment.tokenId!)).status).toBe("confirmed");
    // The platform's account does not see the institute's token.
    const foreign = await refusal(platform.fetchToken(customer.id, payment.tokenId!));
    expect(foreign.status).toBe(400);
  });

  it("a bank rejecting an e-mandate awaiting approval rejects its token with token.rejected", async () => {
    const { customer, order } = await mandateOrder(platform, "emandate");
    const paid = await authorise(config.keyId, order.id, customer.id);
    const { tokenId } = await platform.fetchPayment(paid.json.razorpay_payment_id);
    const rejected = await post(`/tokens/${tokenId}/reject`, {});
    expect(rejected.json).toMatchObject({ recurring_details: { status: "rejected" } });
    const [event] = await delivered("token.rejected", (d) => d.json.payload.token?.entity.id === tokenId);
    expect(event.json.payload.token!.entity.recurring_details).toEqual({
      status: "rejected",
      failure_reason: "Mandate registration rejected by the bank",
    });
    await allDelivered();
    expect((await platform.fetchToken(customer.id, tokenId!)).status).toBe("rejected");
    expect(
      deliveries.filter((d) => d.event === "token.confirmed" && d.json.payload.token?.entity.id === tokenId),
    ).toEqual([]);
  });

  it("a failed authorisation leaves no token, and says so with payment.failed", async () => {
    const { customer, order } = await mandateOrder(platform, "upi");
    const failed = await post("/checkout/fail", {
      key: config.keyId,
      order_id: order.id,
      customer_id: customer.id,
      recurring: 1,
    });
    expect(failed.status).toBe(400);
    const [event] = await delivered("payment.failed", (d) => d.json.payload.payment?.entity.order_id === order.id);
    expect(event.json.payload.payment!.entity).toMatchObject({ method: "upi", customer_id: customer.id });
    expect((await api("GET", `/v1/customers/${customer.id}/tokens`)).json).toMatchObject({ count: 0, items: [] });
  });
});

describe("recurring debits", () => {
  it("are answered at once and captured a moment later, with payment.captured and order.paid", async () => {
    const token = await upiToken();
    const { orderId, paymentId } = await debit(token, 120_000);
    expect(paymentId).toMatch(/^pay_/);
    expect((await platform.fetchPayment(paymentId)).status).toBe("created");
    const byOrder = (d: Delivery) => d.json.payload.payment?.entity.order_id === orderId;
    const [captured] = await delivered("payment.captured", byOrder);
    const [paid] = await delivered("order.paid", byOrder);
    expect(captured.json.payload.payment!.entity).toMatchObject({
      id: paymentId,
      amount: 120_000,
      status: "captured",
      token_id: token.tokenId,
      customer_id: token.customerId,
      recurring: true,
      method: "upi",
    });
    expect(paid.json.payload.order!.entity).toMatchObject({ id: orderId, status: "paid", amount_paid: 120_000 });
    expect(platform.verifyWebhook(paid.body, paid.signature)).toBe(true);
    expect(await platform.fetchPayment(paymentId)).toMatchObject({ status: "captured", tokenId: token.tokenId });
    expect((await api("GET", `/v1/orders/${orderId}`)).json.status).toBe("paid");
  });

  it("the debit the payer's bank was told to decline fails with payment.failed; the next one goes through", async () => {
    const token = await upiToken();
    expect((await post(`/tokens/${token.tokenId}/decline-next`, {})).status).toBe(200);
    const declined = await debit(token, 120_000);
    const [failed] = await delivered("payment.failed", (d) => d.json.payload.payment?.entity.id === declined.paymentId);
    expect(failed.json.payload.payment!.entity).toMatchObject({
      status: "failed",
      error_description: "Payment failed due to insufficient balance",
      token_id: token.tokenId,
    });
    expect((await platform.fetchPayment(declined.paymentId)).status).toBe("failed");
    expect(
      deliveries.some((d) => d.event === "order.paid" && d.json.payload.order?.entity.id === declined.orderId),
    ).toBe(false);
    const next = await debit(token, 120_000);
    await delivered("payment.captured", (d) => d.json.payload.payment?.entity.id === next.paymentId);
  });

  it("are refused above the mandate's maximum, on a token not confirmed or not the customer's, or off the order", async () => {
    const token = await upiToken(100_000);
    const above = await refusal(debit(token, 100_001));
    expect(above.status).toBe(400);
    expect(above.message).toContain("more than the maximum amount allowed by the mandate");

    const order = await platform.createOrder({ amount: 50_000, currency: "INR", receipt: `debit-${unique()}` });
    const charge = (overrides: Partial<Parameters<RazorpayGateway["createRecurringPayment"]>[0]>) =>
      refusal(
        platform.createRecurringPayment({
          orderId: order.id,
          customerId: token.customerId,
          tokenId: token.tokenId,
          amount: 50_000,
          email: "meera@example.com",
          contact: "+919876543210",
          description: "fees",
          ...overrides,
        }),
      );
    expect((await charge({ amount: 40_000 })).message).toContain("the same as the order's amount");
    expect((await charge({ orderId: "order_madeUpMadeUp12" })).message).toContain("The id provided does not exist");
    expect((await charge({ orderId: token.authorisationOrder, amount: 100 })).message).toContain(
      "An authorisation order cannot be charged",
    );
    const other = await upiToken();
    expect((await charge({ tokenId: other.tokenId })).message).toContain("does not exist for this customer");
    expect((await charge({ amount: 50 })).status).toBeUndefined();

    // An e-mandate before the bank approves it cannot be charged.
    const pending = await mandateOrder(platform, "emandate");
    const paid = await authorise(config.keyId, pending.order.id, pending.customer.id);
    const { tokenId } = await platform.fetchPayment(paid.json.razorpay_payment_id);
    expect((await charge({ customerId: pending.customer.id, tokenId: tokenId! })).message).toContain(
      "The token is initiated; only a confirmed token can be charged",
    );
    // Nothing refused was presented: the order can still be charged.
    const { paymentId } = await platform.createRecurringPayment({
      orderId: order.id,
      customerId: token.customerId,
      tokenId: token.tokenId,
      amount: 50_000,
      email: "meera@example.com",
      contact: "+919876543210",
      description: "fees",
    });
    await delivered("payment.captured", (d) => d.json.payload.payment?.entity.id === paymentId);
  });
});

describe("ending a mandate", () => {
  it("cancelled by the merchant: the token is cancelled, token.cancelled is sent and no debit is taken", async () => {
    const token = await upiToken();
    await platform.cancelToken(token.customerId, token.tokenId);
    expect((await platform.fetchToken(token.customerId, token.tokenId)).status).toBe("cancelled");
    const [event] = await delivered("token.cancelled", (d) => d.json.payload.token?.entity.id === token.tokenId);
    expect(event.json.payload.token!.entity).toMatchObject({
      customer_id: token.customerId,
      recurring_details: { status: "cancelled" },
    });
    expect(platform.verifyWebhook(event.body, event.signature)).toBe(true);
    expect((await refusal(debit(token, 10_000))).message).toContain("The token is cancelled");
    // Cancelling again changes nothing and announces nothing more.
    await platform.cancelToken(token.customerId, token.tokenId);
    await allDelivered();
    await delivered("token.cancelled", (d) => d.json.payload.token?.entity.id === token.tokenId, 1);
  });

  it("revoked by the payer in their UPI app: token.cancelled, and a debit already presented fails", async () => {
    const token = await upiToken();
    const presented = await debit(token, 20_000);
    const revoked = await post(`/tokens/${token.tokenId}/revoke`, {});
    expect(revoked.json).toMatchObject({
      recurring_details: { status: "cancelled", failure_reason: "Mandate revoked by the customer" },
    });
    await delivered("token.cancelled", (d) => d.json.payload.token?.entity.id === token.tokenId);
    const [failed] = await delivered(
      "payment.failed",
      (d) => d.json.payload.payment?.entity.id === presented.paymentId,
    );
    expect(failed.json.payload.payment!.entity.error_description).toContain("mandate was cancelled");
    expect((await post(`/tokens/${token.tokenId}/revoke`, {})).status).toBe(400);
  });
});

describe("unknown ids", () => {
  it("are Razorpay's 400 for the API and a 404 for the dashboard, with Razorpay's error shape", async () => {
    for (const path of [
      "/v1/customers/cust_madeUpMadeUp12/tokens",
      "/v1/customers/cust_madeUpMadeUp12/tokens/token_madeUpMadeUp1",
      "/v1/payments/pay_madeUpMadeUp123",
    ]) {
      const res = await api("GET", path);
      expect(res.status, path).toBe(400);
      expect(res.json.error).toMatchObject({
        code: "BAD_REQUEST_ERROR",
        description: "The id provided does not exist",
      });
    }
    const customer = await platform.createCustomer(payer());
    expect((await refusal(platform.cancelToken(customer.id, "token_madeUpMadeUp1"))).status).toBe(400);
    for (const hook of ["decline-next", "revoke", "reject"]) {
      const res = await post(`/tokens/token_madeUpMadeUp1/${hook}`, {});
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe("BAD_REQUEST_ERROR");
    }
    expect(
      (await api("GET", `/v1/customers/${customer.id}/tokens`, { keyId: "rzp_test_x", keySecret: "x" })).status,
    ).toBe(401);
  });
});
