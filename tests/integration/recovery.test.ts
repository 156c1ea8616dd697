import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, desc, eq } from "drizzle-orm";
import { messages } from "../../server/db/schema/index.ts";
import { EMAIL_CHANGE_TEXTS, RESET_TEXTS } from "#common/validation/account-security.ts";
import { PHONE_TEXTS } from "#common/validation/phone-code.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser, uniqueEmail } from "../helpers/http.ts";

/**
 * Issue 37 §7: recovery wins over an attacker. A password reset (or change) cancels every
 * pending e-mail change, sign-in code and other reset link and signs the account out; an e-mail
 * change voids outstanding reset links; the account is told on its old and new channels.
 */

let t: TestApp;
let ips = 0;
const from = (headers: Record<string, string> = {}) => ({ "x-forwarded-for": `192.0.2.${++ips % 250}`, ...headers });
let phones = 0;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
});
afterAll(() => t.close());

async function written(to: string, template: string) {
  await t.services.afterAnswer.settled();
  return t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.recipient, to), eq(messages.template, template)))
    .orderBy(asc(messages.createdAt));
}

const tokenIn = (text: string, path: string) => new RegExp(`${path}\\?token=([a-z0-9]+)`).exec(text)![1];

/** The newest code sent to `phone` on WhatsApp. */
async function codeSentTo(phone: string): Promise<string> {
  await t.services.afterAnswer.settled();
  const [row] = await t.database.db
    .select({ text: messages.text })
    .from(messages)
    .where(and(eq(messages.recipient, phone), eq(messages.channel, "whatsapp"), eq(messages.template, "phone-code")))
    .orderBy(desc(messages.createdAt))
    .limit(1);
  return /code is (\d{6})/.exec(row?.text ?? "")![1];
}

/** An account with a verified mobile number, a second session, and one of each way in left open. */
async function accountWithOpenWays() {
  const account = await registerUser(t, "student", { name: "Neha Gupta" });
  const auth = bearer(account.access_token);
  const phone = `+9198300${String(++phones).padStart(5, "0")}`;
  await postJson(t, "/api/auth/phone", { phone }, { headers: from(auth) });
  const verified = await postJson(t, "/api/auth/phone/verify", { code: await codeSentTo(phone) }, { headers: auth });
  expect(verified.status).toBe(200);
  const second = await postJson(t, "/api/auth/login", { email: account.email, password: account.password });
  const elsewhere = bearer(((await second.json()) as { access_token: string }).access_token);

  // Open: two reset links, an e-mail change, a sign-in code.
  await postJson(t, "/api/auth/forgot", { email: account.email }, { headers: from() });
  await postJson(t, "/api/auth/forgot", { email: account.email }, { headers: from() });
  const resets = (await written(account.email, "password-reset")).map((m) => tokenIn(m.text, "reset-password"));
  expect(resets).toHaveLength(2);
  const newEmail = uniqueEmail("takeover");
  await postJson(t, "/api/auth/email", { email: newEmail, currentPassword: account.password }, { headers: auth });
  const emailChange = tokenIn((await written(newEmail, "email-change"))[0].text, "confirm-email");
  await postJson(t, "/api/auth/otp", { phone }, { headers: from() });
  const signInCode = await codeSentTo(phone);
  return { account, auth, elsewhere, phone, resets, newEmail, emailChange, signInCode };
}

const reset = (token: string, password = "a-brand-new-secret-42") =>
  postJson(t, "/api/auth/reset", { token, password });

/** Every open way in is closed: links, the e-mail change, the code. */
async function expectAllClosed(ways: Awaited<ReturnType<typeof accountWithOpenWays>>, resets: string[]) {
  for (const token of resets)
    expect((await (await reset(token, "yet-another-secret-42")).json()).error).toBe(RESET_TEXTS.invalid);
  const confirm = await postJson(t, "/api/auth/email/confirm", { token: ways.emailChange });
  expect((await confirm.json()).error).toBe(EMAIL_CHANGE_TEXTS.invalid);
  const code = await postJson(t, "/api/auth/otp/verify", { phone: ways.phone, code: ways.signInCode });
  expect((await code.json()).error).toBe(PHONE_TEXTS.wrongCode);
}

describe("a password reset", () => {
  it("cancels the other reset links, the pending e-mail change and the sign-in code, signs every session out, and tells e-mail and phone", async () => {
    const ways = await accountWithOpenWays();
    const [first, ...others] = ways.resets;
    expect((await reset(first)).status).toBe(200);

    await expectAllClosed(ways, others);
    for (const session of [ways.auth, ways.elsewhere])
      expect((await t.request("/api/auth/profile", { headers: session })).status).toBe(401);
    // The e-mail never moved to the address the attacker asked for.
    expect(
      (await postJson(t, "/api/auth/login", { email: ways.newEmail, password: "a-brand-new-secret-42" })).status,
    ).toBe(401);
    expect(
      (await postJson(t, "/api/auth/login", { email: ways.account.email, password: "a-brand-new-secret-42" })).status,
    ).toBe(200);

    const toMail = await written(ways.account.email, "password-changed");
    const toPhone = await written(ways.phone, "password-changed");
    expect(toMail).toHaveLength(1);
    expect(toPhone.map((m) => m.channel).sort()).toEqual(["sms", "whatsapp"]);
    expect(toPhone[0].text).toContain("the password of your Pathshala account was just changed");
  });
});

describe("a password change while signed in", () => {
  it("cancels every reset link, e-mail change and code too, and signs the other sessions out", async () => {
    const ways = await accountWithOpenWays();
    const changed = await postJson(
      t,
      "/api/auth/password",
      { currentPassword: ways.account.password, password: "a-brand-new-secret-42" },
      { method: "PUT", headers: ways.auth },
    );
    expect(changed.status).toBe(200);
    await expectAllClosed(ways, ways.resets);
    expect((await t.request("/api/auth/profile", { headers: ways.auth })).status).toBe(200);
    expect((await t.request("/api/auth/profile", { headers: ways.elsewhere })).status).toBe(401);
    expect((await written(ways.phone, "password-changed")).map((m) => m.channel).sort()).toEqual(["sms", "whatsapp"]);
  });
});

describe("an e-mail change", () => {
  it("voids the reset links sent before it, and tells the old address, the phone and the new address", async () => {
    const account = await registerUser(t, "creator", { name: "Farhan Ali" });
    const auth = bearer(account.access_token);
    const phone = `+9198300${String(++phones).padStart(5, "0")}`;
    await postJson(t, "/api/auth/phone", { phone }, { headers: from(auth) });
    await postJson(t, "/api/auth/phone/verify", { code: await codeSentTo(phone) }, { headers: auth });
    await postJson(t, "/api/auth/forgot", { email: account.email }, { headers: from() });
    const oldLink = tokenIn((await written(account.email, "password-reset"))[0].text, "reset-password");

    const newEmail = uniqueEmail("farhan-new");
    const other = uniqueEmail("farhan-other");
    for (const email of [newEmail, other])
      await postJson(t, "/api/auth/email", { email, currentPassword: account.password }, { headers: auth });
    const token = tokenIn((await written(newEmail, "email-change"))[0].text, "confirm-email");
    expect((await postJson(t, "/api/auth/email/confirm", { token })).status).toBe(200);

    // The link sent to the old address no longer takes the account back, nor does the other pending change.
    expect((await (await reset(oldLink)).json()).error).toBe(RESET_TEXTS.invalid);
    const otherToken = tokenIn((await written(other, "email-change"))[0].text, "confirm-email");
    expect((await (await postJson(t, "/api/auth/email/confirm", { token: otherToken })).json()).error).toBe(
      EMAIL_CHANGE_TEXTS.invalid,
    );

    const toOld = await written(account.email, "email-changed");
    const toNew = await written(newEmail, "email-changed");
    const toPhone = await written(phone, "email-changed");
    expect(toOld).toHaveLength(1);
    expect(toNew).toHaveLength(1);
    expect(toPhone.map((m) => m.channel).sort()).toEqual(["sms", "whatsapp"]);
    expect(toOld[0].text).toContain(`now signs in with ${newEmail}`);
  });
});
