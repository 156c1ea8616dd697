import type { Context, Hono } from "hono";
import { LRUCache } from "lru-cache";
import { checkoutSignature } from "../signatures.ts";
import type { SandboxAccount } from "./accounts.ts";
import { sandboxId } from "./ids.ts";
import type { PaymentEntity, SandboxOrder, SandboxOrderToken } from "./entities.ts";

/**
 * The sandbox's recurring payments (Razorpay's UPI Autopay and e-mandates), per merchant account:
 * customers (`/v1/customers`, the same payer's details giving back the same customer with
 * `fail_existing: "0"`), authorisation orders (an order with `customer_id`, `method` and `token`,
 * made through the router's `/v1/orders` and validated here), Checkout's authorisation of such an
 * order (the payer's standing instruction becomes a token: confirmed at once for UPI, initiated for
 * an e-mandate until the "bank" approves it a moment later), tokens fetched and cancelled, and
 * debits on a confirmed token (`/v1/payments/create/recurring`), answered at once and settled a
 * moment later (the pre-debit notice's day, shortened): captured, or failed when the payer's bank
 * was told to decline it. The sandbox dashboard stands for what happens on the payer's side:
 * `/tokens/{id}/decline-next` (the next debit bounces), `/tokens/{id}/revoke` (the payer revokes
 * the mandate in their UPI app or bank) and `/tokens/{id}/reject` (the bank rejects an e-mandate
 * still awaiting approval). Every change of a token is announced with its `token.*` webhook,
 * signed as the account's other webhooks are.
 */

type WebhookEvent = { event: string; contains: string[]; payload: unknown };
type TokenStatus = "initiated" | "confirmed" | "rejected" | "cancelled";

interface SandboxCustomer {
  id: string;
  entity: "customer";
  name: string;
  email: string | null;
  contact: string | null;
  gstin: null;
  notes: Record<string, string>;
  created_at: number;
}

interface SandboxToken {
  id: string;
  /** The account it was made on, and the one whose secrets sign its webhooks. */
  keyId: string;
  signer: SandboxAccount;
  customerId: string;
  method: "upi" | "emandate";
  maxAmount: number;
  expiredAt: number;
  frequency: string | null;
  authType: string | null;
  status: TokenStatus;
  failureReason: string | null;
  /** The payer's bank declines the next debit (the dashboard's test hook). */
  declineNext: boolean;
  createdAt: number;
  usedAt: number | null;
}

export interface SandboxRecurringDeps {
  /** The account an API call is authorised for, and the one whose secrets sign its webhooks. */
  authorised(c: Context): { account: SandboxAccount; signer: SandboxAccount } | undefined;
  /** One of the account's orders (another account's is as unknown as a made-up id). */
  order(keyId: string, orderId: string): SandboxOrder | undefined;
  /** Who signs an order's Checkout results and webhooks (the partner, for an order made by OAuth). */
  signerOf(order: SandboxOrder): SandboxAccount;
  /** The order Checkout was opened for with this key, and the account that signs it, if they match. */
  checkout(key: string, orderId: string): { order: SandboxOrder; account: SandboxAccount } | undefined;
  /** Records a payment of the account (fetchable, refundable once captured); its entity, which stays live. */
  record(
    keyId: string,
    order: SandboxOrder,
    status: "created" | "captured",
    who: { email: string; contact: string },
    extra: Record<string, unknown>,
  ): PaymentEntity;
  /** Sends signed webhooks about the account, as Razorpay does, `delayMs` later (the usual delay by default). */
  announce(signer: SandboxAccount, events: WebhookEvent[], delayMs?: number): void;
  /** How long the "bank" takes: an e-mandate's approval, a debit after its pre-debit notice. */
  delayMs: number;
}

/** What Checkout's Pay sends for an authorisation order. */
export interface AuthorisationRequest {
  recurring: boolean;
  customerId: string;
  email: string;
  contact: string;
}

export interface SandboxRecurring {
  /**
   * The mandate terms of an order being made (`customer_id`, `method`, `token`), checked as
   * Razorpay does: undefined for an ordinary order (no `token`), else the terms or what is wrong.
   */
  orderTerms(
    keyId: string,
    body: Record<string, unknown>,
  ): undefined | { error: string; field: string } | { terms: Pick<SandboxOrder, "customer_id" | "method" | "token"> };
  /** Checkout's Pay on an authorisation order: the payment and its token, or the refusal. */
  authorise(c: Context, account: SandboxAccount, order: SandboxOrder, request: AuthorisationRequest): Response;
}

const now = () => Math.floor(Date.now() / 1000);
/** UPI Autopay's ceiling per debit (₹1,00,000, for fees among the categories NPCI allows it). */
const UPI_MAX_AMOUNT = 10_000_000;
/** An e-mandate's ceiling per debit in Razorpay's documentation (₹10,00,000). */
const EMANDATE_MAX_AMOUNT = 100_000_000;
const INSUFFICIENT_BALANCE = "Payment failed due to insufficient balance";

const apiError = (c: Context, status: 400 | 401 | 404, description: string, field?: string) =>
  c.json({ error: { code: "BAD_REQUEST_ERROR", description, source: "business", field: field ?? null } }, status);

const text = (value: unknown, max: number) =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;

const notesOf = (value: unknown): Record<string, string> =>
  value && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]))
    : {};

/** Razorpay takes 1, "1" and true for its recurring flags. */
export const isOn = (value: unknown) => value === 1 || value === "1" || value === true;

export function mountSandboxRecurring(app: Hono, deps: SandboxRecurringDeps): SandboxRecurring {
  const customers = new LRUCache<string, { customer: SandboxCustomer; keyId: string }>({ max: 20_000 });
  /** The account's customer with an email and contact (its key id, email and contact, as JSON). */
  const byDetails = new LRUCache<string, string>({ max: 20_000 });
  const tokens = new LRUCache<string, SandboxToken>({ max: 20_000 });
  /** Orders with a debit presented and not yet settled: one at a time per order. */
  const pending = new LRUCache<string, true>({ max: 20_000 });

  const customerOf = (keyId: string, id: string) => {
    const held = customers.get(id);
    return held?.keyId === keyId ? held.customer : undefined;
  };

  const tokenView = (t: SandboxToken) => ({
    id: t.id,
    entity: "token",
    token: t.id.slice("token_".length),
    bank: t.method === "emandate" ? "HDFC" : null,
    wallet: null,
    method: t.method,
    vpa: t.method === "upi" ? { username: "sandbox.payer", handle: "upi", name: null } : undefined,
    bank_details:
      t.method === "emandate"
        ? {
            beneficiary_name: "Sandbox Payer",
            account_number: "XXXXXXXX1234",
            ifsc: "HDFC0000001",
            account_type: "savings",
          }
        : undefined,
    recurring: true,
    recurring_details: { status: t.status, failure_reason: t.failureReason },
    auth_type: t.authType,
    mrn: null,
    used_at: t.usedAt,
    created_at: t.createdAt,
    start_time: t.createdAt,
    expired_at: t.expiredAt,
    dcc_enabled: false,
    max_amount: t.maxAmount,
    frequency: t.frequency,
    customer_id: t.customerId,
    notes: [],
  });

  const tokenEvent = (t: SandboxToken, status: TokenStatus): WebhookEvent => ({
    event: `token.${status}`,
    contains: ["token"],
    payload: { token: { entity: tokenView(t) } },
  });

  /** A token's new state, announced by its webhook (now, for a state reached after a delay). */
  const change = (t: SandboxToken, status: TokenStatus, failureReason: string | null, delayMs?: number) => {
    t.status = status;
    t.failureReason = failureReason;
    deps.announce(t.signer, [tokenEvent(t, status)], delayMs);
  };

  // Customers: `fail_existing: "0"` gives back the account's customer with the same email and
  // contact (Razorpay's duplicate check), else such a duplicate is refused as Razorpay refuses it.
  app.post("/v1/customers", async (c) => {
    const caller = deps.authorised(c);
    if (!caller) return apiError(c, 401, "Authentication failed");
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body || typeof body !== "object") return apiError(c, 400, "The request body must be JSON");
    const name = text(body.name, 100);
    if (!name || name.length < 3 || name.length > 50)
      return apiError(c, 400, "The name must be between 3 and 50 characters", "name");
    const email = text(body.email, 100);
    if (email && (email.length > 64 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)))
      return apiError(c, 400, "The email must be valid.", "email");
    const contact = body.contact === undefined || body.contact === null ? null : String(body.contact).trim() || null;
    if (contact && !/^\+?[0-9 -]{8,15}$/.test(contact))
      return apiError(c, 400, "The contact must be between 8 and 15 digits", "contact");
    const keyId = caller.account.keyId;
    const details = email || contact ? JSON.stringify([keyId, email, contact]) : null;
    const existing = details ? customers.get(byDetails.get(details) ?? "") : undefined;
    if (existing) {
      const fail =
        body.fail_existing === undefined
          ? true
          : !(body.fail_existing === "0" || body.fail_existing === 0 || body.fail_existing === false);
      return fail
        ? apiError(c, 400, "Customer already exists for the merchant", "fail_existing")
        : c.json(existing.customer);
    }
    const customer: SandboxCustomer = {
      id: sandboxId("cust"),
      entity: "customer",
      name,
      email,
      contact,
      gstin: null,
      notes: notesOf(body.notes),
      created_at: now(),
    };
    customers.set(customer.id, { customer, keyId });
    if (details) byDetails.set(details, customer.id);
    return c.json(customer);
  });

  app.get("/v1/customers/:id", (c) => {
    const caller = deps.authorised(c);
    if (!caller) return apiError(c, 401, "Authentication failed");
    const customer = customerOf(caller.account.keyId, c.req.param("id"));
    return customer ? c.json(customer) : apiError(c, 400, "The id provided does not exist");
  });

  /** The account's token on that customer, if both are the caller's. */
  const tokenOf = (c: Context, keyId: string) => {
    const customer = customerOf(keyId, c.req.param("customer") ?? "");
    const token = tokens.get(c.req.param("token") ?? "");
    return customer && token?.keyId === keyId && token.customerId === customer.id ? token : undefined;
  };

  app.get("/v1/customers/:customer/tokens", (c) => {
    const caller = deps.authorised(c);
    if (!caller) return apiError(c, 401, "Authentication failed");
    const customer = customerOf(caller.account.keyId, c.req.param("customer"));
    if (!customer) return apiError(c, 400, "The id provided does not exist");
    const items = [...tokens.values()]
      .filter((t) => t.keyId === caller.account.keyId && t.customerId === customer.id)
      .map(tokenView);
    return c.json({ entity: "collection", count: items.length, items });
  });

  app.get("/v1/customers/:customer/tokens/:token", (c) => {
    const caller = deps.authorised(c);
    if (!caller) return apiError(c, 401, "Authentication failed");
    const token = tokenOf(c, caller.account.keyId);
    return token ? c.json(tokenView(token)) : apiError(c, 400, "The id provided does not exist");
  });

  // The merchant ends the mandate. A token already ended stays as it is (a retried cancellation
  // is answered the same and announces nothing twice).
  app.delete("/v1/customers/:customer/tokens/:token", (c) => {
    const caller = deps.authorised(c);
    if (!caller) return apiError(c, 401, "Authentication failed");
    const token = tokenOf(c, caller.account.keyId);
    if (!token) return apiError(c, 400, "The id provided does not exist");
    if (token.status === "initiated" || token.status === "confirmed") change(token, "cancelled", null);
    return c.json({ deleted: true });
  });

  app.post("/v1/payments/create/recurring", async (c) => {
    const caller = deps.authorised(c);
    if (!caller) return apiError(c, 401, "Authentication failed");
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body || typeof body !== "object") return apiError(c, 400, "The request body must be JSON");
    const keyId = caller.account.keyId;
    if (!isOn(body.recurring)) return apiError(c, 400, "The recurring field must be 1", "recurring");
    if (String(body.currency ?? "INR") !== "INR") return apiError(c, 400, "Currency is not supported", "currency");
    const order = deps.order(keyId, String(body.order_id ?? ""));
    if (!order) return apiError(c, 400, "The id provided does not exist", "order_id");
    if (order.token) return apiError(c, 400, "An authorisation order cannot be charged on a token", "order_id");
    if (order.status === "paid") return apiError(c, 400, "Order has already been paid", "order_id");
    if (pending.has(order.id))
      return apiError(c, 400, "A payment for this order is already being processed", "order_id");
    const amount = Number(body.amount);
    if (amount !== order.amount) return apiError(c, 400, "The amount must be the same as the order's amount", "amount");
    const customer = customerOf(keyId, String(body.customer_id ?? ""));
    if (!customer) return apiError(c, 400, "The id provided does not exist", "customer_id");
    const token = tokens.get(String(body.token ?? ""));
    if (!token || token.keyId !== keyId || token.customerId !== customer.id)
      return apiError(c, 400, "The token provided does not exist for this customer", "token");
    if (token.status !== "confirmed")
      return apiError(c, 400, `The token is ${token.status}; only a confirmed token can be charged`, "token");
    if (token.expiredAt <= now()) return apiError(c, 400, "The token has expired", "token");
    if (amount > token.maxAmount)
      return apiError(c, 400, "The amount is more than the maximum amount allowed by the mandate", "amount");
    const email = text(body.email, 254) ?? customer.email ?? "";
    const contact = text(body.contact, 20) ?? customer.contact ?? "";
    const signer = deps.signerOf(order);
    order.attempts += 1;
    order.status = "attempted";
    const payment = deps.record(
      keyId,
      order,
      "created",
      { email, contact },
      {
        method: token.method,
        token_id: token.id,
        customer_id: customer.id,
        recurring: true,
        recurring_type: "auto",
        description: text(body.description, 255) ?? "Recurring payment",
        notes: notesOf(body.notes),
        ...(token.method === "upi" ? { vpa: "sandbox.payer@upi" } : { bank: "HDFC" }),
      },
    );
    pending.set(order.id, true);
    // The debit itself happens after the payer's pre-debit notice: here, after the bank's delay.
    const timer = setTimeout(() => {
      pending.delete(order.id);
      token.usedAt = now();
      const failure = token.declineNext
        ? INSUFFICIENT_BALANCE
        : token.status !== "confirmed"
          ? `Payment failed because the mandate was ${token.status} before the debit`
          : null;
      token.declineNext = false;
      if (failure) {
        Object.assign(payment, {
          status: "failed",
          captured: false,
          error_code: "BAD_REQUEST_ERROR",
          error_description: failure,
          error_source: "customer",
          error_step: "payment_authorization",
          error_reason: failure === INSUFFICIENT_BALANCE ? "insufficient_funds" : "payment_mandate_not_active",
        });
        deps.announce(
          signer,
          [{ event: "payment.failed", contains: ["payment"], payload: { payment: { entity: { ...payment } } } }],
          0,
        );
        return;
      }
      Object.assign(payment, { status: "captured", captured: true });
      order.status = "paid";
      order.amount_paid = order.amount;
      order.amount_due = 0;
      deps.announce(signer, paidEvents(payment, order), 0);
    }, deps.delayMs);
    timer.unref();
    return c.json({
      razorpay_payment_id: payment.id,
      razorpay_order_id: order.id,
      razorpay_signature: checkoutSignature(signer.keySecret, order.id, payment.id),
    });
  });

  // What Checkout's page says it is authorising (the sandbox's Checkout asks before drawing it).
  app.post("/checkout/describe", async (c) => {
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const found = deps.checkout(String(body?.key ?? ""), String(body?.order_id ?? ""));
    if (!found) return apiError(c, 400, "This order does not exist or has expired");
    const { order } = found;
    return c.json({
      order_id: order.id,
      amount: order.amount,
      currency: order.currency,
      recurring:
        order.token && order.method && order.customer_id
          ? {
              method: order.method,
              customer_id: order.customer_id,
              max_amount: order.token.max_amount,
              expire_at: order.token.expire_at,
              frequency: order.token.frequency ?? null,
              text: authorisationText(order.token),
            }
          : null,
    });
  });

  /** A dashboard hook's token (the sandbox's own pages: no key, as for /accounts/new). */
  const dashboardToken = (c: Context) => tokens.get(c.req.param("id") ?? "");

  app.post("/tokens/:id/decline-next", (c) => {
    const token = dashboardToken(c);
    if (!token) return apiError(c, 404, "The id provided does not exist");
    token.declineNext = true;
    return c.json({ ...tokenView(token), decline_next: true });
  });

  app.post("/tokens/:id/revoke", (c) => {
    const token = dashboardToken(c);
    if (!token) return apiError(c, 404, "The id provided does not exist");
    if (token.status !== "initiated" && token.status !== "confirmed")
      return apiError(c, 400, `The mandate is already ${token.status}`);
    change(token, "cancelled", "Mandate revoked by the customer");
    return c.json(tokenView(token));
  });

  app.post("/tokens/:id/reject", (c) => {
    const token = dashboardToken(c);
    if (!token) return apiError(c, 404, "The id provided does not exist");
    if (token.status !== "initiated") return apiError(c, 400, `The mandate is ${token.status}, not awaiting the bank`);
    change(token, "rejected", "Mandate registration rejected by the bank");
    return c.json(tokenView(token));
  });

  return {
    orderTerms(keyId, body) {
      if (body.token === undefined || body.token === null) return undefined;
      const spec = body.token;
      if (typeof spec !== "object" || Array.isArray(spec)) return { error: "token must be an object", field: "token" };
      const token = spec as Record<string, unknown>;
      const customerId = String(body.customer_id ?? "");
      if (!customerId) return { error: "The customer_id field is required for a token", field: "customer_id" };
      if (!customerOf(keyId, customerId)) return { error: "The id provided does not exist", field: "customer_id" };
      const method = body.method;
      if (method !== "upi" && method !== "emandate")
        return { error: "method must be upi or emandate for a recurring order in the sandbox", field: "method" };
      const amount = Number(body.amount);
      if (method === "upi" && (!Number.isInteger(amount) || amount < 100))
        return { error: "The amount must be atleast INR 1.00", field: "amount" };
      if (method === "emandate" && amount !== 0)
        return { error: "The amount must be 0 for an emandate authorisation", field: "amount" };
      const ceiling = method === "upi" ? UPI_MAX_AMOUNT : EMANDATE_MAX_AMOUNT;
      const maxAmount = Number(token.max_amount);
      if (!Number.isInteger(maxAmount) || maxAmount < 100 || maxAmount > ceiling)
        return {
          error: `token.max_amount must be between 100 and ${ceiling}`,
          field: "token.max_amount",
        };
      if (method === "upi" && maxAmount < amount)
        return { error: "token.max_amount must not be less than the amount", field: "token.max_amount" };
      const expireAt = Number(token.expire_at);
      if (!Number.isInteger(expireAt) || expireAt <= now())
        return { error: "token.expire_at must be a time in the future", field: "token.expire_at" };
      const frequency = token.frequency === undefined ? null : String(token.frequency);
      if (method === "upi" && frequency !== "monthly" && frequency !== "as_presented")
        return { error: "token.frequency must be monthly or as_presented", field: "token.frequency" };
      const authType = token.auth_type === undefined ? null : String(token.auth_type);
      if (method === "emandate" && authType !== null && !["netbanking", "debitcard", "aadhaar"].includes(authType))
        return { error: "token.auth_type must be netbanking, debitcard or aadhaar", field: "token.auth_type" };
      const terms: SandboxOrderToken = {
        method,
        max_amount: maxAmount,
        expire_at: expireAt,
        ...(method === "upi" ? { frequency: frequency! } : { auth_type: authType ?? "netbanking" }),
        recurring_status: null,
        failure_reason: null,
      };
      return { terms: { customer_id: customerId, method, token: terms } };
    },

    authorise(c, account, order, request) {
      const terms = order.token!;
      if (!request.recurring)
        return apiError(c, 400, "This order authorises a mandate: open Checkout with recurring: 1 and its customer_id");
      if (request.customerId !== order.customer_id)
        return apiError(c, 400, "The customer_id does not match the order's customer", "customer_id");
      if (terms.expire_at <= now()) return apiError(c, 400, "The mandate's end date has passed");
      const customer = customerOf(account.keyId, order.customer_id!);
      const who = {
        email: request.email || customer?.email || "",
        contact: request.contact || customer?.contact || "",
      };
      const token: SandboxToken = {
        id: sandboxId("token"),
        keyId: account.keyId,
        signer: account,
        customerId: order.customer_id!,
        method: terms.method,
        maxAmount: terms.max_amount,
        expiredAt: terms.expire_at,
        frequency: terms.frequency ?? null,
        authType: terms.auth_type ?? null,
        // A UPI app registers the mandate as the payer approves it; a bank approves an e-mandate later.
        status: terms.method === "upi" ? "confirmed" : "initiated",
        failureReason: null,
        declineNext: false,
        createdAt: now(),
        usedAt: null,
      };
      tokens.set(token.id, token);
      order.attempts += 1;
      order.status = "paid";
      order.amount_paid = order.amount;
      order.amount_due = 0;
      // The authorisation is a payment like another (0 for an e-mandate), captured as the order asked.
      const payment = deps.record(account.keyId, order, "captured", who, {
        method: terms.method,
        token_id: token.id,
        customer_id: token.customerId,
        recurring: true,
        recurring_type: "initial",
        ...(terms.method === "upi" ? { vpa: "sandbox.payer@upi" } : { bank: "HDFC" }),
      });
      const events = paidEvents(payment, order);
      if (token.status === "confirmed") events.push(tokenEvent(token, "confirmed"));
      deps.announce(account, events);
      if (token.status === "initiated") {
        const timer = setTimeout(() => {
          if (token.status === "initiated") change(token, "confirmed", null, 0);
        }, deps.delayMs);
        timer.unref();
      }
      return c.json({
        razorpay_payment_id: payment.id,
        razorpay_order_id: order.id,
        razorpay_signature: checkoutSignature(account.keySecret, order.id, payment.id),
      });
    },
  };
}

/** A captured payment's `payment.captured` and its order's `order.paid`. */
function paidEvents(payment: PaymentEntity, order: SandboxOrder): WebhookEvent[] {
  return [
    { event: "payment.captured", contains: ["payment"], payload: { payment: { entity: { ...payment } } } },
    {
      event: "order.paid",
      contains: ["payment", "order"],
      payload: { payment: { entity: { ...payment } }, order: { entity: { ...order } } },
    },
  ];
}

const rupees = (paise: number) =>
  new Intl.NumberFormat("en-IN", {
    style: "currency",
    currency: "INR",
    minimumFractionDigits: paise % 100 === 0 ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(paise / 100);

const day = (unixSeconds: number) =>
  new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "long", year: "numeric", timeZone: "Asia/Kolkata" }).format(
    new Date(unixSeconds * 1000),
  );

/** The sentence Checkout shows for what the payer authorises. */
export function authorisationText(
  terms: Pick<SandboxOrderToken, "method" | "max_amount" | "expire_at" | "frequency">,
): string {
  const upto = `up to ${rupees(terms.max_amount)}`;
  return terms.method === "upi"
    ? `Authorise UPI Autopay: ${upto} ${terms.frequency === "monthly" ? "a month" : "a debit"} until ${day(terms.expire_at)}`
    : `Authorise a bank e-mandate (NACH): ${upto} a debit until ${day(terms.expire_at)}`;
}
