import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { input, operation } from "./openapi.ts";
import { allow, requireAuth } from "./guards.ts";
import { toPurchaseJson } from "../services/purchases.ts";
import { toRefundJson } from "../services/refunds.ts";
import { requestMeta } from "../middleware/client-ip.ts";
import { RATE_RULES } from "../services/rate-limit.ts";
import { tooMany } from "../services/accounts.ts";
import { CreateOrderSchema, VerifyPaymentSchema } from "#common/validation/setup.ts";

/** The spec's payment calls (§7) on top of the shared payment layer (server/payments). */
export function paymentRouter({ env, services }: AppDeps) {
  const api = new Hono<AppEnv>();
  const { payments, purchases } = services;

  api.post(
    "/create-order",
    operation({
      tag: "payment",
      auth: "business",
      summary: "Place an order for a plan; the amount comes from the stored plan and billing, never from the client",
      responses: {
        200: "{success, order: {id, amount, currency}, key_id, purchase}",
        400: "Invalid input, unknown plan or reserved domain",
        409: "Domain belongs to another center",
        429: "Rate limited",
        502: "Failed to create order",
      },
    }),
    allow("business"),
    input("json", CreateOrderSchema),
    async (c) => {
      const { user } = requireAuth(c);
      const { purchase, keyId } = await purchases.createOrder(user.id, c.req.valid("json"));
      return c.json({
        success: true,
        order: { id: purchase.gatewayOrderId, amount: purchase.amount, currency: purchase.currency },
        key_id: keyId,
        purchase: toPurchaseJson(purchase),
      });
    },
  );

  api.get(
    "/config",
    operation({
      tag: "payment",
      auth: "public",
      summary: "The public key (and Checkout script) the browser opens Checkout with",
      responses: { 200: "{key_id, checkout_script, sandbox}" },
    }),
    (c) =>
      c.json({
        key_id: payments.gateway.keyId,
        checkout_script: payments.gateway.checkoutScript,
        sandbox: payments.config.sandbox,
      }),
  );

  api.post(
    "/verify",
    operation({
      tag: "payment",
      auth: "public",
      summary: "Verify a Checkout result (HMAC-SHA256 of order_id|payment_id) and complete the order once",
      responses: {
        200: "{success, kind, alreadyCompleted, purchase, center}",
        400: "Invalid input",
        422: "Payment verification failed",
      },
    }),
    input("json", VerifyPaymentSchema),
    async (c) => {
      const body = c.req.valid("json");
      const checkout = {
        orderId: body.razorpay_order_id,
        paymentId: body.razorpay_payment_id,
        signature: body.razorpay_signature,
      };
      const result = await payments.confirmCheckout(checkout);
      return c.json({
        success: true,
        message: "Payment verified",
        kind: result.kind,
        alreadyCompleted: result.outcome === "already-paid",
        ...(await payments.completion.present(result.order)),
      });
    },
  );

  api.post(
    "/webhook",
    operation({
      tag: "payment",
      auth: "public",
      summary:
        "Razorpay webhook (X-Razorpay-Signature over the raw body): payment.captured, order.paid, payment.failed; payment_link.* for fee payment links; token.confirmed, token.rejected, token.cancelled for fee mandates (decision 0051); the partner webhook's too (an OAuth account's orders, naming its account_id; account.app.authorization_revoked disconnects that account); repeated x-razorpay-event-id ignored",
      responses: { 200: "{success, status}", 400: "Invalid webhook signature" },
    }),
    async (c) => {
      const raw = await c.req.text();
      const outcome = await payments.webhook(raw, {
        signature: c.req.header("x-razorpay-signature"),
        eventId: c.req.header("x-razorpay-event-id"),
      });
      return c.json({ success: true, status: outcome.status, ...(outcome.result ? { result: outcome.result } : {}) });
    },
  );

  api.post(
    "/webhook/:accountId",
    operation({
      tag: "payment",
      auth: "public",
      summary:
        "An institute's Razorpay webhook (the URL its owner sets in their Razorpay Dashboard): signed with that account's webhook secret, and completes only orders, payment links and mandate tokens made on that account",
      responses: { 200: "{success, status}", 400: "Invalid webhook signature" },
    }),
    async (c) => {
      const raw = await c.req.text();
      const outcome = await payments.webhook(
        raw,
        { signature: c.req.header("x-razorpay-signature"), eventId: c.req.header("x-razorpay-event-id") },
        c.req.param("accountId"),
      );
      return c.json({ success: true, status: outcome.status, ...(outcome.result ? { result: outcome.result } : {}) });
    },
  );
  api.get(
    "/purchases/my",
    operation({
      tag: "payment",
      auth: "signed-in",
      summary: "The signed-in owner's plan purchases, newest first, each with its refund if it was refunded",
      responses: { 200: "{purchases: [Purchase & {refund: Refund | null}]}" },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      const rows = await purchases.listMine(user.id);
      const refunds = await services.refunds.ofPurchases(rows.map((r) => r.id));
      return c.json({
        purchases: rows.map((r) => {
          const refund = refunds.get(r.id);
          return { ...toPurchaseJson(r), refund: refund ? toRefundJson(refund) : null };
        }),
      });
    },
  );

  api.get(
    "/domain-availability",
    operation({
      tag: "payment",
      auth: "public",
      summary:
        "Whether a domain can be bought for (a host name, not the platform's, not bound to another owner's institute; a domain only asked for blocks nobody)",
      query: { domain: "the domain to check" },
      responses: { 200: "{domain, available, reason?, message?, renewal?}", 429: "Rate limited" },
    }),
    async (c) => {
      const decision = await services.rateLimiter.hit(RATE_RULES.domainCheckIp, requestMeta(c, env.TRUST_PROXY).ip);
      if (!decision.allowed) throw tooMany(decision.retryAfter);
      c.header("Cache-Control", "no-store");
      return c.json(await purchases.domainStatus(c.req.query("domain") ?? "", c.get("auth")?.user.id));
    },
  );

  return api;
}
