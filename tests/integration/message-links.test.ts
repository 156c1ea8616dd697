import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { messages } from "../../server/db/schema/index.ts";
import { createOrPromoteAdmin } from "../../server/services/admins.ts";
import { EMAIL_CHANGE_TEXTS, RESET_TEXTS } from "#common/validation/account-security.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser, uniqueEmail } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";

/**
 * Issue 37 §1: every link a message carries is built from where the account or institute lives
 * (the platform's configured address, an institute's bound domain or working address), never
 * from the request's Host or forwarded headers; a reset link works only on its own site; a
 * platform account is never reset through an institute's host. Run as behind the deploy's
 * proxy (TRUST_PROXY), where a client can send any X-Forwarded-* it likes.
 */

const PLATFORM = "pathshala.test";
const SUNRISE = "sunrise.edu.in"; // a bound custom domain
const VIDYA = `vidya.${PLATFORM}`; // a working address, no domain of its own
const ATTACKER = "evil-trial.example"; // an institute whose domain a stranger controls (a trial)

let t: TestApp;
let ips = 0;
const from = (headers: Record<string, string> = {}) => ({ "x-forwarded-for": `198.51.100.${++ips % 250}`, ...headers });

beforeAll(async () => {
  t = await createTestApp({
    PLATFORM_HOSTS: PLATFORM,
    PLATFORM_DOMAIN: PLATFORM,
    PLATFORM_URL: `https://${PLATFORM}`,
    TRUST_PROXY: "1",
  });
  await createCenter(t, null, { slug: "sunrise", customDomain: SUNRISE, instituteName: "Sunrise Academy" });
  await createCenter(t, null, { slug: "vidya", customDomain: null, instituteName: "Vidya Classes" });
  await createCenter(t, null, { slug: "legit", customDomain: ATTACKER, instituteName: "Totally Legit Classes" });
});
afterAll(() => t.close());

/** Every message written to `to` of `template`, oldest first, once work after the answers is done. */
async function written(to: string, template: string) {
  await t.services.afterAnswer.settled();
  return t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.recipient, to), eq(messages.template, template)))
    .orderBy(asc(messages.createdAt));
}

const LINK = /https?:\/\/[^\s"<>]+/g;
const linksIn = (text: string) => text.match(LINK) ?? [];
const tokenIn = (text: string, path: string) => new RegExp(`${path}\\?token=([a-z0-9]+)`).exec(text)![1];

const forgot = (email: string, host: string, headers: Record<string, string> = {}) =>
  postJson(t, "/api/auth/forgot", { email }, { host, headers: from(headers) });

/** An answer as the asker sees it: status, type and body, byte for byte. */
const answerOf = async (res: Response) => ({
  status: res.status,
  type: res.headers.get("content-type"),
  body: await res.text(),
});

describe("a password reset link", () => {
  it("leads to the institute's server-known address, whatever Host or X-Forwarded-* asked", async () => {
    const student = await registerUser(t, "student", { host: SUNRISE });
    await forgot(student.email, SUNRISE, {
      "x-forwarded-host": `${SUNRISE}:8443`,
      "x-forwarded-proto": "http",
    });
    const [mail] = await written(student.email, "password-reset");
    expect(linksIn(mail.text)).toEqual([expect.stringMatching(/^https:\/\/sunrise\.edu\.in\/reset-password\?token=/)]);

    const working = await registerUser(t, "student", { host: VIDYA });
    await forgot(working.email, VIDYA, { "x-forwarded-host": `${VIDYA}:1234` });
    const [other] = await written(working.email, "password-reset");
    expect(linksIn(other.text)).toEqual([
      expect.stringMatching(/^https:\/\/vidya\.pathshala\.test\/reset-password\?token=/),
    ]);
  });

  it("is never sent to a platform account, or another institute's student, asked on an institute's host: the answer is the same", async () => {
    const creator = await registerUser(t, "creator", { host: PLATFORM });
    const business = await registerUser(t, "business", { host: PLATFORM });
    const platformStudent = await registerUser(t, "student", { host: PLATFORM });
    const vidyaStudent = await registerUser(t, "student", { host: VIDYA });
    const admin = uniqueEmail("admin");
    await createOrPromoteAdmin(t.database.db, { email: admin, password: "admin-password-long-enough", name: "Admin" });
    const nobody = await answerOf(await forgot(uniqueEmail("nobody"), ATTACKER));
    expect(nobody).toEqual({
      status: 200,
      type: "application/json",
      body: JSON.stringify({ success: true, message: RESET_TEXTS.sent }),
    });

    const accounts = [creator.email, business.email, platformStudent.email, vidyaStudent.email, admin];
    for (const email of accounts) {
      // Straight to the stranger's domain, and through another institute's Host with a forged forward.
      expect(await answerOf(await forgot(email, ATTACKER))).toEqual(nobody);
      expect(await answerOf(await forgot(email, SUNRISE, { "x-forwarded-host": ATTACKER }))).toEqual(nobody);
      expect(await answerOf(await forgot(email, SUNRISE))).toEqual(nobody);
      expect(await written(email, "password-reset"), email).toHaveLength(0);
    }

    // Asked on the platform, each gets its link, to where it lives.
    for (const email of accounts) await forgot(email, PLATFORM, { "x-forwarded-host": `${PLATFORM}:9999` });
    for (const email of [creator.email, business.email, platformStudent.email, admin]) {
      const [mail] = await written(email, "password-reset");
      expect(linksIn(mail.text), email).toEqual([
        expect.stringMatching(/^https:\/\/pathshala\.test\/reset-password\?token=/),
      ]);
      expect(mail.centerId).toBeNull();
    }
    const [vidyaMail] = await written(vidyaStudent.email, "password-reset");
    expect(linksIn(vidyaMail.text)).toEqual([
      expect.stringMatching(/^https:\/\/vidya\.pathshala\.test\/reset-password\?token=/),
    ]);
  });

  it("works only on the site it leads to", async () => {
    const creator = await registerUser(t, "creator", { host: PLATFORM });
    await forgot(creator.email, PLATFORM);
    const creatorToken = tokenIn((await written(creator.email, "password-reset"))[0].text, "reset-password");
    const student = await registerUser(t, "student", { host: SUNRISE });
    await forgot(student.email, SUNRISE);
    const studentToken = tokenIn((await written(student.email, "password-reset"))[0].text, "reset-password");

    const reset = (token: string, host: string) =>
      postJson(t, "/api/auth/reset", { token, password: "a-brand-new-secret-42" }, { host, headers: from() });
    for (const [token, elsewhere] of [
      [creatorToken, SUNRISE],
      [creatorToken, ATTACKER],
      [studentToken, PLATFORM],
      [studentToken, VIDYA],
      [studentToken, ATTACKER],
    ]) {
      const refused = await reset(token, elsewhere);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toBe(RESET_TEXTS.invalid);
    }
    // Refused elsewhere, still good at home.
    expect((await reset(creatorToken, PLATFORM)).status).toBe(200);
    expect((await reset(studentToken, SUNRISE)).status).toBe(200);
    // The notice's way back leads home too.
    const [notice] = await written(student.email, "password-changed");
    expect(linksIn(notice.text)).toEqual(["https://sunrise.edu.in/forgot-password"]);
  });
});

describe("a sign-in code", () => {
  it("is sent only on the platform or the account's own institute, and works only on the site it was asked on", async () => {
    const creator = await registerUser(t, "creator", { host: PLATFORM });
    const auth = { ...bearer(creator.access_token) };
    const phone = "+919830055555";
    await postJson(t, "/api/auth/phone", { phone }, { host: PLATFORM, headers: from(auth) });
    const newest = async () => {
      const rows = await written(phone, "phone-code");
      return rows.filter((r) => r.channel === "whatsapp").at(-1)!;
    };
    const verify = /code is (\d{6})/.exec((await newest()).text)![1];
    expect(
      (await postJson(t, "/api/auth/phone/verify", { code: verify }, { host: PLATFORM, headers: auth })).status,
    ).toBe(200);
    const sentBefore = (await written(phone, "phone-code")).length;

    const ask = (host: string, headers: Record<string, string> = {}) =>
      postJson(t, "/api/auth/otp", { phone }, { host, headers: from(headers) });
    const nobody = await answerOf(await ask(ATTACKER, { "x-forwarded-host": ATTACKER }));
    expect(
      await answerOf(
        await postJson(t, "/api/auth/otp", { phone: "+919830066666" }, { host: ATTACKER, headers: from() }),
      ),
    ).toEqual(nobody);
    expect(await answerOf(await ask(SUNRISE))).toEqual(nobody);
    expect(await written(phone, "phone-code")).toHaveLength(sentBefore);

    await ask(PLATFORM);
    const code = /code is (\d{6})/.exec((await newest()).text)![1];
    expect((await newest()).centerId).toBeNull();
    const signIn = (host: string) => postJson(t, "/api/auth/otp/verify", { phone, code }, { host, headers: from() });
    expect((await signIn(ATTACKER)).status).toBe(400);
    expect((await signIn(PLATFORM)).status).toBe(200);
  });
});

describe("an e-mail change link", () => {
  it("leads to where the account lives, and works only there, wherever it was asked", async () => {
    const student = await registerUser(t, "student", { host: SUNRISE, name: "Ritu Das" });
    // Users are global: the same person signed in on another institute's site asks from there.
    const signedIn = await postJson(
      t,
      "/api/auth/login",
      { email: student.email, password: student.password },
      { host: ATTACKER, headers: from() },
    );
    const token = ((await signedIn.json()) as { access_token: string }).access_token;
    const newEmail = uniqueEmail("ritu-new");
    const asked = await postJson(
      t,
      "/api/auth/email",
      { email: newEmail, currentPassword: student.password },
      { host: ATTACKER, headers: from({ ...bearer(token), "x-forwarded-host": `${ATTACKER}:8080` }) },
    );
    expect(asked.status).toBe(200);
    const [mail] = await written(newEmail, "email-change");
    expect(linksIn(mail.text)).toEqual([expect.stringMatching(/^https:\/\/sunrise\.edu\.in\/confirm-email\?token=/)]);
    expect(mail.subject).toBe("Confirm your new Sunrise Academy e-mail");

    const confirm = (host: string) =>
      postJson(t, "/api/auth/email/confirm", { token: tokenIn(mail.text, "confirm-email") }, { host, headers: from() });
    for (const elsewhere of [ATTACKER, PLATFORM]) {
      const refused = await confirm(elsewhere);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toBe(EMAIL_CHANGE_TEXTS.invalid);
    }
    expect((await confirm(SUNRISE)).status).toBe(200);
  });
});

describe("links in other messages", () => {
  it("invite to the platform, whichever host the owner used", async () => {
    const owner = await registerUser(t, "business", { host: PLATFORM });
    const center = await createCenter(t, owner.user._id, { customDomain: "north-star.edu.in" });
    const signedIn = await postJson(
      t,
      "/api/auth/login",
      { email: owner.email, password: owner.password },
      { host: "north-star.edu.in", headers: from() },
    );
    const token = ((await signedIn.json()) as { access_token: string }).access_token;
    const invitee = uniqueEmail("teacher");
    const res = await postJson(
      t,
      `/api/team/invitations?centerId=${center.id}`,
      { email: invitee },
      {
        host: "north-star.edu.in",
        headers: from({ ...bearer(token), "x-forwarded-host": "north-star.edu.in:4443", "x-forwarded-proto": "http" }),
      },
    );
    expect(res.status).toBe(201);
    const { link } = (await res.json()) as { link: string };
    expect(link).toMatch(/^https:\/\/pathshala\.test\/invite\/[a-z2-7]{32}$/);
    const [mail] = await written(invitee, "team-invitation");
    expect(linksIn(mail.text)).toEqual([link]);
  });

  it("welcome each account to where it lives, and lead an owner to their leads on the platform", async () => {
    const student = await registerUser(t, "student", { host: VIDYA });
    const creator = await registerUser(t, "creator", { host: PLATFORM });
    expect(linksIn((await written(student.email, "welcome"))[0].text)).toEqual([
      "https://vidya.pathshala.test/student",
    ]);
    expect(linksIn((await written(creator.email, "welcome"))[0].text)).toEqual(["https://pathshala.test/creator"]);

    const owner = await registerUser(t, "business", { host: PLATFORM });
    await createCenter(t, owner.user._id, { customDomain: "leads.edu.in" });
    const res = await postJson(
      t,
      "/api/enquiries",
      { name: "Ravi Kumar", phone: "98765-12345", email: uniqueEmail("parent"), kind: "Enquire" },
      { host: "leads.edu.in", headers: from({ "x-forwarded-host": "leads.edu.in:8443" }) },
    );
    expect(res.status).toBe(201);
    expect(linksIn((await written(owner.email, "enquiry-received"))[0].text)).toEqual([
      "https://pathshala.test/business/leads",
    ]);
  });

  it("never name a host or port a request gave: every link in every message is a known address", async () => {
    await t.services.afterAnswer.settled();
    const rows = await t.database.db.select({ text: messages.text, html: messages.html }).from(messages);
    const known = new Set([PLATFORM, SUNRISE, VIDYA, "north-star.edu.in", "leads.edu.in", ATTACKER]);
    const hosts = rows.flatMap((r) => [...linksIn(r.text), ...linksIn(r.html ?? "")]).map((l) => new URL(l));
    expect(hosts.length).toBeGreaterThan(20);
    for (const url of hosts) {
      expect(known.has(url.hostname), url.href).toBe(true);
      expect(url.protocol, url.href).toBe("https:");
      expect(url.port, url.href).toBe("");
    }
    // Nothing was ever sent to be opened on the stranger's domain but what lives there.
    expect(hosts.filter((u) => u.hostname === ATTACKER)).toHaveLength(0);
  });
});
