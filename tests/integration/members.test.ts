import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { centers, memberships, messages, users } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { adminToken } from "../helpers/payments.ts";
import { waitFor } from "../helpers/wait.ts";
import { INVITE_SELF, inviteForAnother } from "../../common/validation/team.ts";

/**
 * People's roles in institutes (issue 40, decision 0039) through the API: an owner invites a
 * teacher, staff and a creator; the invitee accepts; one account holds roles in two institutes;
 * the list, removal kept as history, the last owner kept; and every refusal changes nothing.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let otherOwner: Account;
let teacher: Account;
let staffer: Account;
let student: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let vidya: Awaited<ReturnType<typeof createCenter>>;

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  teacher = await register(t, "creator", { name: "Kavya Iyer" });
  staffer = await register(t, "business", { name: "Front Desk Farah" });
  student = await register(t, "student", { name: "Priya Das" });
  sunrise = await createCenter(t, owner.user._id, {
    instituteName: "Sunrise Academy",
    slug: "mem-sunrise",
    customDomain: "mem-sunrise.test",
  });
  vidya = await createCenter(t, otherOwner.user._id, {
    instituteName: "Vidya Classes",
    slug: "mem-vidya",
    customDomain: "mem-vidya.test",
  });
});
afterAll(() => t.close());

const as = (who: Account) => bearer(who.access_token);
const invite = (who: Account, centerId: string, body: unknown) =>
  postJson(t, `/api/centers/${centerId}/members`, body, { headers: as(who) });
const accept = (who: Account, link: string) =>
  postJson(t, "/api/team/accept", { token: link.split("/invite/")[1] }, { headers: as(who) });
const listOf = async (who: Account, centerId: string, role?: string) => {
  const res = await t.request(`/api/centers/${centerId}/members${role ? `?role=${role}` : ""}`, { headers: as(who) });
  return { status: res.status, body: await res.json() };
};
const mine = async (who: Account, host?: string) =>
  (await (await t.request("/api/me/memberships", { headers: as(who), host })).json()).memberships as {
    centerId: string | null;
    institute: string;
    role: string;
  }[];
const count = async () => (await t.database.db.select().from(memberships)).length;
const outbox = async () => (await t.database.db.select().from(messages)).length;

describe("inviting people to roles", () => {
  it("lets an owner invite a teacher by e-mail, named in the invitation, and the teacher accept it", async () => {
    const res = await invite(owner, sunrise.id, { email: teacher.email.toUpperCase(), role: "teacher" });
    expect(res.status).toBe(201);
    const made = await res.json();
    expect(made.invitation).toMatchObject({
      role: "teacher",
      status: "invited",
      email: teacher.email,
      invitedBy: "Anita Sharma",
      expired: false,
    });
    const [mail] = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.recipient, teacher.email), eq(messages.template, "team-invitation")));
    expect(mail.subject).toBe("Join Sunrise Academy's team on Pathshala");
    expect(mail.text).toBe(
      `Anita Sharma has invited you to join Sunrise Academy on Pathshala as a teacher. See the invitation and accept it (the link works for 7 days):\n${made.link}`,
    );
    const accepted = await accept(teacher, made.link);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ success: true, alreadyMember: false });
    expect(await mine(teacher)).toEqual([
      expect.objectContaining({ centerId: sunrise.id, institute: "Sunrise Academy", role: "teacher" }),
    ]);
  });

  it("lets one account hold roles in several institutes", async () => {
    const made = await (await invite(otherOwner, vidya.id, { email: teacher.email, role: "creator" })).json();
    expect((await accept(teacher, made.link)).status).toBe(200);
    expect((await mine(teacher)).map((m) => `${m.institute}:${m.role}`)).toEqual([
      "Sunrise Academy:teacher",
      "Vidya Classes:creator",
    ]);
  });

  it("invites staff with a duty; staff may invite teachers and creators but not staff or owners", async () => {
    const made = await (
      await invite(owner, sunrise.id, { email: staffer.email, role: "staff", duty: "front desk" })
    ).json();
    expect(made.invitation).toMatchObject({ role: "staff", duty: "front desk" });
    expect((await accept(staffer, made.link)).status).toBe(200);
    const before = [await count(), await outbox()];
    const up = await invite(staffer, sunrise.id, { email: "another.staff@example.com", role: "staff" });
    expect(up.status).toBe(403);
    expect((await up.json()).error).toBe("Your role in this institute may not invite a staff.");
    const owners = await invite(staffer, sunrise.id, { email: "co.owner@example.com", role: "owner" });
    expect(owners.status).toBe(400);
    expect((await owners.json()).error).toBe("Role must be one of: staff, teacher, creator");
    expect([await count(), await outbox()]).toEqual(before);
    const down = await invite(staffer, sunrise.id, { email: "new.teacher@example.com", role: "teacher" });
    expect(down.status).toBe(201);
    // Staff see the members, and cannot remove them.
    expect((await listOf(staffer, sunrise.id)).status).toBe(200);
    const id = (await down.json()).invitation._id;
    const refused = await t.request(`/api/centers/${sunrise.id}/members/${id}`, {
      method: "DELETE",
      headers: as(staffer),
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe("Your role in this institute does not allow this (members.remove).");
  });

  it("refuses, changing nothing: the role already held, bad input, no role there, another institute", async () => {
    const before = [await count(), await outbox()];
    const again = await invite(owner, sunrise.id, { email: teacher.email, role: "teacher" });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(`${teacher.email} is already a teacher at your institute.`);
    const bad = await invite(owner, sunrise.id, { email: "not-an-address", role: "teacher" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Please enter a valid email address");
    const noRole = await invite(owner, sunrise.id, { email: "x@example.com" });
    expect(noRole.status).toBe(400);
    const student_ = await invite(owner, sunrise.id, { email: "x@example.com", role: "student" });
    expect(student_.status).toBe(400);
    const self = await invite(owner, sunrise.id, { email: owner.email, role: "staff" });
    expect(self.status).toBe(400);
    const stranger = await invite(student, sunrise.id, { email: "x@example.com", role: "teacher" });
    expect(stranger.status).toBe(403);
    expect((await stranger.json()).error).toBe("You do not have a role in this institute.");
    const teacherInvites = await invite(teacher, sunrise.id, { email: "x@example.com", role: "creator" });
    expect(teacherInvites.status).toBe(403);
    expect((await teacherInvites.json()).error).toBe(
      "Your role in this institute does not allow this (members.invite).",
    );
    const rival = await invite(otherOwner, sunrise.id, { email: "x@example.com", role: "teacher" });
    expect(rival.status).toBe(403);
    const nowhere = await invite(owner, "00000000-0000-4000-8000-000000000000", {
      email: "x@example.com",
      role: "teacher",
    });
    expect(nowhere.status).toBe(404);
    expect((await nowhere.json()).error).toBe("Institute not found");
    expect([await count(), await outbox()]).toEqual(before);
  });

  it("needs a creator account for a teacher's invitation", async () => {
    const made = await (await invite(owner, sunrise.id, { email: student.email, role: "teacher" })).json();
    const res = await accept(student, made.link);
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe(
      `Only creator accounts can join an institute as a teacher, and ${student.email} is a student account. Ask the institute to invite the address of your creator account.`,
    );
  });
});

describe("inviting by mobile number", () => {
  /** Gives the account a number it has verified (the code flow is tests/integration/phones.test.ts's). */
  const verify = (who: Account, phone: string) =>
    t.database.db.update(users).set({ phone, phoneVerifiedAt: new Date() }).where(eq(users.id, who.user._id));

  it("sends the link on WhatsApp and by SMS; only the account that verified the number accepts", async () => {
    const invited = await register(t, "creator", { name: "Meena Joshi" });
    const res = await invite(otherOwner, vidya.id, { phone: "98123 45678", role: "teacher" });
    expect(res.status).toBe(201);
    const made = await res.json();
    expect(made.invitation).toMatchObject({ role: "teacher", status: "invited", email: null, phone: "+919812345678" });
    const sent = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.recipient, "+919812345678"), eq(messages.template, "team-invitation")));
    expect(sent.map((m) => m.channel).sort()).toEqual(["sms", "whatsapp"]);
    for (const message of sent) {
      expect(message.status).toBe("queued");
      expect(message.text).toBe(
        `Ravi Rao has invited you to join Vidya Classes on Pathshala as a teacher. See the invitation and accept it (the link works for 7 days):\n${made.link}`,
      );
    }
    const preview = await (await t.request(`/api/team/invitations/${made.link.split("/invite/")[1]}`)).json();
    expect(preview.invitation).toMatchObject({ phone: "+919812345678", email: "", role: "teacher", state: "open" });

    // An account without that number verified is not the one invited, even with the number typed in.
    await t.database.db.update(users).set({ phone: "+919812345678" }).where(eq(users.id, invited.user._id));
    const early = await accept(invited, made.link);
    expect(early.status).toBe(403);
    expect((await early.json()).error).toBe(inviteForAnother("+919812345678"));
    await verify(invited, "+919812345678");
    expect((await accept(invited, made.link)).status).toBe(200);
    expect((await mine(invited)).map((m) => `${m.institute}:${m.role}`)).toEqual(["Vidya Classes:teacher"]);

    // The number now holds the role: inviting it again is refused.
    const again = await invite(otherOwner, vidya.id, { phone: "+91 98123 45678", role: "teacher" });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe("+919812345678 is already a teacher at your institute.");
  });

  it("refuses, changing nothing: neither or both addresses, a number that is not one, the inviter's own", async () => {
    await verify(otherOwner, "+919833344455");
    const before = [await count(), await outbox()];
    const cases: [unknown, string][] = [
      [{ role: "teacher" }, "Give an e-mail address or a mobile number."],
      [{ email: "", phone: "", role: "teacher" }, "Give an e-mail address or a mobile number."],
      [
        { email: "x@example.com", phone: "98123 45670", role: "teacher" },
        "Give an e-mail address or a mobile number, not both.",
      ],
      [{ phone: "12345", role: "teacher" }, "Please enter a valid mobile number"],
      [{ phone: "98333 44455", role: "staff" }, INVITE_SELF],
    ];
    for (const [body, error] of cases) {
      const res = await invite(otherOwner, vidya.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error, JSON.stringify(body)).toBe(error);
    }
    expect([await count(), await outbox()]).toEqual(before);
  });
});

describe("the members list and removal", () => {
  it("lists by role for owners and staff, and refuses others", async () => {
    const teachers = await listOf(owner, sunrise.id, "teacher");
    expect(teachers.status).toBe(200);
    expect(
      (teachers.body.members as { email: string; status: string; role: string }[]).map(
        (m) => `${m.role}:${m.status}:${m.email}`,
      ),
    ).toEqual([
      `teacher:invited:${student.email}`,
      "teacher:invited:new.teacher@example.com",
      `teacher:active:${teacher.email}`,
    ]);
    const owners = await listOf(owner, sunrise.id, "owner");
    expect(owners.body.members).toEqual([
      expect.objectContaining({ role: "owner", status: "active", name: "Anita Sharma" }),
    ]);
    expect((await listOf(teacher, sunrise.id)).status).toBe(403);
    const bad = await listOf(owner, sunrise.id, "wizard");
    expect(bad.status).toBe(400);
  });

  it("removes a member as history, and never the last owner", async () => {
    const [kavya] = (await listOf(owner, sunrise.id, "teacher")).body.members.filter(
      (m: { email: string }) => m.email === teacher.email,
    );
    const res = await t.request(`/api/centers/${sunrise.id}/members/${kavya._id}`, {
      method: "DELETE",
      headers: as(owner),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).member).toMatchObject({ status: "removed", role: "teacher" });
    expect((await mine(teacher)).map((m) => m.institute)).toEqual(["Vidya Classes"]);
    const [ownerRow] = (await listOf(owner, sunrise.id, "owner")).body.members;
    const last = await t.request(`/api/centers/${sunrise.id}/members/${ownerRow._id}`, {
      method: "DELETE",
      headers: as(owner),
    });
    expect(last.status).toBe(409);
    expect((await last.json()).error).toBe("An institute needs an owner: its last owner cannot be removed.");
    const missing = await t.request(`/api/centers/${sunrise.id}/members/${vidya.id}`, {
      method: "DELETE",
      headers: as(owner),
    });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe("Member not found");
  });
});

describe("students", () => {
  it("makes a student of the institute whose site they sign up on; the platform's sign-up makes none", async () => {
    const onSite = await register(t, "student", { host: "mem-vidya.test", name: "Site Student" });
    expect(await mine(onSite, "mem-vidya.test")).toEqual([
      expect.objectContaining({ centerId: vidya.id, institute: "Vidya Classes", role: "student" }),
    ]);
    expect(await mine(student)).toEqual([]);
    const creator = await register(t, "creator");
    expect(await mine(creator)).toEqual([]);
  });

  it("shows an owner their institute, and an admin the platform first", async () => {
    expect(await mine(owner)).toEqual([expect.objectContaining({ centerId: sunrise.id, role: "owner" })]);
    const admin = await adminToken(t);
    const res = await t.request("/api/me/memberships", { headers: bearer(admin) });
    expect((await res.json()).memberships).toEqual([
      { _id: null, centerId: null, institute: "Pathshala", role: "admin", duty: null },
    ]);
  });
});

describe("the header's switcher", () => {
  it("accepts only one of the person's own live roles (the /switch-role page asks this)", async () => {
    const me = { id: teacher.user._id, role: "creator" as const };
    expect(await t.services.members.choose(me, `${vidya.id}:creator`)).toMatchObject({
      centerId: vidya.id,
      role: "creator",
    });
    // Removed from Sunrise earlier: that role is no longer theirs; nor is another's.
    for (const key of [`${sunrise.id}:teacher`, `${sunrise.id}:owner`, "admin", "nonsense"])
      await expect(t.services.members.choose(me, key)).rejects.toMatchObject({
        status: 403,
        message: "You do not hold that role. Choose one of yours.",
      });
  });

  it("is kept, and shows a change made elsewhere (another instance, the database) once it is announced", async () => {
    const names = async () => (await mine(owner)).map((m) => `${m.institute}:${m.role}`);
    expect(await names()).toEqual(["Sunrise Academy:owner"]);
    // Written straight to the database, as another instance would: only its announcement tells this one.
    const db = t.database.db;
    await db.update(centers).set({ instituteName: "Sunrise Academy Kota" }).where(eq(centers.id, sunrise.id));
    await waitFor(async () => (await names())[0] === "Sunrise Academy Kota:owner");
    await db.insert(memberships).values({
      centerId: vidya.id,
      userId: owner.user._id,
      role: "student",
      status: "active",
      acceptedAt: new Date(),
    });
    await waitFor(async () => (await names()).length === 2);
    expect(await names()).toEqual(["Sunrise Academy Kota:owner", "Vidya Classes:student"]);
    await db.update(centers).set({ instituteName: "Sunrise Academy" }).where(eq(centers.id, sunrise.id));
    await db.delete(memberships).where(and(eq(memberships.centerId, vidya.id), eq(memberships.userId, owner.user._id)));
    await waitFor(async () => (await names()).join() === "Sunrise Academy:owner");
  });
});
