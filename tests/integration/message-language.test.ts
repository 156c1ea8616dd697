import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { messages, users } from "../../server/db/schema/index.ts";
import { MESSAGE_LANGUAGE_TEXTS } from "#common/validation/message-language.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";

/**
 * The language of messages (issue 38 §6): an account's choice, else the institute's for messages
 * sent on its behalf, else English; as the sandbox outbox shows them.
 */

let t: TestApp;
let ips = 0;
const fromNewIp = () => ({ "x-forwarded-for": `198.51.100.${++ips}` });
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
});
afterAll(() => t.close());

type Sent = { channel: string; to: string; template: string; subject?: string; text: string };

/** The message of `template` to `to`, once the worker has sent it. */
async function sent(to: string, template: string): Promise<Sent> {
  let found: Sent | undefined;
  await expect
    .poll(
      async () => {
        const body = (await (await t.request("/_sandbox/outbox.json")).json()) as { messages: Sent[] };
        found = body.messages.find((m) => m.to === to && m.template === template);
        return Boolean(found);
      },
      { timeout: 10_000, interval: 100 },
    )
    .toBe(true);
  return found!;
}

const put = (path: string, body: unknown, token: string, host?: string) =>
  postJson(t, path, body, { method: "PUT", headers: bearer(token), host });

async function owner(name: string, language?: "en" | "hi") {
  const account = await registerUser(t, "business", { name: `${name} Owner` });
  const center = await createCenter(t, account.user._id, { instituteName: name });
  if (language) {
    const res = await put("/api/institute/message-language", { language, centerId: center.id }, account.access_token);
    expect(res.status).toBe(200);
  }
  return { account, center };
}

async function forgot(email: string, host?: string) {
  const res = await postJson(t, "/api/auth/forgot", { email }, { host, headers: fromNewIp() });
  expect(res.status).toBe(200);
}

describe("the language of messages", () => {
  it("is English for everyone until someone chooses", async () => {
    const account = await registerUser(t, "student");
    const me = await t.request("/api/auth/message-language", { headers: bearer(account.access_token) });
    expect(await me.json()).toEqual({ language: "institute" });
    const { account: ownerAccount, center } = await owner("Plain Classes");
    const ofInstitute = await t.request(`/api/institute/message-language?centerId=${center.id}`, {
      headers: bearer(ownerAccount.access_token),
    });
    expect(await ofInstitute.json()).toEqual({ language: "en" });
    expect((await sent(account.email, "welcome")).subject).toBe("Welcome to Pathshala");
  });

  it("sends a Hindi-choosing account the Hindi text of its messages", async () => {
    const account = await registerUser(t, "student", { name: "Meera Joshi" });
    const chosen = await put("/api/auth/message-language", { language: "hi" }, account.access_token);
    expect(chosen.status).toBe(200);
    expect(await chosen.json()).toEqual({
      success: true,
      message: "Your messages will now be in हिन्दी",
      language: "hi",
    });
    await forgot(account.email);
    const reset = await sent(account.email, "password-reset");
    expect(reset.subject).toBe("Pathshala: अपना पासवर्ड बदलें");
    expect(reset.text).toMatch(/^नमस्ते Meera Joshi,\n\nअपना Pathshala पासवर्ड बदलने के लिए यह लिंक खोलें/);
    const [row] = await t.database.db
      .select({ locale: messages.locale })
      .from(messages)
      .where(and(eq(messages.recipient, account.email), eq(messages.template, "password-reset")));
    expect(row.locale).toBe("hi");
  });

  it("sends e-mail, WhatsApp and SMS in the account's language, and tells the providers which", async () => {
    const account = await registerUser(t, "student", { name: "Arjun Rao" });
    await t.database.db
      .update(users)
      .set({ phone: "+919812345670", phoneVerifiedAt: new Date() })
      .where(eq(users.id, account.user._id));
    expect((await put("/api/auth/message-language", { language: "hi" }, account.access_token)).status).toBe(200);
    const changed = await put(
      "/api/auth/password",
      { currentPassword: account.password, password: "a-brand-new-secret-9" },
      account.access_token,
    );
    expect(changed.status).toBe(200);
    const mail = await sent(account.email, "password-changed");
    expect(mail.subject).toBe("आपका Pathshala पासवर्ड बदल दिया गया है");
    const whatsapp = await sent("+919812345670", "password-changed");
    expect(whatsapp.text).toMatch(/^नमस्ते Arjun Rao, आपका Pathshala पासवर्ड अभी बदला गया है।/);
    const rows = await t.database.db
      .select({ channel: messages.channel, locale: messages.locale })
      .from(messages)
      .where(and(eq(messages.userId, account.user._id), eq(messages.template, "password-changed")));
    expect(rows.map((r) => `${r.channel}:${r.locale}`).sort()).toEqual(["email:hi", "sms:hi", "whatsapp:hi"]);
  });

  it("applies an institute's choice to its students who have not chosen", async () => {
    const { center } = await owner("Vidya Niketan", "hi");
    const student = await registerUser(t, "student", { name: "Kiran Das", host: center.customDomain! });
    const welcome = await sent(student.email, "welcome");
    expect(welcome.subject).toBe("Vidya Niketan में आपका स्वागत है");
    expect(welcome.text).toMatch(/^नमस्ते Kiran Das,\n\nVidya Niketan पर आपका खाता बन गया है।/);
    await forgot(student.email, center.customDomain!);
    expect((await sent(student.email, "password-reset")).subject).toBe("Vidya Niketan: अपना पासवर्ड बदलें");
  });

  it("lets the account's choice win over the institute's, either way", async () => {
    const { center: hindi } = await owner("Saraswati Academy", "hi");
    const english = await registerUser(t, "student", { name: "Neha Gupta", host: hindi.customDomain! });
    const toEnglish = await put(
      "/api/auth/message-language",
      { language: "en" },
      english.access_token,
      hindi.customDomain!,
    );
    expect((await toEnglish.json()).message).toBe("Your messages will now be in English");
    await forgot(english.email, hindi.customDomain!);
    const reset = await sent(english.email, "password-reset");
    expect(reset.subject).toBe("Reset your Saraswati Academy password");
    expect(reset.text).toMatch(/^Hello Neha Gupta,/);

    const { center: plain } = await owner("Bright Future Tutorials", "en");
    const hindiStudent = await registerUser(t, "student", { name: "Rohit Verma", host: plain.customDomain! });
    expect((await sent(hindiStudent.email, "welcome")).subject).toBe("Welcome to Bright Future Tutorials");
    await put("/api/auth/message-language", { language: "hi" }, hindiStudent.access_token, plain.customDomain!);
    await forgot(hindiStudent.email, plain.customDomain!);
    expect((await sent(hindiStudent.email, "password-reset")).subject).toBe("Bright Future Tutorials: अपना पासवर्ड बदलें");

    // Back to the institute's choice: the institute decides again.
    const back = await put(
      "/api/auth/message-language",
      { language: "institute" },
      english.access_token,
      hindi.customDomain!,
    );
    expect(await back.json()).toEqual({
      success: true,
      message: "Your messages will now follow the institute's choice",
      language: "institute",
    });
    const [row] = await t.database.db
      .select({ language: users.messageLanguage })
      .from(users)
      .where(eq(users.id, english.user._id));
    expect(row.language).toBeNull();
  });

  it("gives each of many recipients of one event their own language (results released to every taker)", async () => {
    const { center } = await owner("Pragya Classes", "hi");
    const [follows, english, hindi] = await Promise.all(
      ["Asha", "Bela", "Chetan"].map((name) => registerUser(t, "student", { name, host: center.customDomain! })),
    );
    await put("/api/auth/message-language", { language: "en" }, english.access_token, center.customDomain!);
    await put("/api/auth/message-language", { language: "hi" }, hindi.access_token, center.customDomain!);
    await t.database.db.transaction((tx) =>
      t.services.messages.sendAll(
        tx,
        [follows, english, hindi].map((s) => ({
          template: "results-released" as const,
          values: { name: s.user.email, test: "JEE Main Mock 4", link: "https://example.test/result" },
          to: { email: s.email, userId: s.user._id },
          centerId: center.id,
        })),
      ),
    );
    expect((await sent(follows.email, "results-released")).subject).toBe("JEE Main Mock 4: आपका परिणाम आ गया है");
    expect((await sent(english.email, "results-released")).subject).toBe("Your result for JEE Main Mock 4 is out");
    expect((await sent(hindi.email, "results-released")).subject).toBe("JEE Main Mock 4: आपका परिणाम आ गया है");
  });

  it("refuses bad values with a clear message and changes nothing", async () => {
    const account = await registerUser(t, "student");
    await put("/api/auth/message-language", { language: "hi" }, account.access_token);
    for (const body of [
      { language: "fr" },
      { language: "HI" },
      { language: "" },
      { language: 7 },
      {},
      [],
      "not json",
    ]) {
      const res = await put("/api/auth/message-language", body, account.access_token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const answer = (await res.json()) as { success: boolean; error: string };
      expect(answer.success).toBe(false);
      // A body that is no JSON object gets the API's own words for that.
      if (typeof body === "object" && !Array.isArray(body))
        expect(answer.error).toBe(MESSAGE_LANGUAGE_TEXTS.accountInvalid);
    }
    const me = await t.request("/api/auth/message-language", { headers: bearer(account.access_token) });
    expect(await me.json()).toEqual({ language: "hi" });
    expect((await postJson(t, "/api/auth/message-language", { language: "en" }, { method: "PUT" })).status).toBe(401);

    const { account: ownerAccount, center } = await owner("Careful Classes", "hi");
    for (const language of ["institute", "english", "", null, undefined]) {
      const res = await put(
        "/api/institute/message-language",
        { language, centerId: center.id },
        ownerAccount.access_token,
      );
      expect(res.status, String(language)).toBe(400);
      expect((await res.json()).error).toBe(MESSAGE_LANGUAGE_TEXTS.instituteInvalid);
    }
    const ofInstitute = await t.request(`/api/institute/message-language?centerId=${center.id}`, {
      headers: bearer(ownerAccount.access_token),
    });
    expect(await ofInstitute.json()).toEqual({ language: "hi" });

    // Only the institute's owner chooses for it.
    const student = await put(
      "/api/institute/message-language",
      { language: "en", centerId: center.id },
      account.access_token,
    );
    expect(student.status).toBe(403);
    const { account: stranger } = await owner("Other Institute");
    const notTheirs = await put(
      "/api/institute/message-language",
      { language: "en", centerId: center.id },
      stranger.access_token,
    );
    expect(notTheirs.status).toBe(404);
    expect((await notTheirs.json()).error).toBe("Unknown institute");
    const still = await t.request(`/api/institute/message-language?centerId=${center.id}`, {
      headers: bearer(ownerAccount.access_token),
    });
    expect(await still.json()).toEqual({ language: "hi" });
  });
});
