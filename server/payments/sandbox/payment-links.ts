import type { Context, Hono } from "hono";
import { LRUCache } from "lru-cache";
import type { SandboxAccount } from "./accounts.ts";
import { sandboxId } from "./ids.ts";

/**
 * The sandbox's Payment Links (Razorpay's `/v1/payment_links`): an account makes a link, the
 * payer opens its page (`/l/{id}`, the link's `short_url`) and pays it whole, or in parts when
 * partial payments are accepted; each payment is a captured payment of the account (refundable
 * like any other) and is announced with `payment_link.partially_paid` or `payment_link.paid`,
 * signed as the account's other webhooks are. A link past its `expire_by` expires when next
 * looked at, `/l/{id}/expire` is the dashboard expiring it now (tests do not wait on a clock),
 * and `POST /v1/payment_links/{id}/cancel` cancels it; each sends its own webhook.
 */

interface SandboxLink {
  id: string;
  entity: "payment_link";
  amount: number;
  amount_paid: number;
  currency: string;
  accept_partial: boolean;
  first_min_partial_amount: number;
  description: string;
  customer: { name?: string; email?: string; contact?: string };
  expire_by: number;
  expired_at: number;
  cancelled_at: number;
  reference_id: string | null;
  notes: Record<string, string>;
  short_url: string;
  status: "created" | "partially_paid" | "paid" | "expired" | "cancelled";
  order_id: string;
  payments: { payment_id: string; amount: number; created_at: number; method: string; status: string }[];
  created_at: number;
  updated_at: number;
}

type WebhookEvent = { event: string; contains: string[]; payload: unknown };

export interface SandboxLinkDeps {
  /** Where the sandbox answers (its configured address: the links' pages are there). */
  base: string;
  /** The account the API call is authorised for, and the one whose secrets sign its webhooks. */
  authorised(c: Context): { account: SandboxAccount; signer: SandboxAccount } | undefined;
  /** Records a captured payment of the account (so it can be fetched and refunded); its entity. */
  capture(
    signer: SandboxAccount,
    order: { id: string; amount: number; currency: string; notes: Record<string, string> },
    who: { email: string; contact: string },
  ): Record<string, unknown> & { id: string };
  /** Sends signed webhooks about the account, as Razorpay does, a moment later. */
  announce(signer: SandboxAccount, events: WebhookEvent[]): void;
}

const now = () => Math.floor(Date.now() / 1000);
const MINUTES_15 = 15 * 60;

const apiError = (c: Context, status: 400 | 401 | 404, description: string, field?: string) =>
  c.json({ error: { code: "BAD_REQUEST_ERROR", description, source: "business", field: field ?? null } }, status);

export function mountSandboxPaymentLinks(app: Hono, deps: SandboxLinkDeps): void {
  const links = new LRUCache<string, { link: SandboxLink; keyId: string; signer: SandboxAccount }>({ max: 20_000 });
  const view = (link: SandboxLink) => ({ ...link, payments: link.payments.length ? link.payments : null });
  const event = (link: SandboxLink, name: string, payment?: Record<string, unknown>): WebhookEvent => ({
    event: name,
    contains: payment ? ["payment_link", "order", "payment"] : ["payment_link"],
    payload: {
      payment_link: { entity: view(link) },
      ...(payment
        ? {
            payment: { entity: payment },
            order: {
              entity: { id: link.order_id, entity: "order", amount: link.amount, amount_paid: link.amount_paid },
            },
          }
        : {}),
    },
  });

  /** The link, expired first if its time has passed while it still took payments. */
  const current = (id: string) => {
    const held = links.get(id);
    if (!held) return undefined;
    const { link, signer } = held;
    if ((link.status === "created" || link.status === "partially_paid") && link.expire_by && link.expire_by <= now())
      end(link, signer, "expired");
    return held;
  };
  const end = (link: SandboxLink, signer: SandboxAccount, status: "expired" | "cancelled") => {
    link.status = status;
    link.updated_at = now();
    if (status === "expired") link.expired_at = link.updated_at;
    else link.cancelled_at = link.updated_at;
    deps.announce(signer, [event(link, `payment_link.${status}`)]);
  };

  app.post("/v1/payment_links", async (c) => {
    const caller = deps.authorised(c);
    if (!caller) return apiError(c, 401, "Authentication failed");
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body || typeof body !== "object") return apiError(c, 400, "The request body must be JSON");
    const amount = Number(body.amount);
    if (!Number.isInteger(amount) || amount < 100)
      return apiError(c, 400, "The amount must be atleast INR 1.00", "amount");
    const currency = String(body.currency ?? "INR");
    if (currency !== "INR") return apiError(c, 400, "Currency is not supported", "currency");
    const expireBy = body.expire_by === undefined ? 0 : Number(body.expire_by);
    if (!Number.isInteger(expireBy) || (expireBy !== 0 && expireBy < now() + MINUTES_15))
      return apiError(c, 400, "expire by date must be at least 15 minutes in the future", "expire_by");
    const reference = body.reference_id === undefined || body.reference_id === null ? null : String(body.reference_id);
    if (reference && reference.length > 40)
      return apiError(c, 400, "reference_id: at most 40 characters", "reference_id");
    if (
      reference &&
      [...links.values()].some((l) => l.keyId === caller.account.keyId && l.link.reference_id === reference)
    )
      return apiError(c, 400, `Payment Link with reference id ${reference} already exists`, "reference_id");
    const customer = (body.customer && typeof body.customer === "object" ? body.customer : {}) as Record<
      string,
      unknown
    >;
    const text = (value: unknown, max: number) => (typeof value === "string" ? value.slice(0, max) : undefined);
    const id = sandboxId("plink");
    const link: SandboxLink = {
      id,
      entity: "payment_link",
      amount,
      amount_paid: 0,
      currency,
      accept_partial: body.accept_partial === true,
      first_min_partial_amount: Math.max(100, Number(body.first_min_partial_amount) || 100),
      description: text(body.description, 2048) ?? "",
      customer: {
        name: text(customer.name, 100),
        email: text(customer.email, 254),
        contact: text(customer.contact, 20),
      },
      expire_by: expireBy,
      expired_at: 0,
      cancelled_at: 0,
      reference_id: reference,
      notes:
        body.notes && typeof body.notes === "object"
          ? Object.fromEntries(Object.entries(body.notes).map(([k, v]) => [k, String(v)]))
          : {},
      short_url: `${deps.base}/l/${id}`,
      status: "created",
      order_id: sandboxId("order"),
      payments: [],
      created_at: now(),
      updated_at: now(),
    };
    links.set(id, { link, keyId: caller.account.keyId, signer: caller.signer });
    return c.json(view(link));
  });

  /** A link of the calling account (another account's is as unknown as a made-up id). */
  const own = (c: Context) => {
    const caller = deps.authorised(c);
    const held = caller && current(c.req.param("id") ?? "");
    return held && held.keyId === caller.account.keyId ? held : undefined;
  };

  app.get("/v1/payment_links/:id", (c) => {
    if (!deps.authorised(c)) return apiError(c, 401, "Authentication failed");
    const held = own(c);
    return held ? c.json(view(held.link)) : apiError(c, 404, "The id provided does not exist");
  });

  app.post("/v1/payment_links/:id/cancel", (c) => {
    if (!deps.authorised(c)) return apiError(c, 401, "Authentication failed");
    const held = own(c);
    if (!held) return apiError(c, 404, "The id provided does not exist");
    if (held.link.status !== "created" && held.link.status !== "partially_paid")
      return apiError(c, 400, `Payment link cannot be cancelled as it is already ${held.link.status}`);
    end(held.link, held.signer, "cancelled");
    return c.json(view(held.link));
  });

  // The payer's page (the link's short_url): what is due, and Pay (an amount of their choice when parts are allowed).
  app.get("/l/:id", (c) => {
    const held = current(c.req.param("id"));
    c.header("Cache-Control", "no-store");
    if (!held) return c.html(page("Payment link not found", "<p>This payment link does not exist.</p>"), 404);
    return c.html(linkPage(held.link));
  });

  app.post("/l/:id/pay", async (c) => {
    const held = current(c.req.param("id"));
    const json = (c.req.header("content-type") ?? "").includes("application/json");
    const refuse = (message: string) =>
      json ? apiError(c, 400, message) : c.html(page("Payment not made", `<p>${escapeHtml(message)}</p>`), 400);
    if (!held) return refuse("This payment link does not exist");
    const { link, signer } = held;
    if (link.status !== "created" && link.status !== "partially_paid")
      return refuse(`This payment link is ${link.status.replace("_", " ")}`);
    const due = link.amount - link.amount_paid;
    const body = json
      ? ((await c.req.json().catch(() => ({}))) as Record<string, unknown>)
      : ((await c.req.parseBody().catch(() => ({}))) as Record<string, unknown>);
    // The page's form speaks rupees; the JSON (tests, scripts) speaks paise, as the API does.
    const asked = body.amount === undefined || body.amount === "" ? due : Number(body.amount) * (json ? 1 : 100);
    const amount = Math.round(asked);
    if (!Number.isFinite(asked) || amount < 100 || amount > due)
      return refuse(`Pay between INR 1.00 and the INR ${(due / 100).toFixed(2)} still due`);
    if (!link.accept_partial && amount !== due) return refuse("This payment link takes the whole amount only");
    if (link.accept_partial && amount < due && link.amount_paid === 0 && amount < link.first_min_partial_amount)
      return refuse(`The first payment must be at least INR ${(link.first_min_partial_amount / 100).toFixed(2)}`);
    const payment = deps.capture(
      signer,
      { id: link.order_id, amount, currency: link.currency, notes: link.notes },
      { email: link.customer.email ?? "", contact: link.customer.contact ?? "" },
    );
    link.amount_paid += amount;
    link.status = link.amount_paid === link.amount ? "paid" : "partially_paid";
    link.updated_at = now();
    link.payments.push({ payment_id: payment.id, amount, created_at: now(), method: "card", status: "captured" });
    deps.announce(signer, [event(link, `payment_link.${link.status}`, { ...payment, amount })]);
    if (json)
      return c.json({
        razorpay_payment_id: payment.id,
        razorpay_payment_link_id: link.id,
        razorpay_payment_link_reference_id: link.reference_id,
        razorpay_payment_link_status: link.status,
      });
    return c.html(
      page(
        "Payment received",
        `<p class="ok">Paid INR ${(amount / 100).toFixed(2)}. Payment ID: <strong>${escapeHtml(payment.id)}</strong></p>` +
          (link.status === "partially_paid"
            ? `<p>INR ${((link.amount - link.amount_paid) / 100).toFixed(2)} is still due. <a href="${escapeHtml(link.short_url)}">Pay the rest</a></p>`
            : "<p>The whole amount has been paid.</p>"),
      ),
    );
  });

  app.post("/l/:id/expire", (c) => {
    const held = current(c.req.param("id"));
    if (!held) return apiError(c, 404, "The id provided does not exist");
    if (held.link.status === "created" || held.link.status === "partially_paid") end(held.link, held.signer, "expired");
    return c.json(view(held.link));
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} | Payment sandbox</title>
<style>body{font-family:system-ui,sans-serif;background:#f1f5f9;color:#0f172a;margin:0;padding:32px 16px}main{max-width:440px;margin:auto;background:#fff;border-radius:16px;padding:24px;box-shadow:0 10px 30px -15px rgba(0,0,0,.3)}h1{font-size:20px;margin:8px 0}.badge{display:inline-block;padding:2px 10px;border-radius:999px;background:#fef3c7;color:#92400e;font-size:13px;font-weight:600;border:1px solid #fcd34d}p{color:#475569;font-size:14px;line-height:1.5}.amount{font-size:30px;font-weight:700;color:#0f172a;margin:4px 0}label{display:block;font-size:13px;font-weight:600;margin-top:12px}input{font-size:16px;padding:8px;border:1px solid #cbd5e1;border-radius:8px;width:100%;box-sizing:border-box}button{display:block;width:100%;height:44px;border-radius:8px;font-size:15px;font-weight:600;margin-top:16px;background:#15803d;color:#fff;border:0;cursor:pointer}.ok{color:#15803d}</style></head>
<body><main><span class="badge">Test mode \u2014 no real money</span><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

function linkPage(link: SandboxLink): string {
  const due = (link.amount - link.amount_paid) / 100;
  const open = link.status === "created" || link.status === "partially_paid";
  const form = open
    ? `<form method="post" action="${escapeHtml(link.short_url)}/pay">${
        link.accept_partial
          ? `<label for="amount">Amount to pay (INR, part payments allowed)</label><input id="amount" name="amount" type="number" min="1" max="${due}" step="0.01" value="${due}">`
          : ""
      }<button type="submit">${link.accept_partial ? "Pay" : `Pay INR ${due.toFixed(2)}`}</button></form>`
    : `<p>This payment link is ${escapeHtml(link.status.replace("_", " "))}.</p>`;
  return page(
    "Pay by payment link",
    `<p>${escapeHtml(link.description)}</p>${link.customer.name ? `<p>For ${escapeHtml(link.customer.name)}</p>` : ""}<p class="amount">INR ${due.toFixed(2)}</p><p>due of INR ${(link.amount / 100).toFixed(2)}${link.amount_paid ? `; INR ${(link.amount_paid / 100).toFixed(2)} paid so far` : ""}</p>${form}`,
  );
}
