import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { centers, enrollments, merchantAccounts, orders } from "../../server/db/schema/index.ts";
import {
  SANDBOX_PARTNER_CLIENT_ID,
  SANDBOX_PARTNER_CLIENT_SECRET,
  SANDBOX_PARTNER_WEBHOOK_SECRET,
} from "../../server/payments/config.ts";
import { SANDBOX_SECRETS_KEY, SecretBox } from "../../server/payments/secrets.ts";
import { MERCHANT_TEXTS } from "#common/validation/merchant-account.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { enrol, publish, register } from "../helpers/learning.ts";
import { joinTeam } from "../helpers/team.ts";
import { createListeningTestApp, webhook, type ListeningTestApp } from "../helpers/payments.ts";

/**
 * Issue 40 §3, 'Connect with Razorpay': an owner connects the institute's Razorpay account by
 * Razorpay's partner OAuth (here the sandbox's authorize page and token endpoint), its students'
 * orders are made with the account's Bearer access token, an ending or refused token is refreshed
 * once, and a revoked authorisation takes the account off until the owner connects again. Every
 * refusal (a forged, expired, reused or foreign state, a refused code, a denial, an account of
 * another institute) says why and stores nothing.
 */

const logLines: string[] = [];
let t: ListeningTestApp;
let owner: Awaited<ReturnType<typeof register>>;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let paidId: string;
/** The sandbox opens secrets sealed under its documented key (the tests run without SECRETS_KEY). */
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
});
afterAll(() => t.close());

const callbackUrl = () => `http://localhost:${t.port}/api/institute/payment-account/razorpay/callback`;
const accountsOf = (centerId: string) =>
  t.database.db.select().from(merchantAccounts).where(eq(merchantAccounts.centerId, centerId));

/** Presses 'Connect with Razorpay' (the API's start): the authorize URL. */
async function start(token = owner.access_token, centerId = sunrise.id, headers: Record<string, string> = {}) {
  const res = await postJson(
    t,
    "/api/institute/payment-account/razorpay",
    { centerId },
    {
      headers: { ...bearer(token), ...headers },
    },
  );
  expect(res.status).toBe(200);
  return new URL(((await res.json()) as { url: string }).url);
}

/** The sandbox's authorize page for this URL: the account it offers. */
async function authorizePage(url: URL) {
  const res = await fetch(`${t.baseUrl}${url.pathname}${url.search}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  const account = /id="account" name="account" value="(acc_[A-Za-z0-9]{14})"/.exec(html)?.[1];
  expect(account).toBeDefined();
  return { html, account: account! };
}

/** Allows (or denies) in the sandbox: where Razorpay sends the browser back. */
async function decide(url: URL, decision: "allow" | "deny", account?: string) {
  const form = new URLSearchParams(url.searchParams);
  form.set("decision", decision);
  if (account) form.set("account", account);
  const res = await fetch(`${t.baseUrl}/_sandbox/razorpay/oauth/authorize`, {
    method: "POST",
    body: form,
    redirect: "manual",
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!);
}

/** Razorpay's redirect followed by the owner's client (JSON answer), or a browser (`html`). */
function callback(back: URL | string, token = owner.access_token, accept = "application/json") {
  const url = typeof back === "string" ? new URL(back) : back;
  return t.request(`${url.pathname}${url.search}`, { headers: { ...bearer(token), accept } });
}

async function expectRefused(res: Response, status: number, message: string) {
  expect(res.status).toBe(status);
  expect((await res.json()).error).toBe(message);
}

async function connectByOAuth(token = owner.access_token, centerId = sunrise.id, account?: string) {
  const url = await start(token, centerId);
  const offered = account ?? (await authorizePage(url)).account;
  return callback(await decide(url, "allow", offered), token);
}

const openTokens = (row: typeof merchantAccounts.$inferSelect) => ({
  access: box.open(row.accessTokenSealed!, `merchant_accounts:${row.id}:accessToken`),
  refresh: box.open(row.refreshTokenSealed!, `merchant_accounts:${row.id}:refreshToken`),
});

async function orderAsStudent() {
  const student = await register(t, "student", { host: sunrise.customDomain! });
  const res = await enrol(t, student.access_token, paidId, sunrise.customDomain!);
  return { student, res };
}

const seenTokens: string[] = [];

describe("starting 'Connect with Razorpay'", () => {
  it("sends the owner to the authorize URL with the partner's client id, read_write, a state and the platform's callback", async () => {
    // Another address in the forwarded headers (a platform host, so the request is served) changes
    // nothing: the callback is the platform's configured address.
    const url = await start(owner.access_token, sunrise.id, {
      "x-forwarded-host": "localhost:9",
      "x-forwarded-proto": "https",
    });
    expect(`${url.origin}${url.pathname}`).toBe(`http://localhost:${t.port}/_sandbox/razorpay/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: SANDBOX_PARTNER_CLIENT_ID,
      response_type: "code",
      scope: "read_write",
      redirect_uri: callbackUrl(),
      state: expect.stringMatching(/^v1\./),
    });
    const page = await authorizePage(url);
    expect(page.html).toContain("Allow");
    expect(page.html).toContain("Sandbox account to connect");
  });

  it("is the owner's alone", async () => {
    const student = await register(t, "student");
    const res = await postJson(
      t,
      "/api/institute/payment-account/razorpay",
      { centerId: sunrise.id },
      {
        headers: bearer(student.access_token),
      },
    );
    expect(res.status).toBe(403);
    const stranger = await register(t, "business");
    const other = await postJson(
      t,
      "/api/institute/payment-account/razorpay",
      { centerId: sunrise.id },
      {
        headers: bearer(stranger.access_token),
      },
    );
    expect(other.status).toBe(404);
  });
});

describe("refusals: each says why and stores nothing", () => {
  it("a forged state", async () => {
    const url = await start();
    const back = await decide(url, "allow");
    const state = back.searchParams.get("state")!;
    const [v, payload, sig] = state.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    const other = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 3_600_000 })).toString("base64url");
    for (const forged of [`${v}.${other}.${sig}`, "made-up", ""]) {
      back.searchParams.set("state", forged);
      await expectRefused(await callback(back), 400, MERCHANT_TEXTS.stateForged);
    }
    // The code is still good, but not without its state.
    expect(await accountsOf(sunrise.id)).toEqual([]);
  });

  it("an expired state", async () => {
    const url = await start();
    const back = await decide(url, "allow");
    // Ten minutes have passed since it was issued (its record says so; its signed copy is kept).
    const { merchantOauthStates } = await import("../../server/db/schema/index.ts");
    const nonce = JSON.parse(Buffer.from(back.searchParams.get("state")!.split(".")[1], "base64url").toString("utf8"))
      .n as string;
    await t.database.db
      .update(merchantOauthStates)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(merchantOauthStates.id, nonce));
    await expectRefused(await callback(back), 400, MERCHANT_TEXTS.stateExpired);
    expect(await accountsOf(sunrise.id)).toEqual([]);
  });

  it("a state of another sign-in of the same owner, then the state used twice", async () => {
    const url = await start();
    const back = await decide(url, "allow");
    const login = await postJson(t, "/api/auth/login", {
      email: owner.email,
      password: owner.password,
      role: "business",
    });
    expect(login.status).toBe(200);
    const otherSession = ((await login.json()) as { access_token: string }).access_token;
    await expectRefused(await callback(back, otherSession), 403, MERCHANT_TEXTS.stateNotYours);
    // A made-up code with the good state: Razorpay's token endpoint refuses it, and the state is spent.
    const madeUp = new URL(back);
    madeUp.searchParams.set("code", "not-a-code-razorpay-gave");
    await expectRefused(await callback(madeUp), 400, MERCHANT_TEXTS.codeRefused);
    await expectRefused(await callback(back), 400, MERCHANT_TEXTS.stateUsed);
    expect(await accountsOf(sunrise.id)).toEqual([]);
  });

  it("the owner denies access in Razorpay; a browser is sent back to Website Details with the reason", async () => {
    const url = await start();
    const back = await decide(url, "deny");
    expect(back.searchParams.get("error")).toBe("access_denied");
    const res = await callback(back, owner.access_token, "text/html");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/business/site#payments");
    const toast = JSON.parse(decodeURIComponent(/pathshala_toast=([^;]+)/.exec(res.headers.get("set-cookie")!)![1]));
    expect(toast).toEqual({
      kind: "error",
      title: MERCHANT_TEXTS.couldNotConnect,
      description: MERCHANT_TEXTS.oauthDenied,
    });
    expect(await accountsOf(sunrise.id)).toEqual([]);
  });

  it("an account already connected to another institute", async () => {
    const otherOwner = await register(t, "business");
    const vidya = await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes" }, { merchant: false });
    const res = await connectByOAuth(otherOwner.access_token, vidya.id);
    expect(res.status).toBe(200);
    const { account } = (await res.json()) as { account: { razorpayAccountId: string } };
    await expectRefused(
      await connectByOAuth(owner.access_token, sunrise.id, account.razorpayAccountId),
      409,
      MERCHANT_TEXTS.usedElsewhere,
    );
    expect(await accountsOf(sunrise.id)).toEqual([]);
  });
});

let accountId: string;
let razorpayAccountId: string;
let publicToken: string;

describe("connecting", () => {
  it("stores the account's tokens sealed, method 'oauth', never answered or logged", async () => {
    const url = await start();
    const { account: offered } = await authorizePage(url);
    const res = await callback(await decide(url, "allow", offered));
    expect(res.status).toBe(200);
    const { account } = (await res.json()) as { account: Record<string, unknown> };
    expect(account).toMatchObject({
      method: "oauth",
      razorpayAccountId: offered,
      keyId: `rzp_test_oauth_${offered.slice(4)}`,
      status: "connected",
      needsReconnection: false,
    });
    accountId = account.id as string;
    razorpayAccountId = offered;
    publicToken = account.keyId as string;
    const [row] = await accountsOf(sunrise.id);
    expect(row).toMatchObject({ id: accountId, method: "oauth", connectedBy: owner.user._id, keySecretSealed: null });
    expect(row.accessTokenSealed).toMatch(/^v1:/);
    expect(row.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 80 * 86_400_000);
    const tokens = openTokens(row);
    seenTokens.push(tokens.access, tokens.refresh);
    expect(row.accessTokenSealed).not.toContain(tokens.access);
    const listed = await (
      await t.request(`/api/institute/payment-account?centerId=${sunrise.id}`, { headers: bearer(owner.access_token) })
    ).text();
    expect(listed).not.toContain(tokens.access);
    expect(listed).not.toContain(tokens.refresh);
    expect(JSON.parse(listed).connected).toMatchObject({ id: accountId, method: "oauth", connectedBy: "Meera Iyer" });
    const [center] = await t.database.db.select().from(centers).where(eq(centers.id, sunrise.id));
    expect(center.merchantAccountId).toBe(accountId);
    // A second connection while one is connected is refused before Razorpay is asked.
    const again = await postJson(
      t,
      "/api/institute/payment-account/razorpay",
      { centerId: sunrise.id },
      {
        headers: bearer(owner.access_token),
      },
    );
    await expectRefused(again, 409, MERCHANT_TEXTS.alreadyConnected);
  });
});

describe("students' payments through the Bearer gateway", () => {
  it("an order is made on the account, Checkout opens with its public token, and the partner's signature completes it", async () => {
    const { student, res } = await orderAsStudent();
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.key_id).toBe(publicToken);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, body.order.id));
    expect(order).toMatchObject({ merchantAccountId: accountId, amount: 79_900 });
    const pay = (key: string) =>
      fetch(`${t.baseUrl}/_sandbox/razorpay/checkout/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key, order_id: body.order.id }),
      });
    // The account's own key id did not make this order: Checkout with it is refused.
    expect((await pay(`rzp_test_${razorpayAccountId.slice(4)}`)).status).toBe(400);
    const paid = await pay(publicToken);
    expect(paid.status).toBe(200);
    const verified = await postJson(t, "/api/student/enroll/verify", await paid.json(), {
      headers: bearer(student.access_token),
      host: sunrise.customDomain!,
    });
    expect(verified.status).toBe(200);
    expect((await verified.json()).enrollmentId).toEqual(expect.any(String));
  });

  it("webhooks of the account are checked with the partner webhook's secret; the sandbox's own complete an order", async () => {
    const { student, res } = await orderAsStudent();
    const { order } = await res.json();
    // Signed with anything but the partner webhook's secret: refused, on the shared URL and the account's own.
    for (const path of ["/api/payment/webhook", `/api/payment/webhook/${accountId}`]) {
      const forged = webhook(
        "payment.captured",
        { orderId: order.id, paymentId: "pay_forged1234567", amount: order.amount },
        {
          secret: SANDBOX_PARTNER_CLIENT_SECRET,
        },
      );
      expect((await t.request(path, { method: "POST", headers: forged.headers, body: forged.body })).status).toBe(400);
    }
    const pay = await fetch(`${t.baseUrl}/_sandbox/razorpay/checkout/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: publicToken, order_id: order.id }),
    });
    expect(pay.status).toBe(200);
    await expect
      .poll(
        async () =>
          (await t.database.db.select().from(enrollments).where(eq(enrollments.studentId, student.user._id))).length,
        { timeout: 10_000 },
      )
      .toBe(1);
    // And one signed with the partner webhook's secret is accepted.
    const second = await orderAsStudent();
    const next = (await second.res.json()).order;
    const good = webhook(
      "payment.captured",
      { orderId: next.id, paymentId: "pay_partner123456", amount: next.amount },
      {
        secret: SANDBOX_PARTNER_WEBHOOK_SECRET,
        accountId: razorpayAccountId,
      },
    );
    const accepted = await t.request("/api/payment/webhook", {
      method: "POST",
      headers: good.headers,
      body: good.body,
    });
    expect(await accepted.json()).toMatchObject({ status: "processed", result: "completed" });
  });
});

describe("tokens", () => {
  const row = async () =>
    (await t.database.db.select().from(merchantAccounts).where(eq(merchantAccounts.id, accountId)))[0];

  it("an access token at its end is refreshed before use, resealed and stored", async () => {
    const before = openTokens(await row());
    await t.database.db
      .update(merchantAccounts)
      .set({ tokenExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(merchantAccounts.id, accountId));
    const { res } = await orderAsStudent();
    expect(res.status).toBe(200);
    const after = await row();
    const tokens = openTokens(after);
    seenTokens.push(tokens.access, tokens.refresh);
    expect(tokens.access).not.toBe(before.access);
    expect(after.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 80 * 86_400_000);
    expect(logLines.filter((l) => l.includes("merchant account access token refreshed"))).toHaveLength(1);
  });

  it("an access token Razorpay refuses is refreshed once and the call made again", async () => {
    const before = openTokens(await row());
    const expire = await fetch(`${t.baseUrl}/_sandbox/razorpay/oauth/expire`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_id: SANDBOX_PARTNER_CLIENT_ID,
        client_secret: SANDBOX_PARTNER_CLIENT_SECRET,
        razorpay_account_id: razorpayAccountId,
      }),
    });
    expect(expire.status).toBe(200);
    const { res } = await orderAsStudent();
    expect(res.status).toBe(200);
    const tokens = openTokens(await row());
    seenTokens.push(tokens.access, tokens.refresh);
    expect(tokens.access).not.toBe(before.access);
    expect(logLines.filter((l) => l.includes("merchant account access token refreshed"))).toHaveLength(2);
  });

  it("a revoked authorisation takes the account off sale and asks the owner to connect again", async () => {
    const { refresh } = openTokens(await row());
    const revoke = await fetch(`${t.baseUrl}/_sandbox/razorpay/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_id: SANDBOX_PARTNER_CLIENT_ID,
        client_secret: SANDBOX_PARTNER_CLIENT_SECRET,
        token: refresh,
        token_type_hint: "refresh_token",
      }),
    });
    expect(revoke.status).toBe(200);
    const { res } = await orderAsStudent();
    expect(res.status).toBe(502);
    expect(await row()).toMatchObject({ status: "disconnected", revokedAt: expect.any(Date) });
    const [center] = await t.database.db.select().from(centers).where(eq(centers.id, sunrise.id));
    expect(center.merchantAccountId).toBeNull();
    // The owner is told; the institute's paid items are 'Not on sale yet'.
    const listed = await (
      await t.request(`/api/institute/payment-account?centerId=${sunrise.id}`, { headers: bearer(owner.access_token) })
    ).json();
    expect(listed.connected).toBeNull();
    expect(listed.accounts[0]).toMatchObject({ id: accountId, needsReconnection: true });
    expect(MERCHANT_TEXTS.needsReconnection(razorpayAccountId)).toContain(razorpayAccountId);
    const later = await orderAsStudent();
    expect(later.res.status).toBe(409);
    // Connecting the same account again works.
    const again = await connectByOAuth(owner.access_token, sunrise.id, razorpayAccountId);
    expect(again.status).toBe(200);
    expect((await again.json()).account).toMatchObject({ razorpayAccountId, status: "connected" });
    expect((await orderAsStudent()).res.status).toBe(200);
  });

  it("no log line ever held a token", () => {
    expect(seenTokens.length).toBeGreaterThan(4);
    for (const line of logLines) for (const token of seenTokens) expect(line).not.toContain(token);
  });
});
