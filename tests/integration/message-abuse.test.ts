import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, desc, eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { centers, messages } from "../../server/db/schema/index.ts";
import { seminarToday } from "#common/validation/seminar.ts";
import { PHONE_TEXTS } from "#common/validation/phone-code.ts";
import { INTERNATIONAL_MESSAGES_TEXTS } from "#common/messages.ts";
import { NUMBER_TEXTS } from "../../server/messages/reachable-numbers.ts";
import { HOLD_REASONS, MESSAGE_LIMITS } from "../../server/messages/recipient-policy.ts";
import { RATE_RULES } from "../../server/services/rate-limit.ts";
import { requestContext, type RequestContext } from "../../server/middleware/context.ts";
import { loader as messagesPageLoader } from "../../app/routes/dashboard/messages.tsx";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser, uniqueEmail } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { adminToken } from "../helpers/payments.ts";

/**
 * Nobody uses the platform to message strangers (issue 37 §6): WhatsApp and SMS only to numbers
 * we may reach, daily limits on messages to addresses given in a request (per recipient, account,
 * network address and institute), one anonymous-form confirmation per address, no web address
 * from what people typed, and the admins see what was held back.
 */

let t: TestApp;
let ips = 0;
const fromNewIp = () => ({ "x-forwarded-for": `198.51.100.${++ips % 250}` });
let phones = 0;
/** An Indian mobile number no other test uses: +91 9 then nine digits. */
const newIndianNumber = () => `9${String(7_000_000_00 + ++phones).padStart(9, "0")}`;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
});
afterAll(() => t.close());

type Row = typeof messages.$inferSelect;

async function rowsTo(recipient: string, template?: string): Promise<Row[]> {
  return t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.recipient, recipient), template ? eq(messages.template, template) : undefined))
    .orderBy(desc(messages.createdAt));
}

const seminarDay = (days: number) => {
  const d = new Date(`${seminarToday()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

let bookings = 0;
async function book(values: { phone: string; email?: string; name?: string; days?: number; ip?: string }) {
  bookings += 1;
  const res = await postJson(
    t,
    "/api/book",
    {
      fullName: values.name ?? "Asha Rao",
      email: values.email ?? uniqueEmail("investor"),
      phoneNumber: values.phone,
      city: "Kolkata",
      country: "India",
      date: seminarDay(values.days ?? 7 + (bookings % 20)),
      time: "10:30 AM",
    },
    { headers: values.ip ? { "x-forwarded-for": values.ip } : fromNewIp() },
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return res;
}

async function enquire(
  center: { customDomain: string | null },
  values: { phone: string; email?: string; name?: string; message?: string; ip?: string },
) {
  const res = await postJson(
    t,
    "/api/enquiries",
    {
      name: values.name ?? "Ravi Kumar",
      phone: values.phone,
      email: values.email ?? "",
      message: values.message ?? "",
      kind: "Enquire",
    },
    { host: center.customDomain!, headers: values.ip ? { "x-forwarded-for": values.ip } : fromNewIp() },
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return res;
}

async function paidInstitute(name = "Sunrise Academy") {
  const owner = await registerUser(t, "business", { name: "Anita Sharma" });
  const center = await createCenter(t, owner.user._id, { instituteName: name });
  return { owner, center };
}

const notHeld = (row: Row | undefined) => {
  expect(row, "no message was written").toBeDefined();
  expect({ status: row!.status, why: row!.lastError }).not.toMatchObject({ status: "held" });
};
const heldFor = (row: Row | undefined, reason: string) => {
  expect(row, "no message was written").toBeDefined();
  expect({ status: row!.status, why: row!.lastError }).toEqual({ status: "held", why: reason });
};

describe("WhatsApp and SMS go only to numbers we may reach", () => {
  it("an anonymous booking or enquiry to a premium-rate or foreign number gets none; its e-mail goes", async () => {
    const premium = await book({ phone: "+1 900 555 0123", email: uniqueEmail("premium") });
    const email = (await premium.json()).booking.email as string;
    heldFor((await rowsTo("+19005550123"))[0], NUMBER_TEXTS.notMobile);
    notHeld((await rowsTo(email))[0]);

    await book({ phone: "+44 7400 123456" });
    heldFor((await rowsTo("+447400123456"))[0], NUMBER_TEXTS.outsideIndia);

    const { center } = await paidInstitute();
    await enquire(center, { phone: "+44 7400 123457" });
    heldFor((await rowsTo("+447400123457"))[0], NUMBER_TEXTS.outsideIndiaForInstitute);
    // Held messages are never sent: no job took them.
    expect((await rowsTo("+447400123457"))[0].transport).toBeNull();
  });

  it("an institute on a paid plan may switch on mobile numbers abroad; premium-rate numbers and free trials never", async () => {
    const { center } = await paidInstitute();
    await t.services.business.setInternationalMessages(center.id, true);
    await enquire(center, { phone: "+44 7400 123458" });
    notHeld((await rowsTo("+447400123458"))[0]);
    await enquire(center, { phone: "+1 900 555 0124" });
    heldFor((await rowsTo("+19005550124"))[0], NUMBER_TEXTS.notMobile);
    await t.services.business.setInternationalMessages(center.id, false);
    await enquire(center, { phone: "+44 7400 123460" });
    heldFor((await rowsTo("+447400123460"))[0], NUMBER_TEXTS.outsideIndiaForInstitute);

    const owner = await registerUser(t, "business");
    const trial = await createCenter(t, owner.user._id, { trialEndsAt: new Date(Date.now() + 7 * 86_400_000) });
    await expect(t.services.business.setInternationalMessages(trial.id, true)).rejects.toMatchObject({
      status: 403,
      message: INTERNATIONAL_MESSAGES_TEXTS.trial,
    });
    // Even a switch set behind the product's back does not open a free trial to numbers abroad.
    await t.database.db.update(centers).set({ internationalMessages: true }).where(eq(centers.id, trial.id));
    await enquire(trial, { phone: "+44 7400 123461" });
    heldFor((await rowsTo("+447400123461"))[0], NUMBER_TEXTS.outsideIndiaForInstitute);
  });

  it("a code is refused at once for a number we may not reach, and any other way to it is held", async () => {
    const account = await registerUser(t, "student");
    const asAccount = { headers: { ...bearer(account.access_token), ...fromNewIp() } };
    for (const [phone, error] of [
      ["+44 7400 123462", PHONE_TEXTS.notIndian],
      ["+1 900 555 0125", PHONE_TEXTS.notMobile],
      ["+91 1800 123 4567", PHONE_TEXTS.notMobile],
    ]) {
      const res = await postJson(t, "/api/auth/phone", { phone }, asAccount);
      expect(res.status, phone).toBe(400);
      expect((await res.json()).error, phone).toBe(error);
      const signIn = await postJson(t, "/api/auth/otp", { phone }, { headers: fromNewIp() });
      expect(signIn.status, phone).toBe(400);
    }
    expect(await rowsTo("+447400123462")).toEqual([]);
    expect(await rowsTo("+19005550125")).toEqual([]);

    // On the domain of an institute that switched numbers abroad on, its students may add one.
    const { center } = await paidInstitute();
    await t.services.business.setInternationalMessages(center.id, true);
    const student = await registerUser(t, "student", { host: center.customDomain! });
    const res = await postJson(
      t,
      "/api/auth/phone",
      { phone: "+44 7400 123463" },
      { host: center.customDomain!, headers: { ...bearer(student.access_token), ...fromNewIp() } },
    );
    expect(res.status).toBe(200);
    const sent = await rowsTo("+447400123463");
    expect(sent.map((r) => r.channel).sort()).toEqual(["sms", "whatsapp"]);
    for (const row of sent) notHeld(row);

    // Whatever writes a message, the policy is on the way: a code written straight to a premium number is held.
    await t.database.db.transaction((tx) =>
      t.services.messages.send(tx, {
        template: "phone-code",
        values: { code: "123456" },
        to: { phone: "+19005550126" },
      }),
    );
    const direct = await rowsTo("+19005550126");
    expect(direct).toHaveLength(2);
    for (const row of direct) heldFor(row, NUMBER_TEXTS.notMobile);
  });
});

describe("messages to addresses given in a request are limited per day", () => {
  it("per account: an account that asks for codes to many numbers gets ten codes' worth a day", async () => {
    const account = await registerUser(t, "student");
    const numbers = Array.from({ length: 11 }, newIndianNumber);
    for (const [i, number] of numbers.entries()) {
      // Codes are also limited to ten an hour per account: the eleventh is asked an hour later.
      if (i === 10) await t.services.rateLimiter.reset(RATE_RULES.phoneCodeAccount, account.user._id);
      const res = await postJson(
        t,
        "/api/auth/phone",
        { phone: number },
        { headers: { ...bearer(account.access_token), ...fromNewIp() } },
      );
      expect(res.status).toBe(200);
    }
    expect(MESSAGE_LIMITS.perAccount).toBe(20);
    for (const number of numbers.slice(0, 10)) for (const row of await rowsTo(`+91${number}`)) notHeld(row);
    const last = await rowsTo(`+91${numbers[10]}`);
    expect(last).toHaveLength(2);
    for (const row of last) heldFor(row, HOLD_REASONS.perAccount);
    expect(last[0].requestedBy).toBe(account.user._id);
  });

  it("per recipient: one address gets at most ten such messages a day, whoever asks", async () => {
    const { owner, center } = await paidInstitute("North Star Classes");
    const invitee = uniqueEmail("teacher");
    for (let i = 0; i < MESSAGE_LIMITS.perRecipient + 1; i++) {
      const res = await postJson(
        t,
        `/api/team/invitations?centerId=${center.id}`,
        { email: invitee },
        { headers: { ...bearer(owner.access_token), ...fromNewIp() } },
      );
      expect(res.status).toBeLessThan(300);
    }
    const rows = await rowsTo(invitee);
    expect(rows.filter((r) => r.status === "held")).toHaveLength(1);
    heldFor(rows[0], HOLD_REASONS.perRecipient);
  });

  it("per network address: thirty a day from one address, across forms", async () => {
    const ip = "192.0.2.77";
    const { owner, center } = await paidInstitute();
    // Ten bookings (a WhatsApp and an e-mail each), then enquiries (the same): the 31st message is held.
    for (let i = 0; i < 10; i++) await book({ phone: newIndianNumber(), ip });
    const given: string[] = [];
    for (let i = 0; i < 6; i++) {
      const number = newIndianNumber();
      given.push(number);
      await enquire(center, { phone: number, email: uniqueEmail("visitor"), ip });
    }
    for (const number of given.slice(0, 5)) notHeld((await rowsTo(`+91${number}`))[0]);
    const sixth = await rowsTo(`+91${given[5]}`);
    heldFor(sixth[0], HOLD_REASONS.perAddress);
    expect(sixth[0].requestedFrom).toBe(ip);
    // The institute's own lead notice is not a message to a stranger: it goes.
    const notices = await rowsTo(owner.email, "enquiry-received");
    expect(notices).toHaveLength(6);
    for (const row of notices) notHeld(row);
  });

  it("per institute: two hundred a day through one institute's site; yesterday's do not count", async () => {
    const { center } = await paidInstitute();
    const { center: other } = await paidInstitute();
    const day = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000);
    const earlier = (centerId: string, createdAt: Date) =>
      Array.from({ length: MESSAGE_LIMITS.perInstitute }, (_, i) => ({
        template: "enquiry-acknowledged",
        channel: "email" as const,
        recipient: `earlier.${centerId.slice(0, 8)}.${i}@example.com`,
        centerId,
        text: "Hello",
        status: "sent" as const,
        createdAt,
      }));
    await t.database.db.insert(messages).values(earlier(center.id, day(2)));
    await t.database.db.insert(messages).values(earlier(other.id, day(25)));
    const number = newIndianNumber();
    await enquire(center, { phone: number });
    heldFor((await rowsTo(`+91${number}`))[0], HOLD_REASONS.perInstitute);
    const another = newIndianNumber();
    await enquire(other, { phone: another });
    notHeld((await rowsTo(`+91${another}`))[0]);
  });
});

describe("an anonymous form's confirmation", () => {
  it("goes to an address once in 30 days, unless a number has proven itself on an account", async () => {
    const number = newIndianNumber();
    const email = uniqueEmail("twice");
    await book({ phone: number, email, days: 3 });
    for (const row of [...(await rowsTo(`+91${number}`)), ...(await rowsTo(email))]) notHeld(row);
    await book({ phone: number, email, days: 4 });
    const [whatsapp] = await rowsTo(`+91${number}`);
    const [mail] = await rowsTo(email);
    heldFor(whatsapp, HOLD_REASONS.confirmed);
    heldFor(mail, HOLD_REASONS.confirmed);
    // Another form, another institute: still once.
    const { center } = await paidInstitute();
    await enquire(center, { phone: number });
    heldFor((await rowsTo(`+91${number}`))[0], HOLD_REASONS.confirmed);

    // The number's owner verifies it on an account: it has proven itself.
    const account = await registerUser(t, "student");
    const asAccount = { headers: { ...bearer(account.access_token), ...fromNewIp() } };
    expect((await postJson(t, "/api/auth/phone", { phone: number }, asAccount)).status).toBe(200);
    const [code] = await rowsTo(`+91${number}`, "phone-code");
    const digits = /code is (\d{6})/.exec(code.text)![1];
    expect((await postJson(t, "/api/auth/phone/verify", { code: digits }, asAccount)).status).toBe(200);
    await book({ phone: number, days: 5 });
    notHeld((await rowsTo(`+91${number}`, "seminar-booked"))[0]);
  });

  it("is sent once when bookings to one number arrive together", async () => {
    const number = newIndianNumber();
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        postJson(
          t,
          "/api/book",
          {
            fullName: "Asha Rao",
            email: uniqueEmail(`together${i}`),
            phoneNumber: number,
            city: "Kolkata",
            country: "India",
            date: seminarDay(9),
            time: "10:30 AM",
          },
          { headers: fromNewIp() },
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    const rows = await rowsTo(`+91${number}`);
    expect(rows).toHaveLength(5);
    expect(rows.filter((r) => r.status !== "held")).toHaveLength(1);
  });
});

describe("text people typed", () => {
  const EVIL = /evil|bit\.ly|t\.me|wa\.me|https?:\/\/(?!localhost)/i;
  const everything = (row: Row) =>
    [row.subject ?? "", row.text, row.html ?? "", ...Object.values(row.values)].join("\n");

  it("never carries a web address to an address a visitor gave; the owner's notice keeps the words and links none", async () => {
    const { owner, center } = await paidInstitute("Sunrise evil.com Academy");
    const visitor = uniqueEmail("visitor");
    const number = newIndianNumber();
    await enquire(center, {
      name: "Ravi www.evil.com",
      phone: number,
      email: visitor,
      message: "Call me at https://evil.com/x or bit.ly/x",
    });
    const toVisitor = [...(await rowsTo(visitor)), ...(await rowsTo(`+91${number}`))];
    expect(toVisitor).toHaveLength(2);
    for (const row of toVisitor) {
      expect(everything(row)).not.toMatch(EVIL);
      expect(row.text).not.toContain("Ravi");
    }
    expect(toVisitor.find((r) => r.channel === "email")!.subject).toBe("Sunrise Academy has your enquiry");

    const [notice] = await rowsTo(owner.email, "enquiry-received");
    expect(notice.text).toContain("Message: Call me at https://evil.com/x or bit.ly/x");
    expect(notice.html).not.toContain('href="https://evil');
    expect(notice.html!.match(/<a href="([^"]+)"/g)).toEqual([
      expect.stringMatching(/^<a href="http:\/\/localhost(:\d+)?\/business\/leads"$/),
      expect.stringMatching(/^<a href="http:\/\/localhost(:\d+)?\/unsubscribe\//),
    ]);

    const booked = uniqueEmail("booked");
    await book({ phone: newIndianNumber(), email: booked, name: "Win at bit.ly/x" });
    const [confirmation] = await rowsTo(booked);
    expect(everything(confirmation)).not.toMatch(EVIL);
    expect(confirmation.text).toMatch(/^Hello, your seat at the Pathshala seminar is confirmed/);
  });

  it("loses its web addresses in messages to the addresses accounts give: welcomes and invitations", async () => {
    const student = await registerUser(t, "student", { name: "Asha t.me/x" });
    const [welcome] = await rowsTo(student.email, "welcome");
    expect(everything(welcome)).not.toMatch(EVIL);
    expect(welcome.text).toMatch(/^Hello Asha,/);

    const owner = await registerUser(t, "business", { name: "Boss wa.me/123" });
    const center = await createCenter(t, owner.user._id, { instituteName: "Bright evil.xyz Minds" });
    const invitee = uniqueEmail("teacher");
    const res = await postJson(
      t,
      `/api/team/invitations?centerId=${center.id}`,
      { email: invitee },
      { headers: { ...bearer(owner.access_token), ...fromNewIp() } },
    );
    expect(res.status).toBe(201);
    const [invitation] = await rowsTo(invitee);
    expect(everything(invitation)).not.toMatch(/evil|wa\.me/);
    expect(invitation.text).toMatch(/^Boss has invited you to teach with Bright Minds on Pathshala/);
  });
});

describe("admins see what was held back", () => {
  it("in the API and on the messages page, with why; the failed list stays failed only", async () => {
    await book({ phone: "+1 900 555 0199" });
    const [held] = await rowsTo("+19005550199");
    const token = await adminToken(t);
    const listed = await t.request("/api/messages?status=held", { headers: bearer(token) });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { messages: { id: string; status: string; error: string | null }[] };
    expect(body.messages.length).toBeGreaterThan(0);
    expect(body.messages.every((m) => m.status === "held")).toBe(true);
    expect(body.messages.find((m) => m.id === held.id)).toMatchObject({
      status: "held",
      error: NUMBER_TEXTS.notMobile,
    });

    const page = (show?: string) =>
      messagesPageLoader({
        request: new Request(`http://localhost/dashboard/messages${show ? `?show=${show}` : ""}`),
        params: {},
        context: contextWith(t),
      } as never);
    const heldPage = await page("held");
    expect(heldPage.shown).toBe("held");
    expect(heldPage.messages.find((m) => m.id === held.id)).toMatchObject({ error: NUMBER_TEXTS.notMobile });
    expect((await page()).messages.some((m) => m.status === "held")).toBe(false);
    expect((await page("all")).messages.map((m) => m.status)).toContain("held");
  });
});

describe("WhatsApp's subscription check", () => {
  let w: TestApp;
  beforeAll(async () => {
    w = await createTestApp({ WHATSAPP_APP_SECRET: "app-secret", WHATSAPP_VERIFY_TOKEN: "Verify-Me-42" });
  });
  afterAll(() => w.close());

  it("takes our verify token exactly: no other case, prefix, suffix or spaces", async () => {
    const check = (token: string) =>
      w.request(
        `/api/messages/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=4242`,
      );
    const ok = await check("Verify-Me-42");
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("4242");
    for (const token of [
      "verify-me-42",
      "VERIFY-ME-42",
      "Verify-Me-4",
      "Verify-Me-421",
      " Verify-Me-42",
      "Verify-Me-42 ",
    ]) {
      const res = await check(token);
      expect(res.status, JSON.stringify(token)).toBe(403);
      expect((await res.json()).error).toBe("Invalid verify token");
    }
  });
});

function contextWith(app: TestApp) {
  const provider = new RouterContextProvider();
  provider.set(requestContext, {
    requestId: "r1",
    auth: null,
    secure: false,
    meta: { ip: "127.0.0.1" },
    site: { kind: "platform", host: "localhost" },
    services: app.services,
  } as unknown as RequestContext);
  return provider;
}
