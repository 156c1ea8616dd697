import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { messages, passwordResets } from "../../server/db/schema/index.ts";
import { EMAIL_CHANGE_TEXTS, RESET_TEXTS } from "#common/validation/account-security.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser, uniqueEmail } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface OutboxMessage {
  id: string;
  channel: string;
  to: string;
  template: string;
  subject?: string;
  from?: string;
  text: string;
  createdAt: string;
}

/** The sandbox outbox's newest message to `to` (of `template`, if given), once the worker has delivered it. */
async function delivered(to: string, template?: string): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const res = await t.request("/_sandbox/outbox.json");
        const body = (await res.json()) as { messages: OutboxMessage[] };
        found = body.messages.find((m) => m.to === to && (!template || m.template === template));
        return found;
      },
      { timeout: 10_000, interval: 100 },
    )
    .toBeDefined();
  return found!;
}

const linkIn = (text: string) => /https?:\/\/\S+\/reset-password\?token=([a-z0-9]+)/.exec(text);

describe("a forgotten password", () => {
  it("is reset from the link in the outbox: the new password works, the old one and every session do not, the link works once", async () => {
    const account = await registerUser(t, "creator", { name: "Meera Iyer" });
    const asked = await postJson(t, "/api/auth/forgot", { email: account.email.toUpperCase() });
    expect(asked.status).toBe(200);
    expect(await asked.json()).toEqual({ success: true, message: RESET_TEXTS.sent });

    const mail = await delivered(account.email, "password-reset");
    expect(mail).toMatchObject({
      channel: "email",
      template: "password-reset",
      subject: "Reset your Pathshala password",
      from: "Pathshala",
    });
    expect(mail.text).toContain("Hello Meera Iyer");
    const link = linkIn(mail.text);
    // The platform's configured address (its first host, the server's port), not the request's Host.
    expect(link?.[0]).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=/);
    const token = link![1];
    // Only the token's hash is stored.
    const [stored] = await t.database.db.select().from(passwordResets);
    expect(stored.id).not.toContain(token);

    const weak = await postJson(t, "/api/auth/reset", { token, password: "short" });
    expect(weak.status).toBe(400);
    const reset = await postJson(t, "/api/auth/reset", { token, password: "a-brand-new-secret-42" });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toEqual({ success: true, message: RESET_TEXTS.done });

    const old = await postJson(t, "/api/auth/login", { email: account.email, password: account.password });
    expect(old.status).toBe(401);
    const fresh = await postJson(t, "/api/auth/login", { email: account.email, password: "a-brand-new-secret-42" });
    expect(fresh.status).toBe(200);
    // The session from before the reset is signed out.
    expect((await t.request("/api/auth/profile", { headers: bearer(account.access_token) })).status).toBe(401);

    const again = await postJson(t, "/api/auth/reset", { token, password: "yet-another-secret-42" });
    expect(again.status).toBe(400);
    expect((await again.json()).error).toBe(RESET_TEXTS.invalid);
  });

  it("answers the same for an address no account uses, and sends nothing", async () => {
    const nobody = uniqueEmail("nobody");
    const asked = await postJson(t, "/api/auth/forgot", { email: nobody });
    expect(asked.status).toBe(200);
    expect(await asked.json()).toEqual({ success: true, message: RESET_TEXTS.sent });
    await t.services.afterAnswer.settled();
    const rows = await t.database.db.select().from(messages).where(eq(messages.recipient, nobody));
    expect(rows).toHaveLength(0);
  });

  it("refuses a made-up or expired token with the product's words, and a bad email with its rule", async () => {
    const made = await postJson(t, "/api/auth/reset", { token: "notarealtoken", password: "a-brand-new-secret-42" });
    expect(made.status).toBe(400);
    expect((await made.json()).error).toBe(RESET_TEXTS.invalid);

    const account = await registerUser(t, "student");
    await postJson(t, "/api/auth/forgot", { email: account.email });
    const token = linkIn((await delivered(account.email, "password-reset")).text)![1];
    await t.database.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await postJson(t, "/api/auth/reset", { token, password: "a-brand-new-secret-42" });
    expect((await expired.json()).error).toBe(RESET_TEXTS.invalid);

    const bad = await postJson(t, "/api/auth/forgot", { email: "not an email" });
    expect(bad.status).toBe(400);
  });

  it("on an institute's domain, links its student back to that domain under the institute's name", async () => {
    const center = await createCenter(t, null, { instituteName: "Sunrise Academy" });
    const host = center.customDomain!;
    const student = await registerUser(t, "student", { host });
    await postJson(t, "/api/auth/forgot", { email: student.email }, { host });
    const mail = await delivered(student.email, "password-reset");
    expect(mail.subject).toBe("Reset your Sunrise Academy password");
    expect(mail.from).toBe("Sunrise Academy via Pathshala");
    // The institute's bound domain, as the server knows it (a public host: https).
    expect(linkIn(mail.text)?.[0]).toMatch(new RegExp(`^https://${host.replace(/\./g, "\\.")}/reset-password`));
  });
});

describe("the outbox", () => {
  it("keeps a message only when its event commits", async () => {
    const to = uniqueEmail("rollback");
    await t.database.db
      .transaction(async (tx) => {
        await t.services.messages.send(tx, {
          template: "welcome",
          values: { name: "Nobody", link: "http://localhost/" },
          to: { email: to },
        });
        throw new Error("the event failed");
      })
      .catch(() => {});
    const committed = uniqueEmail("commit");
    await t.database.db.transaction((tx) =>
      t.services.messages.send(tx, {
        template: "welcome",
        values: { name: "Asha", link: "http://localhost/" },
        to: { email: committed },
      }),
    );
    await delivered(committed);
    expect(await t.database.db.select().from(messages).where(eq(messages.recipient, to))).toHaveLength(0);
  });
});

describe("changing a password while signed in", () => {
  it("needs the current password, keeps this session, signs out the others, and tells the account", async () => {
    const account = await registerUser(t, "student", { name: "Arjun Mehta" });
    const elsewhere = await postJson(t, "/api/auth/login", { email: account.email, password: account.password });
    const otherToken = ((await elsewhere.json()) as { access_token: string }).access_token;
    const change = (body: unknown) =>
      postJson(t, "/api/auth/password", body, { method: "PUT", headers: bearer(account.access_token) });

    const wrong = await change({ currentPassword: "not-my-password", password: "a-brand-new-secret-42" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe(RESET_TEXTS.wrongCurrent);
    const common = await change({ currentPassword: account.password, password: "password123" });
    expect(common.status).toBe(400);

    const ok = await change({ currentPassword: account.password, password: "a-brand-new-secret-42" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, message: RESET_TEXTS.changed });
    expect((await t.request("/api/auth/profile", { headers: bearer(account.access_token) })).status).toBe(200);
    expect((await t.request("/api/auth/profile", { headers: bearer(otherToken) })).status).toBe(401);
    const signIn = await postJson(t, "/api/auth/login", { email: account.email, password: "a-brand-new-secret-42" });
    expect(signIn.status).toBe(200);

    const notice = (await delivered(account.email, "password-changed")).text;
    expect(notice).toContain("the password of your Pathshala account was just changed");
    expect(notice).toContain("http://localhost:3000/forgot-password");
    // Not signed in: no change.
    expect(
      (await postJson(t, "/api/auth/password", { currentPassword: "x", password: "y" }, { method: "PUT" })).status,
    ).toBe(401);
  });
});

describe("changing the e-mail", () => {
  it("needs the current password, changes when the link sent to the new address is opened, and tells the old one", async () => {
    const account = await registerUser(t, "creator", { name: "Ishaan Roy" });
    const newEmail = uniqueEmail("new-address");
    const ask = (body: unknown) => postJson(t, "/api/auth/email", body, { headers: bearer(account.access_token) });
    expect((await (await ask({ email: newEmail, currentPassword: "wrong-one" })).json()).error).toBe(
      RESET_TEXTS.wrongCurrent,
    );
    expect((await ask({ email: account.email, currentPassword: account.password })).status).toBe(400);
    const taken = await registerUser(t, "student");
    expect((await ask({ email: taken.email, currentPassword: account.password })).status).toBe(409);

    const sent = await ask({ email: newEmail, currentPassword: account.password });
    expect(await sent.json()).toEqual({ success: true, message: EMAIL_CHANGE_TEXTS.sent(newEmail) });
    const mail = await delivered(newEmail, "email-change");
    expect(mail.subject).toBe("Confirm your new Pathshala e-mail");
    const token = /confirm-email\?token=([a-z0-9]+)/.exec(mail.text)![1];
    // Nothing changes until the link is opened.
    expect((await postJson(t, "/api/auth/login", { email: account.email, password: account.password })).status).toBe(
      200,
    );

    const confirmed = await postJson(t, "/api/auth/email/confirm", { token });
    expect(await confirmed.json()).toEqual({
      success: true,
      email: newEmail,
      message: EMAIL_CHANGE_TEXTS.done(newEmail),
    });
    expect((await postJson(t, "/api/auth/login", { email: newEmail, password: account.password })).status).toBe(200);
    expect((await postJson(t, "/api/auth/login", { email: account.email, password: account.password })).status).toBe(
      401,
    );
    const profile = await (await t.request("/api/auth/profile", { headers: bearer(account.access_token) })).json();
    expect(profile.user.email).toBe(newEmail);
    await expect
      .poll(async () => {
        const body = (await (await t.request("/_sandbox/outbox.json")).json()) as { messages: OutboxMessage[] };
        return body.messages.filter((m) => m.to === account.email).map((m) => m.subject);
      })
      .toContain("Your Pathshala e-mail was changed");
    const again = await postJson(t, "/api/auth/email/confirm", { token });
    expect((await again.json()).error).toBe(EMAIL_CHANGE_TEXTS.invalid);
  });
});
