import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, desc, eq } from "drizzle-orm";
import { messages } from "../../server/db/schema/index.ts";
import { PHONE_TEXTS } from "#common/validation/phone-code.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";

let t: TestApp;
let ips = 0;
const fromNewIp = () => ({ "x-forwarded-for": `198.18.0.${++ips}` });
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
});
afterAll(() => t.close());

/** The newest code sent to `phone` (on WhatsApp; the SMS carries the same), as the sandbox holds it. */
async function codeSentTo(phone: string): Promise<string> {
  const [row] = await t.database.db
    .select({ text: messages.text })
    .from(messages)
    .where(and(eq(messages.recipient, phone), eq(messages.channel, "whatsapp")))
    .orderBy(desc(messages.createdAt))
    .limit(1);
  return /code is (\d{6})/.exec(row?.text ?? "")?.[1] ?? "";
}

describe("a mobile number on an account", () => {
  it("is added with the code sent to it on WhatsApp and SMS, and then signs in with a code", async () => {
    const account = await registerUser(t, "student", { name: "Pooja Singh" });
    const asAccount = { headers: { ...bearer(account.access_token), ...fromNewIp() } };
    const bad = await postJson(t, "/api/auth/phone", { phone: "12345" }, asAccount);
    expect((await bad.json()).error).toBe(PHONE_TEXTS.invalid);

    const sent = await postJson(t, "/api/auth/phone", { phone: "98765 01234" }, asAccount);
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({
      success: true,
      phone: "+919876501234",
      message: PHONE_TEXTS.codeSent("+919876501234"),
    });
    const channels = await t.database.db
      .select({ channel: messages.channel })
      .from(messages)
      .where(eq(messages.recipient, "+919876501234"));
    expect(channels.map((c) => c.channel).sort()).toEqual(["sms", "whatsapp"]);
    const code = await codeSentTo("+919876501234");
    expect(code).toMatch(/^\d{6}$/);

    const wrong = await postJson(
      t,
      "/api/auth/phone/verify",
      { code: code === "000000" ? "111111" : "000000" },
      asAccount,
    );
    expect((await wrong.json()).error).toBe(PHONE_TEXTS.wrongCode);
    const ok = await postJson(t, "/api/auth/phone/verify", { code }, asAccount);
    expect(await ok.json()).toEqual({ success: true, phone: "+919876501234", message: PHONE_TEXTS.verified });
    expect(await t.services.phones.of(account.user._id)).toBe("+919876501234");
    // Spent: the same code does nothing more.
    expect((await postJson(t, "/api/auth/phone/verify", { code }, asAccount)).status).toBe(400);

    // Another account cannot take the number: asking answers as for any number (the code goes
    // to the phone), and only whoever holds the phone learns, from the code, that it is taken.
    const other = await registerUser(t, "student");
    const asOther = { headers: { ...bearer(other.access_token), ...fromNewIp() } };
    const taken = await postJson(t, "/api/auth/phone", { phone: "+91 98765 01234" }, asOther);
    expect(taken.status).toBe(200);
    expect(await taken.json()).toEqual({
      success: true,
      phone: "+919876501234",
      message: PHONE_TEXTS.codeSent("+919876501234"),
    });
    const verified = await postJson(t, "/api/auth/phone/verify", { code: await codeSentTo("+919876501234") }, asOther);
    expect(verified.status).toBe(409);
    expect((await verified.json()).error).toBe(PHONE_TEXTS.taken);
    expect(await t.services.phones.of(other.user._id)).toBeNull();
    expect(await t.services.phones.of(account.user._id)).toBe("+919876501234");

    // Signing in with a code.
    const ask = await postJson(t, "/api/auth/otp", { phone: "9876501234" }, { headers: fromNewIp() });
    expect(await ask.json()).toEqual({ success: true, message: PHONE_TEXTS.signInSent });
    await t.services.afterAnswer.settled();
    const signInCode = await codeSentTo("+919876501234");
    const signedIn = await postJson(t, "/api/auth/otp/verify", { phone: "9876501234", code: signInCode });
    expect(signedIn.status).toBe(200);
    const body = await signedIn.json();
    expect(body.user).toMatchObject({ email: account.email, name: "Pooja Singh" });
    expect((await t.request("/api/auth/profile", { headers: bearer(body.access_token) })).status).toBe(200);
    expect((await postJson(t, "/api/auth/otp/verify", { phone: "9876501234", code: signInCode })).status).toBe(400);
  });

  it("answers the same for a number no account has verified, and sends nothing", async () => {
    const ask = await postJson(t, "/api/auth/otp", { phone: "+91 70000 00001" }, { headers: fromNewIp() });
    expect(await ask.json()).toEqual({ success: true, message: PHONE_TEXTS.signInSent });
    await t.services.afterAnswer.settled();
    expect(await t.database.db.select().from(messages).where(eq(messages.recipient, "+917000000001"))).toHaveLength(0);
  });

  it("ends a code after five tries, even when they arrive together", async () => {
    const account = await registerUser(t, "creator");
    const asAccount = { headers: { ...bearer(account.access_token), ...fromNewIp() } };
    await postJson(t, "/api/auth/phone", { phone: "+91 91234 56789" }, asAccount);
    const code = await codeSentTo("+919123456789");
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const tries = await Promise.all(
      Array.from({ length: 8 }, () => postJson(t, "/api/auth/phone/verify", { code: wrong }, asAccount)),
    );
    expect(tries.every((r) => r.status === 400)).toBe(true);
    // The right code no longer works: every try was counted.
    expect((await postJson(t, "/api/auth/phone/verify", { code }, asAccount)).status).toBe(400);
  });
});
