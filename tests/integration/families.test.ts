import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq, like } from "drizzle-orm";
import { guardians, memberships, messages, parentConsents, users } from "../../server/db/schema/index.ts";
import { feeReminderRecipients } from "../../server/messages/fee-reminders.ts";
import type { TestApp } from "../helpers/app.ts";
import { createListeningTestApp } from "../helpers/payments.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import {
  addRegister,
  addSession,
  admitStudents,
  grantRole,
  makeBatch,
  markAll,
  verifyPhone,
} from "../helpers/attendance-rows.ts";
import { CONSENT_NOTICE_VERSION, FAMILY_TEXTS, consentNotice } from "#common/family.ts";
import { ONLY_YOUR_CHILDREN } from "#common/validation/attendance-reports.ts";

/**
 * Parents (issue 41, decision 0047): the institute or the student invites a parent by mobile
 * number; the link (to the institute's own site, whatever host the request came to) shows the
 * consent notice; the parent proves the number with a code sent to it and answers; the answer is
 * recorded word for word; a linked parent reaches their own children's attendance, fees, results
 * and week, never another family's; absence alerts and fee reminders reach them; withdrawing
 * consent ends all of it at once.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let otherOwner: Account;
let asha: Account;
let bilal: Account;
let esha: Account;
let sunrise: { id: string; host: string };
let vidya: { id: string; host: string };
let morning: { _id: string; name: string };

const PARENT_PHONE = "+919830000201";
const OTHER_PARENT_PHONE = "+919830000202";
const MINUTE = 60_000;
const T0 = new Date("2027-05-10T04:30:00Z");

const latest = async (recipient: string, template: string) =>
  (
    await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.recipient, recipient), eq(messages.template, template)))
      .orderBy(asc(messages.createdAt))
  ).at(-1);
const codeSentTo = async (phone: string) => /\b(\d{6})\b/.exec((await latest(phone, "phone-code"))!.text)![1];

const invite = (
  token: string,
  studentId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) => postJson(t, `/api/students/${studentId}/parents`, body, { headers: { ...bearer(token), ...headers } });
const tokenOf = (link: string) => link.split("/family/")[1];

/** Invites a parent for `student` and answers as a new account made on the invited number; the parent's tokens and link id. */
async function linkNewParent(student: Account, centerId: string, host: string, phone: string, name: string) {
  const made = await (
    await invite(owner.access_token, student.user._id, { centerId, name, relation: "mother", phone })
  ).json();
  const token = tokenOf(made.link);
  expect((await postJson(t, `/api/family/invitations/${token}/code`, {}, { host })).status).toBe(200);
  const answered = await postJson(
    t,
    `/api/family/invitations/${token}/answer`,
    {
      answer: "granted",
      noticeVersion: CONSENT_NOTICE_VERSION,
      code: await codeSentTo(phone),
      name,
      email: `${name.split(" ")[0].toLowerCase()}.${Date.now().toString(36)}@example.com`,
    },
    { host },
  );
  expect(answered.status).toBe(200);
  const body = await answered.json();
  return { token: body.access_token as string, userId: body.user._id as string, linkId: made.guardian._id as string };
}

beforeAll(async () => {
  // Listening: payment links are made on the sandbox gateway over HTTP.
  t = await createListeningTestApp({ TRUST_PROXY: "1" });
  owner = await register(t, "business", { name: "Anita Sharma" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  asha = await register(t, "student", { name: "Asha Verma" });
  bilal = await register(t, "student", { name: "Bilal Khan" });
  esha = await register(t, "student", { name: "Esha Gupta" });
  const s = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "fam-sunrise" });
  const v = await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "fam-vidya" });
  sunrise = { id: s.id, host: "fam-sunrise.test" };
  vidya = { id: v.id, host: "fam-vidya.test" };
  for (const x of [asha, bilal]) await grantRole(t, sunrise.id, x.user._id, "student");
  await grantRole(t, vidya.id, esha.user._id, "student");
  morning = await makeBatch(t, owner.access_token, sunrise.id, { name: "JEE 2027 Morning" });
  await admitStudents(
    t,
    owner.access_token,
    morning._id,
    [asha.user._id, bilal.user._id],
    new Date("2027-04-01T00:00:00Z"),
  );
});
afterAll(() => t.close());

describe("inviting a parent", () => {
  it("sends the link to the institute's own site on WhatsApp and SMS, though asked on the platform", async () => {
    const res = await invite(owner.access_token, asha.user._id, {
      centerId: sunrise.id,
      name: "Sunita Verma",
      relation: "mother",
      phone: "98300 00201",
    });
    expect(res.status).toBe(201);
    const made = await res.json();
    expect(made.guardian).toMatchObject({
      name: "Sunita Verma",
      relation: "mother",
      phone: PARENT_PHONE,
      status: "invited",
    });
    expect(made.link).toMatch(/^https?:\/\/fam-sunrise\.test(:\d+)?\/family\/[a-z2-7]{32}$/);
    const sent = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.recipient, PARENT_PHONE), eq(messages.template, "parent-invitation")));
    expect(sent.map((m) => m.channel).sort()).toEqual(["sms", "whatsapp"]);
    expect(sent[0].text).toBe(
      `Sunrise Academy invites you to follow Asha's classes, attendance, test results and fees. Read the consent notice and answer it (the link works for 7 days):\n${made.link}`,
    );
  });

  it("refuses another institute's staff, a student inviting for someone else, the student's own number and bad input", async () => {
    const other = await invite(otherOwner.access_token, asha.user._id, {
      centerId: sunrise.id,
      name: "X",
      relation: "father",
      phone: "9830000299",
    });
    expect(other.status).toBe(404);
    const forOther = await invite(bilal.access_token, asha.user._id, {
      centerId: sunrise.id,
      name: "X",
      relation: "father",
      phone: "9830000299",
    });
    expect(forOther.status).toBe(403);
    expect((await forOther.json()).error).toBe(FAMILY_TEXTS.ownOnly);
    await verifyPhone(t, bilal.user._id, "+919830000299");
    const self = await invite(bilal.access_token, bilal.user._id, {
      centerId: sunrise.id,
      name: "Me",
      relation: "father",
      phone: "9830000299",
    });
    expect(self.status).toBe(400);
    const bad = await invite(owner.access_token, asha.user._id, {
      centerId: sunrise.id,
      name: "",
      relation: "uncle",
      phone: "12",
    });
    expect(bad.status).toBe(400);
    const notHere = await invite(owner.access_token, esha.user._id, {
      centerId: sunrise.id,
      name: "X",
      relation: "father",
      phone: "9830000298",
    });
    expect(notHere.status).toBe(404);
    const rows = await t.database.db.select().from(guardians).where(eq(guardians.phone, "+919830000299"));
    expect(rows).toEqual([]);
  });

  it("lets a student invite their own parent", async () => {
    const res = await invite(bilal.access_token, bilal.user._id, {
      centerId: sunrise.id,
      name: "Imran Khan",
      relation: "father",
      phone: OTHER_PARENT_PHONE,
    });
    expect(res.status).toBe(201);
    const list = await (
      await t.request(`/api/students/${bilal.user._id}/parents?centerId=${sunrise.id}`, {
        headers: bearer(bilal.access_token),
      })
    ).json();
    expect(list.parents.map((p: { name: string; status: string }) => [p.name, p.status])).toEqual([
      ["Imran Khan", "invited"],
    ]);
  });
});

describe("answering the consent notice", () => {
  let token: string;
  let ashaLink: string;
  let parent: { token: string; userId: string };

  beforeAll(async () => {
    const made = await (
      await invite(owner.access_token, asha.user._id, {
        centerId: sunrise.id,
        name: "Sunita Verma",
        relation: "mother",
        phone: PARENT_PHONE,
      })
    ).json();
    token = tokenOf(made.link);
    ashaLink = made.guardian._id;
  });

  it("shows the institute, the child's first name, the masked number and the notice", async () => {
    const res = await t.request(`/api/family/invitations/${token}`, { host: sunrise.host });
    expect(res.status).toBe(200);
    const { invitation } = await res.json();
    expect(invitation).toEqual({
      institute: "Sunrise Academy",
      child: "Asha",
      name: "Sunita Verma",
      relation: "mother",
      phone: "+91 ••••• 0201",
      state: "open",
      notice: { version: CONSENT_NOTICE_VERSION, text: consentNotice("Sunrise Academy", "Asha") },
    });
    expect((await t.request(`/api/family/invitations/${token}`, { host: vidya.host })).status).toBe(404);
  });

  it("needs the code sent to the invited number, and a name and e-mail for a new account; a wrong code changes nothing", async () => {
    const answer = (body: Record<string, unknown>) =>
      postJson(
        t,
        `/api/family/invitations/${token}/answer`,
        { answer: "granted", noticeVersion: CONSENT_NOTICE_VERSION, ...body },
        { host: sunrise.host },
      );
    const noCode = await answer({});
    expect(noCode.status).toBe(400);
    expect((await noCode.json()).error).toBe(FAMILY_TEXTS.signInWithNumber("+91 ••••• 0201"));
    const sent = await postJson(t, `/api/family/invitations/${token}/code`, {}, { host: sunrise.host });
    expect(sent.status).toBe(200);
    const code = await codeSentTo(PARENT_PHONE);
    expect((await answer({ code })).status).toBe(400);
    expect(
      (
        await answer({
          code: code === "000000" ? "111111" : "000000",
          name: "Sunita Verma",
          email: "sunita@example.com",
        })
      ).status,
    ).toBe(400);
    expect(
      (await answer({ code, name: "Sunita Verma", email: "sunita@example.com", noticeVersion: "1999-01-01" })).status,
    ).toBe(409);
    expect(await t.database.db.select().from(parentConsents)).toEqual([]);
    const [row] = await t.database.db.select().from(guardians).where(eq(guardians.phone, PARENT_PHONE));
    expect(row.status).toBe("invited");

    const res = await answer({ code, name: "Sunita Verma", email: "sunita@example.com" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.message).toBe(FAMILY_TEXTS.granted("Asha"));
    expect(body.guardian).toMatchObject({ status: "active", relation: "mother" });
    parent = { token: body.access_token, userId: body.user._id };
    const [account] = await t.database.db.select().from(users).where(eq(users.id, parent.userId));
    expect(account).toMatchObject({ name: "Sunita Verma", email: "sunita@example.com", phone: PARENT_PHONE });
    expect(account.phoneVerifiedAt).not.toBeNull();
    const consents = await t.database.db.select().from(parentConsents);
    expect(consents).toHaveLength(1);
    expect(consents[0]).toMatchObject({
      answer: "granted",
      parentId: parent.userId,
      noticeVersion: CONSENT_NOTICE_VERSION,
      noticeText: consentNotice("Sunrise Academy", "Asha"),
    });
    const roles = await t.database.db
      .select({ role: memberships.role, status: memberships.status })
      .from(memberships)
      .where(and(eq(memberships.userId, parent.userId), eq(memberships.centerId, sunrise.id)));
    expect(roles).toEqual([{ role: "parent", status: "active" }]);
    // Answered once: the link cannot be answered again.
    expect((await answer({ code, name: "X", email: "x@example.com" })).status).toBe(409);
  });

  it("keeps the consent record unchangeable", async () => {
    await expect(t.database.db.update(parentConsents).set({ answer: "refused" })).rejects.toThrow();
    await expect(t.database.db.delete(parentConsents)).rejects.toThrow();
  });

  it("gives the parent their child's attendance, fees and week, and nobody else's", async () => {
    const children = await (
      await t.request("/api/parent/children", { headers: bearer(parent.token), host: sunrise.host })
    ).json();
    expect(children.children).toEqual([
      expect.objectContaining({
        studentId: asha.user._id,
        name: "Asha Verma",
        institute: "Sunrise Academy",
        relation: "mother",
      }),
    ]);
    const own = await t.request(`/api/attendance?studentId=${asha.user._id}`, {
      headers: bearer(parent.token),
      host: sunrise.host,
    });
    expect(own.status).toBe(200);
    const other = await t.request(`/api/attendance?studentId=${bilal.user._id}`, {
      headers: bearer(parent.token),
      host: sunrise.host,
    });
    expect(other.status).toBe(403);
    expect((await other.json()).error).toBe(ONLY_YOUR_CHILDREN);
    const fees = await t.request(`/api/fee-accounts?studentId=${asha.user._id}`, {
      headers: bearer(parent.token),
      host: sunrise.host,
    });
    expect(fees.status).toBe(200);
    const otherFees = await t.request(`/api/fee-accounts?studentId=${bilal.user._id}`, {
      headers: bearer(parent.token),
      host: sunrise.host,
    });
    expect(otherFees.status).toBe(404);
  });

  it("tells the parent too when the child is absent, once, and reminds them of fees with their own page", async () => {
    const session = await addSession(t, { centerId: sunrise.id, batchId: morning._id, startsAt: T0, minutes: 60 });
    await addRegister(t, session, sunrise.id, null);
    await markAll(t, session, sunrise.id, { [asha.user._id]: "absent", [bilal.user._id]: "present" });
    await t.services.absenceAlerts.run(new Date(T0.getTime() + 90 * MINUTE));
    await t.services.absenceAlerts.run(new Date(T0.getTime() + 95 * MINUTE));
    const sent = await t.database.db
      .select()
      .from(messages)
      .where(like(messages.dedupeKey, `attendance-absent:${session}:%`));
    expect(
      sent
        .filter((m) => m.recipient === PARENT_PHONE)
        .map((m) => m.channel)
        .sort(),
    ).toEqual(["sms", "whatsapp"]);
    expect(sent.find((m) => m.recipient === PARENT_PHONE)!.text).toBe(
      "Asha Verma was marked absent from Physics (JEE 2027 Morning) on 10 May 2027 at 10:00 am. — Sunrise Academy",
    );
    const recipients = await feeReminderRecipients(t.database.db, asha.user._id, sunrise.id);
    expect(recipients.map((r) => [r.userId, r.page])).toEqual([
      [asha.user._id, "/student/fees"],
      [parent.userId, "/parent/fees"],
    ]);
    // Not at another institute the child might join.
    expect(await feeReminderRecipients(t.database.db, asha.user._id, vidya.id)).toHaveLength(1);
  });

  it("sends the parent a payment link for the child's due too, and lets them pay the due online", async () => {
    const today = new Date(Date.now() + 330 * MINUTE).toISOString().slice(0, 10);
    const plan = await postJson(
      t,
      "/api/fee-plans",
      {
        centerId: sunrise.id,
        name: "Family plan",
        heads: [{ name: "Tuition", amount: 12_000 }],
        instalments: [{ label: "First instalment", amount: 12_000, dueOn: today }],
      },
      { headers: bearer(owner.access_token) },
    );
    expect(plan.status).toBe(201);
    const made = await postJson(
      t,
      "/api/fee-accounts",
      { centerId: sunrise.id, studentId: asha.user._id, feePlanId: (await plan.json()).feePlan._id },
      { headers: bearer(owner.access_token) },
    );
    expect(made.status).toBe(201);
    const due = (await made.json()).account.dues[0];
    const link = await postJson(t, `/api/fee-dues/${due._id}/link`, {}, { headers: bearer(owner.access_token) });
    expect(link.status).toBe(201);
    const sent = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.template, "fee-payment-link"), eq(messages.userId, parent.userId)));
    expect(sent.map((m) => [m.channel, m.recipient]).sort()).toEqual([
      ["email", "sunita@example.com"],
      ["sms", PARENT_PHONE],
      ["whatsapp", PARENT_PHONE],
    ]);
    const pay = await postJson(
      t,
      `/api/fee-dues/${due._id}/pay`,
      {},
      { headers: bearer(parent.token), host: sunrise.host },
    );
    expect(pay.status).toBe(200);
    expect((await pay.json()).due).toEqual({ _id: due._id, label: "First instalment" });
    const stranger = await postJson(t, `/api/fee-dues/${due._id}/pay`, {}, { headers: bearer(bilal.access_token) });
    expect(stranger.status).toBe(404);
  });

  it("signs the parent in with a code on the institute's site", async () => {
    const asked = await postJson(t, "/api/auth/otp", { phone: PARENT_PHONE }, { host: sunrise.host });
    expect(asked.status).toBe(200);
    await t.services.afterAnswer.settled();
    const res = await postJson(
      t,
      "/api/auth/otp/verify",
      { phone: PARENT_PHONE, code: await codeSentTo(PARENT_PHONE) },
      { host: sunrise.host },
    );
    expect(res.status).toBe(200);
    expect((await res.json()).user._id).toBe(parent.userId);
  });

  it("keeps each family to its own: another parent finds nothing of Asha by her link", async () => {
    const imran = await linkNewParent(bilal, sunrise.id, sunrise.host, "+919830000203", "Imran Khan");
    for (const path of ["results", "consents", "data"]) {
      const res = await t.request(`/api/parent/children/${ashaLink}/${path}`, {
        headers: bearer(imran.token),
        host: sunrise.host,
      });
      expect(res.status).toBe(404);
    }
    const withdraw = await postJson(
      t,
      `/api/parent/children/${ashaLink}/withdraw`,
      {},
      { headers: bearer(imran.token), host: sunrise.host },
    );
    expect(withdraw.status).toBe(404);
    const own = await t.request(`/api/parent/children/${imran.linkId}/data`, {
      headers: bearer(imran.token),
      host: sunrise.host,
    });
    expect(own.status).toBe(200);
    const data = await own.json();
    expect(data.student).toMatchObject({ name: "Bilal Khan" });
    expect(JSON.stringify(data)).not.toContain("Sunita");
    expect(JSON.stringify(data)).not.toContain(PARENT_PHONE);
  });

  it("withdrawing consent is recorded and ends the parent's access and messages at once", async () => {
    const res = await postJson(
      t,
      `/api/parent/children/${ashaLink}/withdraw`,
      {},
      { headers: bearer(parent.token), host: sunrise.host },
    );
    expect(res.status).toBe(200);
    expect((await res.json()).message).toBe(FAMILY_TEXTS.withdrawn("Asha", "Sunrise Academy"));
    const answers = await t.database.db
      .select({ answer: parentConsents.answer })
      .from(parentConsents)
      .where(eq(parentConsents.guardianId, ashaLink))
      .orderBy(asc(parentConsents.at));
    expect(answers.map((a) => a.answer)).toEqual(["granted", "withdrawn"]);
    const children = await (
      await t.request("/api/parent/children", { headers: bearer(parent.token), host: sunrise.host })
    ).json();
    expect(children.children).toEqual([]);
    expect(
      (
        await t.request(`/api/fee-accounts?studentId=${asha.user._id}`, {
          headers: bearer(parent.token),
          host: sunrise.host,
        })
      ).status,
    ).toBe(404);
    expect(await feeReminderRecipients(t.database.db, asha.user._id, sunrise.id)).toHaveLength(1);
    const [role] = await t.database.db
      .select({ status: memberships.status })
      .from(memberships)
      .where(and(eq(memberships.userId, parent.userId), eq(memberships.role, "parent")));
    expect(role.status).toBe("removed");
  });
});
