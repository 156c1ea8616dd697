import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { messages } from "../../server/db/schema/index.ts";
import { seminarToday } from "#common/validation/seminar.ts";
import { UNSUBSCRIBE_TEXTS } from "#common/messages.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser, uniqueEmail } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { adminToken } from "../helpers/payments.ts";
import { enrol, publish, setContent } from "../helpers/learning.ts";
import { PermanentFailure } from "../../server/messages/transports/types.ts";
import { webhookSignature } from "../../server/payments/signatures.ts";

/** What the product sends on its events (issue 30 §5), as the sandbox outbox shows it. */

let t: TestApp;
let ips = 0;
const fromNewIp = () => ({ "x-forwarded-for": `203.0.113.${++ips}` });
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
});
afterAll(() => t.close());

type Sent = { channel: string; to: string; template: string; subject?: string; text: string };

/** Every message to `to`, once the worker has sent `count` of them. */
async function sentTo(to: string, count: number): Promise<Sent[]> {
  let found: Sent[] = [];
  await expect
    .poll(
      async () => {
        const body = (await (await t.request(`/_sandbox/outbox.json?to=${encodeURIComponent(to)}`)).json()) as {
          messages: Sent[];
        };
        found = body.messages;
        return found.length;
      },
      { timeout: 10_000, interval: 100 },
    )
    .toBe(count);
  return found;
}

describe("messages on the product's events", () => {
  it("welcomes a new account by e-mail, with a link to its area", async () => {
    const account = await registerUser(t, "creator", { name: "Kavya Nair" });
    const [welcome] = await sentTo(account.email, 1);
    expect(welcome).toMatchObject({ channel: "email", template: "welcome", subject: "Welcome to Pathshala" });
    expect(welcome.text).toContain("Hello Kavya Nair");
    expect(welcome.text).toContain("http://localhost:3000/creator");
  });

  it("confirms a seminar booking on WhatsApp (the number in E.164) and by e-mail", async () => {
    const email = uniqueEmail("investor");
    const date = new Date(`${seminarToday()}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() + 7);
    const res = await postJson(
      t,
      "/api/book",
      {
        fullName: "Asha Rao",
        email,
        phoneNumber: "98765 43210",
        city: "Kolkata",
        country: "India",
        date: date.toISOString().slice(0, 10),
        time: "10:30 AM",
      },
      { headers: fromNewIp() },
    );
    expect(res.status).toBe(201);
    const whatsapp = await sentTo("+919876543210", 1);
    expect(whatsapp[0]).toMatchObject({ channel: "whatsapp", template: "seminar-booked" });
    expect(whatsapp[0].text).toMatch(/^Hello, your seat at the Pathshala seminar is confirmed for .+ at 10:30 AM/);
    const mail = await sentTo(email, 1);
    expect(mail[0].subject).toBe("Your Pathshala seminar seat is confirmed");
  });

  it("tells the institute's owner of a new enquiry, with a link to their leads, and thanks the visitor", async () => {
    const owner = await registerUser(t, "business", { name: "Anita Sharma" });
    const center = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy" });
    const visitor = uniqueEmail("parent");
    const res = await postJson(
      t,
      "/api/enquiries",
      { name: "Ravi Kumar", phone: "98765-12345", email: visitor, program: "NEET UG", kind: "Book Demo" },
      { host: center.customDomain!, headers: fromNewIp() },
    );
    expect(res.status).toBe(201);
    const toOwner = (await sentTo(owner.email, 2)).find((m) => m.template !== "welcome")!;
    expect(toOwner).toMatchObject({ template: "enquiry-received", subject: "New Book Demo enquiry from Ravi Kumar" });
    expect(toOwner.text).toContain("Phone: 9876512345");
    expect(toOwner.text).toContain("Program: NEET UG");
    expect(toOwner.text).toContain("All your leads: http://localhost:3000/business/leads");
    const [thanks] = await sentTo(visitor, 1);
    expect(thanks).toMatchObject({ template: "enquiry-acknowledged", subject: "Sunrise Academy has your enquiry" });
    expect(await sentTo("+919876512345", 1)).toHaveLength(1);
  });

  it("e-mails a team invitation with its link, and writes nothing when the invitation is refused", async () => {
    const owner = await registerUser(t, "business", { name: "Vikram Sen" });
    const center = await createCenter(t, owner.user._id, { instituteName: "North Star Classes" });
    const invitee = uniqueEmail("teacher");
    const res = await postJson(
      t,
      `/api/team/invitations?centerId=${center.id}`,
      { email: invitee },
      { headers: bearer(owner.access_token) },
    );
    expect(res.status).toBe(201);
    const { link } = (await res.json()) as { link: string };
    const [mail] = await sentTo(invitee, 1);
    expect(mail).toMatchObject({ template: "team-invitation", subject: "Join North Star Classes's team on Pathshala" });
    expect(mail.text).toContain("Vikram Sen has invited you");
    expect(mail.text).toContain(link);

    const self = await postJson(
      t,
      `/api/team/invitations?centerId=${center.id}`,
      { email: owner.email },
      { headers: bearer(owner.access_token) },
    );
    expect(self.status).toBe(400);
    const toOwner = await t.database.db.select().from(messages).where(eq(messages.recipient, owner.email));
    expect(toOwner.map((m) => m.template)).toEqual(["welcome"]);
  });
});

describe("a message that keeps failing", () => {
  it("is marked failed after its retries, listed for admins with its error, and sent again by Retry", async () => {
    const to = uniqueEmail("bounce");
    // A transport that refuses for good: the message is failed at once, with the provider's words.
    const transports = (t.services.messages as unknown as { config: { transports: Record<string, unknown> } }).config
      .transports;
    const sandbox = transports.email as { name: string; send: (m: unknown) => Promise<{ providerId: string }> };
    transports.email = {
      name: "refusing",
      send: async () => {
        throw new PermanentFailure("SMTP answered 550: mailbox unavailable");
      },
    };
    try {
      await t.database.db.transaction((tx) =>
        t.services.messages.send(tx, {
          template: "welcome",
          values: { name: "Bounce", link: "http://localhost/" },
          to: { email: to },
        }),
      );
      await expect
        .poll(async () => (await t.database.db.select().from(messages).where(eq(messages.recipient, to)))[0]?.status, {
          timeout: 10_000,
        })
        .toBe("failed");
    } finally {
      transports.email = sandbox;
    }
    const admin = await adminToken(t);
    const listed = await t.request("/api/messages?status=failed", { headers: bearer(admin) });
    expect(listed.status).toBe(200);
    const failed = (
      (await listed.json()) as { messages: { id: string; to: string; error: string; status: string }[] }
    ).messages.find((m) => m.to === to)!;
    expect(failed).toMatchObject({ status: "failed", error: "SMTP answered 550: mailbox unavailable" });
    // Only admins see the outbox's list.
    expect(
      (await t.request("/api/messages", { headers: bearer((await registerUser(t, "business")).access_token) })).status,
    ).toBe(403);

    const retried = await postJson(t, `/api/messages/${failed.id}/retry`, {}, { headers: bearer(admin) });
    expect(retried.status).toBe(200);
    expect((await sentTo(to, 1))[0].template).toBe("welcome");
    const again = await postJson(t, `/api/messages/${failed.id}/retry`, {}, { headers: bearer(admin) });
    expect(again.status).toBe(404);
  });
});

describe("reminders from the clock", () => {
  it("remind enrolled students of a live class 15 minutes before, once however often the sweep runs", async () => {
    const creator = await registerUser(t, "creator");
    const student = await registerUser(t, "student", { name: "Neha Gupta" });
    const classId = await publish(t, creator.access_token, {
      title: "Organic chemistry doubts",
      type: "live",
      price: "0",
      liveLink: "https://meet.example.com/organic",
    });
    const startsAt = new Date(Date.now() + 40 * 60_000);
    await setContent(t, classId, { liveStartsAt: startsAt });
    expect((await enrol(t, student.access_token, classId)).status).toBe(201);

    await t.services.reminders.liveClasses(new Date(startsAt.getTime() - 30 * 60_000)); // too early
    await t.services.reminders.liveClasses(new Date(startsAt.getTime() - 15 * 60_000));
    await t.services.reminders.liveClasses(new Date(startsAt.getTime() - 14 * 60_000));
    const reminders = (await sentTo(student.email, 2)).filter((m) => m.template === "live-class-reminder");
    expect(reminders).toHaveLength(1);
    expect(reminders[0].subject).toMatch(/^Organic chemistry doubts starts at \d{1,2}:\d{2} (am|pm)$/i);
    expect(reminders[0].text).toContain("Hello Neha Gupta");
  });

  it("tell the owner their plan ends in 7 days, tomorrow and today, each once", async () => {
    const owner = await registerUser(t, "business", { name: "Sunita Rao" });
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    await createCenter(t, owner.user._id, { instituteName: "Lakshya Classes", expiresAt });
    const at = (daysBefore: number) => new Date(expiresAt.getTime() - daysBefore * 86_400_000);
    for (const now of [at(10), at(7), at(6), at(1), at(0.5), at(-0.1), at(-0.2), at(-2)])
      await t.services.reminders.planExpiry(now);
    const told = (await sentTo(owner.email, 4)).filter((m) => m.template === "plan-expiry").map((m) => m.subject);
    expect(told.sort()).toEqual([
      "Lakshya Classes's plan ends in 7 days",
      "Lakshya Classes's plan ends today",
      "Lakshya Classes's plan ends tomorrow",
    ]);
  });

  it("tell the owner of a free trial it ends, in the trial's own words", async () => {
    const owner = await registerUser(t, "business", { name: "Kiran Bose" });
    const endsAt = new Date(Date.now() + 14 * 86_400_000);
    await createCenter(t, owner.user._id, { instituteName: "Disha Tutorials", expiresAt: endsAt, trialEndsAt: endsAt });
    for (const days of [7, 6, 1, 0.5, -0.1])
      await t.services.reminders.planExpiry(new Date(endsAt.getTime() - days * 86_400_000));
    const told = (await sentTo(owner.email, 4)).filter((m) => m.template !== "welcome");
    expect(told.map((m) => m.template)).toEqual(["trial-ending", "trial-ending", "trial-ending"]);
    expect(told.map((m) => m.subject).sort()).toEqual([
      "Disha Tutorials's free trial ends in 7 days",
      "Disha Tutorials's free trial ends today",
      "Disha Tutorials's free trial ends tomorrow",
    ]);
    expect(told[0].text).toContain("Buy a plan to keep its website online; everything you have set up is kept");
  });
});

describe("opting out", () => {
  it("every e-mail links to a page that stops promotional e-mail for its address, after asking", async () => {
    const account = await registerUser(t, "student");
    await sentTo(account.email, 1);
    const [row] = await t.database.db.select().from(messages).where(eq(messages.recipient, account.email));
    const link = `/unsubscribe/${row.id}`;
    expect(row.html).toContain(`http://localhost:3000${link}`);

    const ask = await t.request(link);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain(UNSUBSCRIBE_TEXTS.ask(account.email));
    expect(await t.services.messages.optedOut("email", account.email)).toBe(false);

    const done = await t.request(link, { method: "POST" });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(UNSUBSCRIBE_TEXTS.doneBody(account.email));
    expect(await t.services.messages.optedOut("email", account.email)).toBe(true);
    expect(await (await t.request(link)).text()).toContain(UNSUBSCRIBE_TEXTS.doneBody(account.email));

    expect((await t.request("/unsubscribe/not-an-id")).status).toBe(404);
    expect((await t.request(`/unsubscribe/${crypto.randomUUID()}`, { method: "POST" })).status).toBe(404);
  });
});

describe("WhatsApp's webhook", () => {
  let w: TestApp;
  const secret = "whatsapp-app-secret-for-tests";
  beforeAll(async () => {
    w = await createTestApp({ WHATSAPP_APP_SECRET: secret, WHATSAPP_VERIFY_TOKEN: "verify-me" });
  });
  afterAll(() => w.close());

  const notify = (value: unknown, sign = secret) => {
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ changes: [{ field: "messages", value }] }],
    });
    return w.request("/api/messages/webhooks/whatsapp", {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${webhookSignature(sign, body)}` },
    });
  };

  it("records delivery statuses (never backwards), and STOP / START from a number", async () => {
    const [row] = await w.database.db
      .insert(messages)
      .values({
        template: "seminar-booked",
        channel: "whatsapp",
        recipient: "+919876543210",
        text: "Hello",
        status: "sent",
        transport: "whatsapp",
        providerId: "wamid.HBgM",
      })
      .returning();
    const statusOf = async () => (await w.database.db.select().from(messages).where(eq(messages.id, row.id)))[0];

    expect((await notify({ statuses: [{ id: "wamid.HBgM", status: "delivered" }] }, "someone-else")).status).toBe(400);
    expect((await statusOf()).status).toBe("sent");
    expect((await notify({ statuses: [{ id: "wamid.HBgM", status: "delivered" }] })).status).toBe(200);
    expect((await statusOf()).status).toBe("delivered");
    await notify({ statuses: [{ id: "wamid.HBgM", status: "read" }] });
    await notify({ statuses: [{ id: "wamid.HBgM", status: "delivered" }] });
    expect((await statusOf()).status).toBe("read");
    await notify({ statuses: [{ id: "wamid.HBgM", status: "failed", errors: [{ title: "Message undeliverable" }] }] });
    expect(await statusOf()).toMatchObject({ status: "failed", lastError: "Message undeliverable" });

    await notify({ messages: [{ from: "919876543210", type: "text", text: { body: "STOP" } }] });
    expect(await w.services.messages.optedOut("whatsapp", "+919876543210")).toBe(true);
    await notify({ messages: [{ from: "919876543210", type: "text", text: { body: "start" } }] });
    expect(await w.services.messages.optedOut("whatsapp", "+919876543210")).toBe(false);
  });

  it("answers Meta's subscription check only with our verify token", async () => {
    const check = (token: string) =>
      w.request(`/api/messages/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=987654`);
    const ok = await check("verify-me");
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("987654");
    expect((await check("guess")).status).toBe(403);
    // Without the secrets (the main test app), the webhook is not there.
    expect((await t.request("/api/messages/webhooks/whatsapp", { method: "POST", body: "{}" })).status).toBe(404);
  });
});

describe("MSG91's delivery reports", () => {
  let m: TestApp;
  beforeAll(async () => {
    m = await createTestApp({ MSG91_WEBHOOK_TOKEN: "msg91-token-for-tests" });
  });
  afterAll(() => m.close());

  const report = (body: string, type: string, token = "msg91-token-for-tests") =>
    m.request(`/api/messages/webhooks/msg91?token=${encodeURIComponent(token)}`, {
      method: "POST",
      body,
      headers: { "content-type": type },
    });

  it("marks each SMS delivered or failed with MSG91's reason, from webhook v3 (JSON) and v2 (form); only with our token", async () => {
    const sms = async (providerId: string) =>
      (
        await m.database.db
          .insert(messages)
          .values({
            template: "phone-code",
            channel: "sms",
            recipient: "+919830012345",
            text: "Your code",
            status: "sent",
            transport: "msg91",
            providerId,
          })
          .returning()
      )[0];
    const stateOf = async (id: string) => (await m.database.db.select().from(messages).where(eq(messages.id, id)))[0];
    const delivered = await sms("3461706b6a4d313330");
    const refused = await sms("3461706b6a4d313331");

    const v3 = JSON.stringify({
      requestId: "3461706b6a4d313330",
      status: "1",
      desc: "DELIVERED",
      number: "919830012345",
    });
    const guessed = await report(v3, "application/json", "guess");
    expect(guessed.status).toBe(403);
    expect((await guessed.json()).error).toBe("Invalid webhook token");
    expect((await stateOf(delivered.id)).status).toBe("sent");
    const ok = await report(v3, "application/json");
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, statuses: 1 });
    expect((await stateOf(delivered.id)).status).toBe("delivered");

    const v2 = new URLSearchParams({
      data: JSON.stringify([
        {
          senderId: "PTHSLA",
          requestId: "3461706b6a4d313331",
          report: [{ status: "17", desc: "NDNC", failedReason: "Number is in DND", number: "919830012345" }],
        },
      ]),
    }).toString();
    expect((await report(v2, "application/x-www-form-urlencoded")).status).toBe(200);
    expect(await stateOf(refused.id)).toMatchObject({ status: "failed", lastError: "MSG91: Number is in DND" });

    const junk = await report("{}", "application/json");
    expect(junk.status).toBe(400);
    expect((await junk.json()).error).toBe("The webhook's body is not an MSG91 delivery report");
    // Without the token set (the main test app), the webhook is not there.
    expect((await t.request("/api/messages/webhooks/msg91?token=x", { method: "POST", body: v3 })).status).toBe(404);
  });
});

describe("the sandbox outbox", () => {
  it("switched on (MESSAGES_SANDBOX=1), is there whatever the Host: the switch decides, not the request", async () => {
    const center = await createCenter(t, null, { instituteName: "Public Academy" });
    for (const host of ["localhost", "demo-t1.localhost", center.customDomain!, "pathshala.example.com"]) {
      expect((await t.request("/_sandbox/outbox.json", { host })).status).toBe(200);
      expect((await t.request("/_sandbox/outbox", { host })).status).toBe(200);
    }
  });

  it("lists only the messages to one address when asked with ?to=", async () => {
    const first = await registerUser(t, "creator", { name: "Ira Sen" });
    const second = await registerUser(t, "creator", { name: "Om Rao" });
    await sentTo(second.email, 1);
    const [mine] = await sentTo(first.email, 1);
    expect(mine.text).toContain("Hello Ira Sen");
    const all = (await (await t.request("/_sandbox/outbox.json")).json()) as { messages: Sent[] };
    expect(all.messages.map((m) => m.to)).toEqual(expect.arrayContaining([first.email, second.email]));
    const page = await (await t.request(`/_sandbox/outbox?to=${encodeURIComponent(first.email)}`)).text();
    expect(page).toContain(`E-mail to ${first.email}`);
    expect(page).not.toContain(second.email);
  });
});
