import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { centers, merchantAccounts, orders, webhookEvents } from "../../server/db/schema/index.ts";
import {
  SANDBOX_PARTNER_CLIENT_ID,
  SANDBOX_PARTNER_CLIENT_SECRET,
  SANDBOX_PARTNER_WEBHOOK_SECRET,
  SANDBOX_WEBHOOK_SECRET,
} from "../../server/payments/config.ts";
import { SANDBOX_SECRETS_KEY, SecretBox } from "../../server/payments/secrets.ts";
import { INVALID_WEBHOOK_SIGNATURE } from "../../server/payments/webhooks.ts";
import { MERCHANT_TEXTS } from "#common/validation/merchant-account.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { enrol, publish, register } from "../helpers/learning.ts";
import { joinTeam } from "../helpers/team.ts";
import { createListeningTestApp, revocationWebhook, webhook, type ListeningTestApp } from "../helpers/payments.ts";

/**
 * Issue 40 §3, what decision 0040 had left unbuilt of 'Connect with Razorpay': the partner
 * webhook's `account.app.authorization_revoked` disconnects the named account as revoked (once,
 * checked with the partner webhook's secret); a partner webhook about an order must name the
 * order's account; and the tokens of an account refused as connected elsewhere are revoked at
 * Razorpay (here the sandbox).
 */

const logLines: string[] = [];
let t: ListeningTestApp;
let owner: Awaited<ReturnType<typeof register>>;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let paidId: string;
let accountId: string;
let razorpayAccountId: string;
const box = new SecretBox(SANDBOX_SECRETS_KEY, true);

beforeAll(async () => {
  t = await createListeningTestApp({ TRUST_PROXY: "1" }, { logLines });
  owner = await register(t, "business", { name: "Meera Iyer" });
  const creator = await register(t, "creator");
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy" }, { merchant: false });
  await joinTeam(t, sunrise.id, creator.user._id);
  paidId = await publish(t, creator.access_token, {
    title: "Organic chemistry sprint",
    type: "live",
    price: "799",
    liveLink: "https://meet.example.com/class",
    businessId: sunrise.id,
  });
  const res = await connectByOAuth();
  expect(res.status).toBe(200);
  const { account } = (await res.json()) as { account: { id: string; razorpayAccountId: string } };
  accountId = account.id;
  razorpayAccountId = account.razorpayAccountId;
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

/** 'Connect with Razorpay' through the sandbox's authorize page: Allow, with the account typed in (or a new one). */
async function connectByOAuth(token = owner.access_token, centerId = sunrise.id, account?: string) {
  const started = await postJson(
    t,
    "/api/institute/payment-account/razorpay",
    { centerId },
    { headers: bearer(token) },
  );
  expect(started.status).toBe(200);
  const url = new URL(((await started.json()) as { url: string }).url);
  const form = new URLSearchParams(url.searchParams);
  form.set("decision", "allow");
  if (account) form.set("account", account);
  const allowed = await fetch(`${t.baseUrl}/_sandbox/razorpay/oauth/authorize`, {
    method: "POST",
    body: form,
    redirect: "manual",
  });
  expect(allowed.status).toBe(302);
  const back = new URL(allowed.headers.get("location")!);
  return t.request(`${back.pathname}${back.search}`, { headers: { ...bearer(token), accept: "application/json" } });
}

const rowOf = async (id: string) =>
  (await t.database.db.select().from(merchantAccounts).where(eq(merchantAccounts.id, id)))[0];
const centerAccount = async (centerId: string) =>
  (await t.database.db.select().from(centers).where(eq(centers.id, centerId)))[0].merchantAccountId;
const openTokens = (row: typeof merchantAccounts.$inferSelect) => ({
  access: box.open(row.accessTokenSealed!, `merchant_accounts:${row.id}:accessToken`),
  refresh: box.open(row.refreshTokenSealed!, `merchant_accounts:${row.id}:refreshToken`),
});
const deliver = (d: { body: string; headers: Record<string, string> }, path = "/api/payment/webhook") =>
  t.request(path, { method: "POST", headers: d.headers, body: d.body });

async function orderAsStudent() {
  const student = await register(t, "student", { host: sunrise.customDomain! });
  return enrol(t, student.access_token, paidId, sunrise.customDomain!);
}

/** Whether the sandbox still takes these tokens: the refresh token at /oauth/token, the access token on its API. */
async function sandboxTakes(tokens: { access: string; refresh: string }) {
  const refreshed = await fetch(`${t.baseUrl}/_sandbox/razorpay/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_id: SANDBOX_PARTNER_CLIENT_ID,
      client_secret: SANDBOX_PARTNER_CLIENT_SECRET,
      grant_type: "refresh_token",
      refresh_token: tokens.refresh,
    }),
  });
  const api = await fetch(`${t.baseUrl}/_sandbox/razorpay/v1/orders?count=1`, { headers: bearer(tokens.access) });
  return { refresh: refreshed.status, access: api.status };
}

describe("a partner webhook about an order names the order's account", () => {
  it("one naming another account is ignored and changes nothing; one naming the order's completes it", async () => {
    const res = await orderAsStudent();
    expect(res.status).toBe(200);
    const { order } = (await res.json()) as { order: { id: string; amount: number } };
    for (const named of ["acc_Someoneelse1234", "acc_test"]) {
      const stray = webhook(
        "payment.captured",
        { orderId: order.id, paymentId: "pay_stray12345678", amount: order.amount },
        { secret: SANDBOX_PARTNER_WEBHOOK_SECRET, accountId: named },
      );
      const answer = await deliver(stray);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ status: "ignored" });
    }
    const [unpaid] = await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, order.id));
    expect(unpaid.status).toBe("created");
    expect(logLines.some((l) => l.includes("partner webhook naming another account than the order's ignored"))).toBe(
      true,
    );
    const good = webhook(
      "payment.captured",
      { orderId: order.id, paymentId: "pay_good12345678", amount: order.amount },
      { secret: SANDBOX_PARTNER_WEBHOOK_SECRET, accountId: razorpayAccountId },
    );
    expect(await (await deliver(good)).json()).toMatchObject({ status: "processed", result: "completed" });
  });
});

describe("account.app.authorization_revoked", () => {
  it("a forged signature changes nothing (400, on either webhook URL)", async () => {
    for (const secret of [SANDBOX_PARTNER_CLIENT_SECRET, SANDBOX_WEBHOOK_SECRET, "made-up"]) {
      for (const path of ["/api/payment/webhook", `/api/payment/webhook/${accountId}`]) {
        const res = await deliver(revocationWebhook(razorpayAccountId, secret), path);
        expect(res.status).toBe(400);
        expect((await res.json()).error).toBe(INVALID_WEBHOOK_SIGNATURE);
      }
    }
    expect(await rowOf(accountId)).toMatchObject({ status: "connected", revokedAt: null });
    expect(await centerAccount(sunrise.id)).toBe(accountId);
  });

  it("an account not connected here changes nothing", async () => {
    const res = await deliver(revocationWebhook("acc_Notconnected123", SANDBOX_PARTNER_WEBHOOK_SECRET));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ignored" });
    expect(await rowOf(accountId)).toMatchObject({ status: "connected", revokedAt: null });
    expect(await centerAccount(sunrise.id)).toBe(accountId);
    expect((await orderAsStudent()).status).toBe(200);
  });

  it("disconnects the account as revoked once: its paid items go off sale and Website Details says connect again", async () => {
    const delivery = revocationWebhook(razorpayAccountId, SANDBOX_PARTNER_WEBHOOK_SECRET);
    const [first, again] = await Promise.all([deliver(delivery), deliver(delivery)]);
    const outcomes = [await first.json(), await again.json()].map((b: { status: string }) => b.status).sort();
    expect(outcomes).toEqual(["duplicate", "processed"]);
    const [recorded] = await t.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, delivery.headers["x-razorpay-event-id"]));
    expect(recorded.event).toBe("account.app.authorization_revoked");
    const row = await rowOf(accountId);
    expect(row).toMatchObject({ status: "disconnected", revokedAt: expect.any(Date), disconnectedBy: null });
    expect(await centerAccount(sunrise.id)).toBeNull();
    const listed = await (
      await t.request(`/api/institute/payment-account?centerId=${sunrise.id}`, { headers: bearer(owner.access_token) })
    ).json();
    expect(listed.connected).toBeNull();
    expect(listed.accounts[0]).toMatchObject({ id: accountId, needsReconnection: true, razorpayAccountId });
    const refused = await orderAsStudent();
    expect(refused.status).toBe(409);
    // Another delivery of the same news (a new event id) finds nothing connected: nothing changes.
    const later = await deliver(revocationWebhook(razorpayAccountId, SANDBOX_PARTNER_WEBHOOK_SECRET));
    expect(await later.json()).toMatchObject({ status: "ignored" });
    expect((await rowOf(accountId)).revokedAt).toEqual(row.revokedAt);
    expect(logLines.filter((l) => l.includes("Razorpay says the owner revoked the platform's access")).length).toBe(1);
  });

  it("the sandbox's Dashboard revoke ends the account's tokens and sends the signed webhook, which disconnects it", async () => {
    const res = await connectByOAuth(owner.access_token, sunrise.id, razorpayAccountId);
    expect(res.status).toBe(200);
    const { account } = (await res.json()) as { account: { id: string } };
    const tokens = openTokens(await rowOf(account.id));
    expect(await sandboxTakes(tokens)).toEqual({ refresh: 200, access: 200 });
    expect((await orderAsStudent()).status).toBe(200);
    const revoked = await fetch(`${t.baseUrl}/_sandbox/razorpay/oauth/dashboard-revoke`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ razorpay_account_id: razorpayAccountId }),
    });
    expect(revoked.status).toBe(200);
    await expect.poll(async () => (await rowOf(account.id)).status, { timeout: 10_000 }).toBe("disconnected");
    expect((await rowOf(account.id)).revokedAt).toEqual(expect.any(Date));
    expect(await centerAccount(sunrise.id)).toBeNull();
    expect(await sandboxTakes(tokens)).toEqual({ refresh: 400, access: 401 });
    expect((await orderAsStudent()).status).toBe(409);
  });
});

describe("an account refused as connected elsewhere", () => {
  /** Watches the platform's calls to the sandbox's revoke endpoint (optionally answering them itself). */
  function watchRevokes(answer?: () => Response) {
    const real = globalThis.fetch;
    const calls: { hint: string; token: string; status: number }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (!url.endsWith("/_sandbox/razorpay/oauth/revoke")) return real(input, init);
      const body = JSON.parse(String(init?.body)) as { token: string; token_type_hint: string };
      const res = answer ? answer() : await real(input, init);
      calls.push({ hint: body.token_type_hint, token: body.token, status: res.status });
      return res;
    });
    return calls;
  }

  async function otherInstitute() {
    const otherOwner = await register(t, "business");
    const vidya = await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes" }, { merchant: false });
    const res = await connectByOAuth(otherOwner.access_token, vidya.id);
    expect(res.status).toBe(200);
    const { account } = (await res.json()) as { account: { id: string; razorpayAccountId: string } };
    return account;
  }

  it("has its new tokens revoked at Razorpay; the institute that has it keeps its own", async () => {
    const theirs = await otherInstitute();
    const calls = watchRevokes();
    const res = await connectByOAuth(owner.access_token, sunrise.id, theirs.razorpayAccountId);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(MERCHANT_TEXTS.usedElsewhere);
    expect(calls.map((c) => [c.hint, c.status])).toEqual([
      ["access_token", 200],
      ["refresh_token", 200],
    ]);
    const refusedTokens = {
      access: calls.find((c) => c.hint === "access_token")!.token,
      refresh: calls.find((c) => c.hint === "refresh_token")!.token,
    };
    expect(await sandboxTakes(refusedTokens)).toEqual({ refresh: 400, access: 401 });
    // The other institute's connection is its own authorisation, untouched.
    expect(await sandboxTakes(openTokens(await rowOf(theirs.id)))).toEqual({ refresh: 200, access: 200 });
    expect(logLines.some((l) => l.includes("revoked at Razorpay the tokens of an account connected elsewhere"))).toBe(
      true,
    );
    for (const line of logLines) for (const token of Object.values(refusedTokens)) expect(line).not.toContain(token);
    expect(await centerAccount(sunrise.id)).toBeNull();
  });

  it("a revoke Razorpay refuses is logged, and the owner is still told the connection was refused", async () => {
    const theirs = await otherInstitute();
    const calls = watchRevokes(() =>
      Response.json({ error: "server_error", error_description: "Try again later" }, { status: 503 }),
    );
    const res = await connectByOAuth(owner.access_token, sunrise.id, theirs.razorpayAccountId);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(MERCHANT_TEXTS.usedElsewhere);
    expect(calls.length).toBeGreaterThan(0);
    expect(
      logLines.some((l) => l.includes("could not revoke at Razorpay the tokens of an account connected elsewhere")),
    ).toBe(true);
  });
});
