import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import {
  feePaymentLinks,
  feeReceipts,
  feeSettings,
  memberships,
  messages,
  orders,
  refunds,
} from "../../server/db/schema/index.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter, merchantOf } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import {
  createListeningTestApp,
  eventId,
  payThroughSandbox,
  sendWebhook,
  webhook,
  type ListeningTestApp,
} from "../helpers/payments.ts";
import { webhookSignature } from "../../server/payments/signatures.ts";
import { INVALID_WEBHOOK_SIGNATURE } from "../../server/payments/webhooks.ts";
import { indiaDate } from "../../common/india-dates.ts";
import {
  FEE_DUE_NOT_FOUND,
  FEE_DUE_SETTLED,
  FEE_PARTIAL_OFF,
  FEE_PAY_OWN_ONLY,
  moreThanAccountOwes,
  notTakingFeesOnline,
} from "../../common/validation/fee-online.ts";
import type { FeeAccountJson } from "../../common/validation/fees.ts";

/**
 * Fees paid online (issue 42 §3, decision 0046): a student's Checkout on the institute's own
 * account, receipted once whatever reports it; Payment Links sent by the desk, paid in parts,
 * expired and cancelled; and money that arrives after the desk already took it.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: ListeningTestApp;
let owner: Account;
let student: Account;
let other: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let vidya: Awaited<ReturnType<typeof createCenter>>;
let vidyaOwner: Account;

const today = indiaDate(new Date());
const shift = (days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const as = (who: Account, host?: string) => ({ headers: bearer(who.access_token), host });

const grant = (centerId: string, userId: string) =>
  t.database.db
    .insert(memberships)
    .values({ centerId, userId, role: "student", status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();

/** A plan of two instalments (₹10,000 now, ₹5,000 later) assigned to `who` at `center`; their account. */
async function accountFor(who: Account, center: { id: string }, boss: Account, name: string) {
  const plan = await postJson(
    t,
    "/api/fee-plans",
    {
      centerId: center.id,
      name,
      heads: [{ name: "Tuition", amount: 15_000 }],
      instalments: [
        { label: "First instalment", amount: 10_000, dueOn: shift(5) },
        { label: "Second instalment", amount: 5_000, dueOn: shift(40) },
      ],
    },
    as(boss),
  );
  expect(plan.status, await plan.clone().text()).toBe(201);
  const { feePlan } = (await plan.json()) as { feePlan: { _id: string } };
  const res = await postJson(
    t,
    "/api/fee-accounts",
    { centerId: center.id, studentId: who.user._id, feePlanId: feePlan._id },
    as(boss),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { account: FeeAccountJson }).account;
}

const accountNow = async (accountId: string) => {
  const res = await t.request(`/api/fee-accounts/${accountId}`, as(owner));
  return ((await res.json()) as { account: FeeAccountJson }).account;
};
const receiptsOf = (accountId: string) =>
  t.database.db.select().from(feeReceipts).where(eq(feeReceipts.accountId, accountId));

/** The student's session on Sunrise's site (sessions are valid on the host they were made on). */
async function onSite(who: Account, host: string): Promise<Account> {
  const res = await postJson(t, "/api/auth/login", { email: who.email, password: who.password }, { host });
  return { ...who, access_token: ((await res.json()) as { access_token: string }).access_token };
}

const payDue = (who: Account, dueId: string, body: unknown = {}, host = sunrise.customDomain!) =>
  postJson(t, `/api/fee-dues/${dueId}/pay`, body, as(who, host));
const sendLink = (who: Account, dueId: string, body: unknown = {}, host?: string) =>
  postJson(t, `/api/fee-dues/${dueId}/link`, body, as(who, host));

/** A webhook about a payment link, signed with `secret` (the institute account's webhook secret). */
function linkWebhook(
  event: "payment_link.paid" | "payment_link.partially_paid" | "payment_link.expired" | "payment_link.cancelled",
  link: { id: string; reference_id: string },
  payment: { id: string; amount: number } | null,
  secret: string,
  id = eventId(),
) {
  const payload: Record<string, unknown> = { payment_link: { entity: { ...link, entity: "payment_link" } } };
  if (payment)
    payload.payment = {
      entity: { id: payment.id, entity: "payment", amount: payment.amount, currency: "INR", status: "captured" },
    };
  const body = JSON.stringify({ entity: "event", event, contains: Object.keys(payload), payload });
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-razorpay-signature": webhookSignature(secret, body),
      "x-razorpay-event-id": id,
    },
  };
}

/** Pays `amount` paise of a link on the sandbox's page, as the payer does; the payment's id. */
async function payLink(url: string, amount?: number) {
  const res = await fetch(`${url}/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(amount === undefined ? {} : { amount }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { razorpay_payment_id: string }).razorpay_payment_id;
}

/** Sunrise takes part payments online from here on (its Fees settings). */
const allowParts = () =>
  t.database.db
    .insert(feeSettings)
    .values({ centerId: sunrise.id, allowPartialOnline: true })
    .onConflictDoUpdate({ target: feeSettings.centerId, set: { allowPartialOnline: true } });

const linkRow = async (id: string) =>
  (await t.database.db.select().from(feePaymentLinks).where(eq(feePaymentLinks.id, id)))[0];

beforeAll(async () => {
  t = await createListeningTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  vidyaOwner = await register(t, "business", { name: "Ravi Rao" });
  student = await register(t, "student", { name: "Priya Das" });
  other = await register(t, "student", { name: "Zoya Khan" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "fo-sunrise" });
  vidya = await createCenter(
    t,
    vidyaOwner.user._id,
    { instituteName: "Vidya Classes", slug: "fo-vidya" },
    { merchant: false },
  );
  await grant(sunrise.id, student.user._id);
  await grant(sunrise.id, other.user._id);
  await grant(vidya.id, student.user._id);
});
afterAll(() => t.close());

describe("a due paid by Checkout on the institute's account", () => {
  it("is receipted once by the callback and duplicate webhooks", async () => {
    const account = await accountFor(student, sunrise, owner, "Checkout plan");
    const [first] = account.dues;
    const me = await onSite(student, sunrise.customDomain!);
    const placed = await payDue(me, first._id);
    expect(placed.status, await placed.clone().text()).toBe(200);
    const body = (await placed.json()) as { order: { id: string; amount: number }; key_id: string };
    expect(body.order.amount).toBe(1_000_000);
    // On the institute's own sandbox account, never the platform's.
    expect(body.key_id).toBe(merchantOf(sunrise.id).keyId);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, body.order.id));
    expect(order).toMatchObject({
      subject: "fee",
      feeAccountId: account._id,
      sellerCenterId: sunrise.id,
      merchantAccountId: sunrise.merchantAccountId,
      amount: 1_000_000,
      status: "created",
    });
    // A second click while unpaid is the same order.
    expect(((await (await payDue(me, first._id)).json()) as { order: { id: string } }).order.id).toBe(body.order.id);

    const { paymentId, body: verified } = await payThroughSandbox(t, body.order.id);
    expect(verified).toMatchObject({
      success: true,
      kind: "fee",
      receipt: { amount: 10_000, mode: "online", reference: paymentId },
    });
    const secret = merchantOf(sunrise.id).webhookSecret;
    const captured = webhook("payment.captured", { orderId: body.order.id, paymentId, amount: 1_000_000 }, { secret });
    const paid = webhook("order.paid", { orderId: body.order.id, paymentId, amount: 1_000_000 }, { secret });
    for (const delivery of [captured, paid, captured]) expect((await sendWebhook(t, delivery)).status).toBe(200);

    const receipts = await receiptsOf(account._id);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({
      amount: 1_000_000,
      mode: "online",
      gatewayPaymentId: paymentId,
    });
    // The receipt and its Checkout order name the same payment.
    const [paidOrder] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(paidOrder).toMatchObject({ status: "paid", gatewayPaymentId: paymentId });
    const after = await accountNow(account._id);
    expect(after.dues.map((d) => d.balance)).toEqual([0, 5_000]);
    // Paid: nothing left to pay on it.
    const again = await payDue(me, first._id);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(FEE_DUE_SETTLED);
  });

  it("ignores a replayed webhook with a wrong signature", async () => {
    const account = await accountFor(student, sunrise, owner, "Forged plan");
    const placed = (await (await payDue(await onSite(student, sunrise.customDomain!), account.dues[0]._id)).json()) as {
      order: { id: string };
    };
    const forged = webhook(
      "payment.captured",
      { orderId: placed.order.id, paymentId: "pay_forged00000001", amount: 1_000_000 },
      { secret: "not-the-institute-secret" },
    );
    const res = await sendWebhook(t, forged);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(INVALID_WEBHOOK_SIGNATURE);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, placed.order.id));
    expect(order.status).toBe("created");
    expect(await receiptsOf(account._id)).toHaveLength(0);
  });

  it("is the account's student's alone to pay", async () => {
    const account = await accountFor(student, sunrise, owner, "Private plan");
    const due = account.dues[0]._id;
    const stranger = await payDue(await onSite(other, sunrise.customDomain!), due);
    expect(stranger.status).toBe(404);
    expect((await stranger.json()).error).toBe(FEE_DUE_NOT_FOUND);
    const manager = await payDue(await onSite(owner, sunrise.customDomain!), due);
    expect(manager.status).toBe(403);
    expect((await manager.json()).error).toBe(FEE_PAY_OWN_ONLY);
    // Another institute's domain does not show Sunrise's dues.
    const elsewhere = await payDue(await onSite(student, vidya.customDomain!), due, {}, vidya.customDomain!);
    expect(elsewhere.status).toBe(404);
    // Part payments are refused in words where the institute takes whole balances only.
    const part = await payDue(await onSite(student, sunrise.customDomain!), due, { amount: 500 });
    expect(part.status).toBe(400);
    expect((await part.json()).error).toBe(FEE_PARTIAL_OFF);
    const bad = await payDue(await onSite(student, sunrise.customDomain!), due, { amount: "lots" });
    expect(bad.status).toBe(400);
    const placed = await t.database.db.select().from(orders).where(eq(orders.feeAccountId, account._id));
    expect(placed).toHaveLength(0);
  });

  it("is refused in words where the institute has no connected account", async () => {
    const account = await accountFor(student, vidya, vidyaOwner, "Vidya plan");
    const res = await payDue(await onSite(student, vidya.customDomain!), account.dues[0]._id, {}, vidya.customDomain!);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(notTakingFeesOnline("Vidya Classes"));
    const link = await sendLink(vidyaOwner, account.dues[0]._id);
    expect(link.status).toBe(409);
    expect((await link.json()).error).toBe(notTakingFeesOnline("Vidya Classes"));
    expect(await t.database.db.select().from(orders).where(eq(orders.feeAccountId, account._id))).toHaveLength(0);
  });

  it("arriving after the desk took the money: what is owed is receipted, the rest refunded", async () => {
    const account = await accountFor(student, sunrise, owner, "Late plan");
    const me = await onSite(student, sunrise.customDomain!);
    const placed = (await (await payDue(me, account.dues[0]._id)).json()) as { order: { id: string } };
    // Meanwhile the desk takes ₹12,000 in cash: ₹3,000 is left on the account.
    const cash = await postJson(
      t,
      `/api/fee-accounts/${account._id}/payments`,
      { amount: 12_000, mode: "cash" },
      as(owner),
    );
    expect(cash.status).toBe(201);
    const { paymentId, body } = await payThroughSandbox(t, placed.order.id);
    expect(body).toMatchObject({ kind: "fee", receipt: { amount: 3_000, mode: "online" } });
    const after = await accountNow(account._id);
    expect(after.balance).toBe(0);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, placed.order.id));
    const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(refund).toMatchObject({ amount: 700_000, status: "processed", centerId: sunrise.id });
    const account2 = merchantOf(sunrise.id);
    const basic = `Basic ${Buffer.from(`${account2.keyId}:${account2.keySecret}`).toString("base64")}`;
    const atGateway = await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/payments/${paymentId}/refunds`, {
      headers: { authorization: basic },
    });
    expect(((await atGateway.json()) as { items: { amount: number }[] }).items.map((r) => r.amount)).toEqual([700_000]);
    // The webhook that follows changes nothing: one receipt, one refund.
    const again = webhook(
      "payment.captured",
      { orderId: placed.order.id, paymentId, amount: 1_000_000 },
      { secret: account2.webhookSecret },
    );
    expect((await sendWebhook(t, again)).status).toBe(200);
    expect((await receiptsOf(account._id)).filter((r) => r.mode === "online")).toHaveLength(1);
    expect(await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))).toHaveLength(1);
  });
});

describe("payment links", () => {
  it("are sent to the student, paid in two parts, receipted once each, and settle the due", async () => {
    await allowParts();
    const account = await accountFor(other, sunrise, owner, "Link plan");
    const due = account.dues[0];
    // The student it is for may not send one.
    const refused = await sendLink(await onSite(other, sunrise.customDomain!), due._id, {}, sunrise.customDomain!);
    expect(refused.status).toBe(404);
    const res = await sendLink(owner, due._id, { expiresInDays: 10 });
    expect(res.status, await res.clone().text()).toBe(201);
    const { url, link } = (await res.json()) as { url: string; link: { _id: string; status: string } };
    expect(url).toMatch(new RegExp(`^${t.baseUrl}/_sandbox/razorpay/l/plink_`));
    expect(link).toMatchObject({ status: "created", acceptPartial: true, amount: 10_000 });
    // Asked again while it is live: the same link, sent once.
    expect(((await (await sendLink(owner, due._id)).json()) as { url: string }).url).toBe(url);
    const sent = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.template, "fee-payment-link"), eq(messages.userId, other.user._id)));
    expect(sent.map((m) => m.channel)).toEqual(["email"]);
    expect(sent[0].recipient).toBe(other.email);
    expect(sent[0].text).toContain(`Zoya Khan, Sunrise Academy asks you to pay ₹10,000 for First instalment, due `);
    expect(sent[0].text).toMatch(new RegExp(`: ${url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));

    const row = await linkRow(link._id);
    const entity = { id: row.gatewayLinkId, reference_id: row.id };
    const secret = merchantOf(sunrise.id).webhookSecret;
    const firstPayment = await payLink(url, 400_000);
    const partly = linkWebhook("payment_link.partially_paid", entity, { id: firstPayment, amount: 400_000 }, secret);
    expect((await sendWebhook(t, partly)).status).toBe(200);
    // The same delivery again, and replayed under a new event id: nothing more.
    expect((await sendWebhook(t, partly)).status).toBe(200);
    expect(
      (
        await sendWebhook(
          t,
          linkWebhook("payment_link.partially_paid", entity, { id: firstPayment, amount: 400_000 }, secret),
        )
      ).status,
    ).toBe(200);
    expect((await linkRow(link._id)).status).toBe("partially_paid");
    expect(await receiptsOf(account._id)).toHaveLength(1);

    const secondPayment = await payLink(url);
    const paid = linkWebhook("payment_link.paid", entity, { id: secondPayment, amount: 600_000 }, secret);
    expect((await sendWebhook(t, paid)).status).toBe(200);
    // A late partly-paid delivery never moves a paid link back.
    expect((await sendWebhook(t, partly)).status).toBe(200);
    expect((await linkRow(link._id)).status).toBe("paid");
    const receipts = await receiptsOf(account._id);
    expect(receipts.map((r) => [r.amount, r.gatewayPaymentId]).sort()).toEqual(
      [
        [400_000, firstPayment],
        [600_000, secondPayment],
      ].sort(),
    );
    expect((await accountNow(account._id)).dues[0].balance).toBe(0);
  });

  it("let a student choose a part to pay by Checkout where the institute allows it, never more than owed", async () => {
    await allowParts();
    const account = await accountFor(other, sunrise, owner, "Part plan");
    const me = await onSite(other, sunrise.customDomain!);
    const tooMuch = await payDue(me, account.dues[0]._id, { amount: 15_000.5 });
    expect(tooMuch.status).toBe(400);
    expect((await tooMuch.json()).error).toBe(moreThanAccountOwes(15_000));
    const part = await payDue(me, account.dues[0]._id, { amount: 2_500.5 });
    expect(part.status, await part.clone().text()).toBe(200);
    const { order } = (await part.json()) as { order: { id: string; amount: number } };
    expect(order.amount).toBe(250_050);
    const { body } = await payThroughSandbox(t, order.id);
    expect(body).toMatchObject({ kind: "fee", receipt: { amount: 2_500.5, mode: "online" } });
    expect((await accountNow(account._id)).dues.map((d) => d.balance)).toEqual([7_499.5, 5_000]);
  });

  it("follow the gateway when they expire or are cancelled", async () => {
    const account = await accountFor(other, sunrise, owner, "Expiring plan");
    const [first, second] = account.dues;
    const secret = merchantOf(sunrise.id).webhookSecret;
    const made = (await (await sendLink(owner, first._id)).json()) as { url: string; link: { _id: string } };
    const expiring = await linkRow(made.link._id);
    expect((await fetch(`${made.url}/expire`, { method: "POST" })).status).toBe(200);
    const expired = linkWebhook(
      "payment_link.expired",
      { id: expiring.gatewayLinkId, reference_id: expiring.id },
      null,
      secret,
    );
    expect((await sendWebhook(t, expired)).status).toBe(200);
    expect((await linkRow(made.link._id)).status).toBe("expired");
    // Expired, so a new one is made for the same due.
    const fresh = (await (await sendLink(owner, first._id)).json()) as { url: string };
    expect(fresh.url).not.toBe(made.url);

    const cancelling = (await (await sendLink(owner, second._id)).json()) as { link: { _id: string } };
    const row = await linkRow(cancelling.link._id);
    const sandbox = merchantOf(sunrise.id);
    const basic = `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString("base64")}`;
    const cancelled = await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/payment_links/${row.gatewayLinkId}/cancel`, {
      method: "POST",
      headers: { authorization: basic },
    });
    expect(cancelled.status).toBe(200);
    const delivery = linkWebhook(
      "payment_link.cancelled",
      { id: row.gatewayLinkId, reference_id: row.id },
      null,
      secret,
    );
    expect((await sendWebhook(t, delivery)).status).toBe(200);
    expect((await linkRow(cancelling.link._id)).status).toBe("cancelled");
    // A forged delivery about a link changes nothing.
    const forged = linkWebhook(
      "payment_link.paid",
      { id: row.gatewayLinkId, reference_id: row.id },
      { id: "pay_forged00000002", amount: 500_000 },
      "wrong-secret",
    );
    expect((await sendWebhook(t, forged)).status).toBe(400);
    expect(await receiptsOf(account._id)).toHaveLength(0);
  });
});
