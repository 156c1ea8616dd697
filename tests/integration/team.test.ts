import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { contents, memberships } from "../../server/db/schema/index.ts";
import { hashToken } from "../../server/auth/tokens.ts";
import { CATALOG_CHANNEL } from "../../server/services/sites.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { FIXTURES, uploadContent } from "../helpers/content.ts";
import { enrol, loginOn, myCourses, publish, register } from "../helpers/learning.ts";
import { announcementsSettled } from "../helpers/wait.ts";
import { NOT_ON_TEAM, TEAM_ENTRY_NOT_FOUND } from "#common/validation/team.ts";

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let rival: Account;
let creator: Account;
let outsider: Account;
let student: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let branch: Awaited<ReturnType<typeof createCenter>>;
let rivalCenter: Awaited<ReturnType<typeof createCenter>>;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  owner = await register(t, "business", { name: "Anita Sharma" });
  rival = await register(t, "business", { name: "Rival Owner" });
  creator = await register(t, "creator", { name: "Rahul Verma" });
  outsider = await register(t, "creator", { name: "Mallory" });
  student = await register(t, "student", { name: "Priya Das" });
  sunrise = await createCenter(t, owner.user._id, {
    instituteName: "Sunrise Academy",
    slug: "team-sunrise",
    customDomain: "team-sunrise.test",
  });
  branch = await createCenter(t, owner.user._id, {
    instituteName: "Sunrise North",
    slug: "team-north",
    customDomain: "team-north.test",
  });
  rivalCenter = await createCenter(t, rival.user._id, {
    instituteName: "Rival Classes",
    slug: "team-rival",
    customDomain: "team-rival.test",
  });
});
afterAll(() => t.close());

const as = (who: Account | null) => (who ? bearer(who.access_token) : {});
const get = (path: string, who: Account | null, host?: string) => t.request(path, { headers: as(who), host });
const send = (method: string, path: string, who: Account | null, body?: unknown) =>
  postJson(t, path, body ?? {}, { method, headers: as(who) });
const tokenOf = (link: string) => link.split("/invite/")[1];

async function invite(email: string, centerId = sunrise.id, who = owner) {
  const res = await send("POST", `/api/team/invitations?centerId=${centerId}`, who, { email });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  const body = await res.json();
  return { ...body, token: tokenOf(body.link) as string, status: res.status };
}
const accept = (token: string, who: Account | null) => send("POST", "/api/team/accept", who, { token });
const teamOf = async (centerId = sunrise.id, who = owner) =>
  (await (await get(`/api/team?centerId=${centerId}`, who)).json()).team as {
    _id: string;
    address: string;
    status: string;
    expired: boolean;
    name: string | null;
  }[];
const homePage = async (host = "team-sunrise.test") => (await t.request("/", { host })).text();
const catalogTitles = async (host?: string, who: Account | null = null) =>
  ((await (await get("/api/contents", who, host)).json()).items as { title: string }[]).map((i) => i.title);

describe("inviting creators", () => {
  it("gives the owner a link to share; the token is kept only as its SHA-256", async () => {
    const made = await invite(creator.email);
    expect(made.status).toBe(201);
    expect(made.link).toMatch(/^http:\/\/localhost:3000\/invite\/[a-z2-7]{32}$/);
    expect(made.invitation).toMatchObject({
      address: creator.email,
      status: "pending",
      expired: false,
      name: null,
      invitedBy: "Anita Sharma",
      joinedBeforeTeams: false,
    });
    const [row] = await t.database.db.select().from(memberships).where(eq(memberships.id, made.invitation._id));
    expect(row.tokenHash).toBe(hashToken(made.token));
    expect(JSON.stringify(row)).not.toContain(made.token);
    // A week to accept it.
    expect(new Date(made.invitation.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect((await teamOf()).map((e) => [e.address, e.status])).toEqual([[creator.email, "pending"]]);
  });

  it("makes a fresh link when a pending address is invited again (the old one stops working)", async () => {
    const first = await invite("fresh.link@example.com");
    const second = await invite("  Fresh.Link@Example.com ");
    expect(second.status).toBe(200);
    expect(second.renewed).toBe(true);
    expect(second.invitation._id).toBe(first.invitation._id);
    expect(second.token).not.toBe(first.token);
    const old = await get(`/api/team/invitations/${first.token}`, null);
    expect(old.status).toBe(404);
    expect((await old.json()).error).toBe("This invitation link is not valid. Ask the institute for a new one.");
    expect((await get(`/api/team/invitations/${second.token}`, null)).status).toBe(200);
  });

  it("invites a creator at a mobile number too, through the one invitation function every role's goes through", async () => {
    const res = await send("POST", `/api/team/invitations?centerId=${sunrise.id}`, owner, { phone: "98765 40101" });
    expect(res.status, await res.clone().text()).toBe(201);
    const made = await res.json();
    // The field is named for what it holds: here a number, in E.164.
    expect(made.invitation).toMatchObject({ address: "+919876540101", status: "pending" });
    expect(made.invitation).not.toHaveProperty("email");
    const [row] = await t.database.db.select().from(memberships).where(eq(memberships.id, made.invitation._id));
    expect(row).toMatchObject({ role: "creator", phone: "+919876540101", email: null, status: "invited" });
    expect((await teamOf()).find((e) => e._id === made.invitation._id)?.address).toBe("+919876540101");
    // The invitation's own schema checks a number, and refuses an address and a number at once.
    const bad = await send("POST", `/api/team/invitations?centerId=${sunrise.id}`, owner, { phone: "12345" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Please enter a valid mobile number");
    const both = await send("POST", `/api/team/invitations?centerId=${sunrise.id}`, owner, {
      email: "both@example.com",
      phone: "98765 40102",
    });
    expect(both.status).toBe(400);
    expect((await both.json()).error).toBe("Give an e-mail address or a mobile number, not both.");
  });

  it("refuses bad addresses, the owner's own, and everyone but the owner", async () => {
    for (const [email, message] of [
      ["", "Email is required"],
      ["not-an-email", "Please enter a valid email address"],
      [owner.email.toUpperCase(), "That is your own address. Invite the creators who make content for your institute."],
    ]) {
      const res = await send("POST", "/api/team/invitations", owner, { email });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe(message);
    }
    const malformed = await t.request("/api/team/invitations", {
      method: "POST",
      headers: { ...as(owner), "content-type": "application/json" },
      body: "{",
    });
    expect(malformed.status).toBe(400);
    expect((await send("POST", "/api/team/invitations", null, { email: "x@example.com" })).status).toBe(401);
    for (const who of [creator, student]) {
      const res = await send("POST", "/api/team/invitations", who, { email: "x@example.com" });
      expect(res.status).toBe(403);
    }
    expect((await teamOf()).some((e) => e.address === "x@example.com")).toBe(false);
  });

  it("shows who invited whom to which institute, to whoever holds the link", async () => {
    const made = await invite("preview@example.com");
    const res = await get(`/api/team/invitations/${made.token}`, null);
    expect(res.status).toBe(200);
    const { invitation } = await res.json();
    expect(invitation).toMatchObject({
      instituteName: "Sunrise Academy",
      invitedBy: "Anita Sharma",
      email: "preview@example.com",
      state: "open",
    });
    expect(invitation).not.toHaveProperty("memberId");
    for (const bad of ["nope", "a".repeat(32)])
      expect((await get(`/api/team/invitations/${bad}`, null)).status).toBe(404);
    // Text that cannot be stored is bad input wherever it is, the address included.
    expect((await get("/api/team/invitations/%00", null)).status).toBe(400);
  });
});

describe("accepting an invitation", () => {
  let token: string;
  beforeAll(async () => {
    token = (await invite(creator.email)).token;
  });

  it("needs the account with the invited address, and a creator account", async () => {
    expect((await accept(token, null)).status).toBe(401);
    const other = await accept(token, outsider);
    expect(other.status).toBe(403);
    expect((await other.json()).error).toBe(
      `This invitation was sent to ${creator.email}. Sign in with that address to accept it.`,
    );
    // A student invited by their own address is told why they cannot join.
    const studentToken = (await invite(student.email)).token;
    const wrongRole = await accept(studentToken, student);
    expect(wrongRole.status).toBe(403);
    expect((await wrongRole.json()).error).toBe(
      `Only creator accounts can join an institute's team, and ${student.email} is a student account. Ask the institute to invite the address of your creator account.`,
    );
    expect((await accept("", creator)).status).toBe(400);
    expect((await accept("z".repeat(32), creator)).status).toBe(404);
    expect((await teamOf()).find((e) => e.address === creator.email)?.status).toBe("pending");
  });

  it("makes the invited creator a member; the link then cannot be used by anyone else", async () => {
    const res = await accept(token, creator);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      alreadyMember: false,
      business: { _id: sunrise.id, name: "Sunrise Academy" },
    });
    expect((await teamOf()).find((e) => e.address === creator.email)).toMatchObject({
      status: "accepted",
      name: "Rahul Verma",
    });
    // Again: harmless.
    expect(await (await accept(token, creator)).json()).toMatchObject({ alreadyMember: true });
    const used = await accept(token, outsider);
    expect(used.status).toBe(409);
    expect((await used.json()).error).toBe("This invitation has already been accepted.");
    expect((await (await get(`/api/team/invitations/${token}`, null)).json()).invitation.state).toBe("accepted");
    // Inviting a member again is a conflict, not a new link.
    const again = await send("POST", `/api/team/invitations?centerId=${sunrise.id}`, owner, { email: creator.email });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(`${creator.email} is already on your team.`);
  });

  it("refuses an expired link, and a fresh one works", async () => {
    const late = await register(t, "creator");
    const made = await invite(late.email);
    await t.database.db
      .update(memberships)
      .set({ tokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(memberships.id, made.invitation._id));
    expect((await teamOf()).find((e) => e.address === late.email)).toMatchObject({ status: "pending", expired: true });
    const expired = await accept(made.token, late);
    expect(expired.status).toBe(410);
    expect((await expired.json()).error).toBe("This invitation has expired. Ask Sunrise Academy for a new link.");
    const fresh = await invite(late.email);
    expect((await accept(fresh.token, late)).status).toBe(200);
  });

  it("refuses a revoked invitation", async () => {
    const revoked = await register(t, "creator");
    const made = await invite(revoked.email);
    const res = await send("DELETE", `/api/team/${made.invitation._id}?centerId=${sunrise.id}`, owner);
    expect(res.status).toBe(200);
    expect((await res.json()).member).toMatchObject({ address: revoked.email, status: "removed" });
    const refused = await accept(made.token, revoked);
    expect(refused.status).toBe(410);
    expect((await refused.json()).error).toBe("Sunrise Academy withdrew this invitation.");
    expect((await (await get(`/api/team/invitations/${made.token}`, null)).json()).invitation.state).toBe("withdrawn");
  });
});

describe("only the team assigns content to an institute (the attack)", () => {
  it("hides the institute from a creator not on its team and refuses their assignment with 403", async () => {
    const listed = await (await get("/api/businesses", outsider)).json();
    expect(listed.businesses).toEqual([]);
    const phishing = await publish(t, outsider.access_token, {
      title: "Free live class (phishing)",
      type: "live",
      price: "0",
      liveLink: "https://evil.example.com/login",
    });
    const assign = await send("PUT", `/api/content/${phishing}/assign`, outsider, { businessId: sunrise.id });
    expect(assign.status).toBe(403);
    expect((await assign.json()).error).toBe(NOT_ON_TEAM);
    const upload = await uploadContent(t, outsider.access_token, {
      title: "Phishing at upload",
      type: "live",
      price: "0",
      liveLink: "https://evil.example.com/x",
      businessId: sunrise.id,
    });
    expect(upload.status).toBe(403);
    expect(await homePage()).not.toContain("phishing");
    expect(await catalogTitles("team-sunrise.test")).not.toContain("Free live class (phishing)");
    // Content that reached an institute some other way (a stray row) is still not shown for it.
    await t.database.db.update(contents).set({ centerId: sunrise.id }).where(eq(contents.id, phishing));
    t.services.sites.catalogChanged(sunrise.id);
    expect(await homePage()).not.toContain("phishing");
    expect(await catalogTitles("team-sunrise.test")).not.toContain("Free live class (phishing)");
    expect(await catalogTitles()).not.toContain("Free live class (phishing)");
    expect((await enrol(t, student.access_token, phishing)).status).toBe(404);
    // …and the owner sees it on their list, marked as not from the team.
    const items = (await (await get(`/api/site-contents?centerId=${sunrise.id}`, owner)).json()).contents;
    expect(items.find((i: { _id: string }) => i._id === phishing)).toMatchObject({
      onTeam: false,
      shown: false,
      creatorName: "Mallory",
    });
    await t.database.db.update(contents).set({ centerId: null }).where(eq(contents.id, phishing));
  });

  it("lists the member's teams in their dropdown: live ones only", async () => {
    expect((await (await get("/api/businesses", creator)).json()).businesses).toEqual([
      { _id: sunrise.id, name: "Sunrise Academy" },
    ]);
    // Owners see their own institutes; students none.
    expect(
      (await (await get("/api/businesses", owner)).json()).businesses.map((b: { name: string }) => b.name),
    ).toEqual(["Sunrise Academy", "Sunrise North"]);
    expect((await (await get("/api/businesses", student)).json()).businesses).toEqual([]);
  });
});

describe("the owner's site", () => {
  let live: string;
  let notes: string;
  beforeAll(async () => {
    await announcementsSettled(t.database, CATALOG_CHANNEL);
    live = await publish(t, creator.access_token, {
      title: "Thermodynamics Live",
      type: "live",
      price: "0",
      liveLink: "https://meet.example.com/thermo",
      businessId: sunrise.id,
    });
    notes = await publish(
      t,
      creator.access_token,
      { title: "Organic Notes", type: "pdf", price: "0", businessId: sunrise.id },
      FIXTURES.pdf(),
    );
  });

  it("lists every item on the site with its creator, and the member's content is shown", async () => {
    const res = await get(`/api/site-contents?centerId=${sunrise.id}`, owner);
    expect(res.status).toBe(200);
    const items = (await res.json()).contents as Record<string, unknown>[];
    expect(items.filter((i) => i.onTeam).map((i) => i.title)).toEqual(["Organic Notes", "Thermodynamics Live"]);
    expect(items.find((i) => i._id === live)).toMatchObject({
      type: "live",
      price: 0,
      creatorName: "Rahul Verma",
      creatorEmail: creator.email,
      isActive: true,
      hidden: false,
      shown: true,
    });
    expect(await homePage()).toContain("Thermodynamics Live");
    expect(await catalogTitles("team-sunrise.test")).toEqual(
      expect.arrayContaining(["Thermodynamics Live", "Organic Notes"]),
    );
  });

  it("hides an item from the site at once (home page, catalog, student area, enrolment) and shows it again", async () => {
    expect((await enrol(t, student.access_token, notes)).status).toBe(201);
    const onSite = await loginOn(t, "team-sunrise.test", student.email);
    expect((await myCourses(t, onSite, "team-sunrise.test")).map((c) => c.content.title)).toEqual(["Organic Notes"]);
    const hide = await send("PUT", `/api/site-contents/${live}?centerId=${sunrise.id}`, owner, { hidden: true });
    expect(hide.status).toBe(200);
    expect((await hide.json()).content).toMatchObject({ _id: live, hidden: true, shown: false });
    await send("PUT", `/api/site-contents/${notes}?centerId=${sunrise.id}`, owner, { hidden: true });
    expect(await homePage()).not.toContain("Thermodynamics Live");
    expect(await catalogTitles("team-sunrise.test")).not.toContain("Thermodynamics Live");
    expect(await catalogTitles()).not.toContain("Thermodynamics Live");
    expect((await enrol(t, student.access_token, live)).status).toBe(404);
    // On the institute's domain the student's courses follow the site; on the platform they keep what they have.
    expect(await myCourses(t, onSite, "team-sunrise.test")).toEqual([]);
    expect((await myCourses(t, student.access_token)).map((c) => c.content.title)).toEqual(["Organic Notes"]);
    const show = await send("PUT", `/api/site-contents/${live}?centerId=${sunrise.id}`, owner, { hidden: false });
    expect((await show.json()).content).toMatchObject({ hidden: false, shown: true });
    await send("PUT", `/api/site-contents/${notes}?centerId=${sunrise.id}`, owner, { hidden: false });
    expect(await homePage()).toContain("Thermodynamics Live");
    expect(await catalogTitles("team-sunrise.test")).toContain("Thermodynamics Live");
    expect((await myCourses(t, onSite, "team-sunrise.test")).map((c) => c.content.title)).toEqual(["Organic Notes"]);
  });

  it("keeps a hidden item hidden when its creator moves it away and back", async () => {
    await send("PUT", `/api/site-contents/${live}?centerId=${sunrise.id}`, owner, { hidden: true });
    expect((await send("PUT", `/api/content/${live}/assign`, creator, { businessId: null })).status).toBe(200);
    expect((await send("PUT", `/api/content/${live}/assign`, creator, { businessId: sunrise.id })).status).toBe(200);
    expect(await homePage()).not.toContain("Thermodynamics Live");
    await send("PUT", `/api/site-contents/${live}?centerId=${sunrise.id}`, owner, { hidden: false });
  });

  it("answers bad input and other institutes' items clearly", async () => {
    const bad = await send("PUT", `/api/site-contents/${live}`, owner, { hidden: "yes" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Hidden must be true or false");
    for (const id of [crypto.randomUUID(), "junk"]) {
      const res = await send("PUT", `/api/site-contents/${id}`, owner, { hidden: true });
      expect(res.status).toBe(404);
      expect((await res.json()).error).toBe("This content is not on your site.");
    }
    // The owner's other institute does not have it.
    expect(
      (await send("PUT", `/api/site-contents/${live}?centerId=${branch.id}`, owner, { hidden: true })).status,
    ).toBe(404);
  });

  it("removing a member takes their items off the site at once and out of their reach", async () => {
    const entry = (await teamOf()).find((e) => e.address === creator.email)!;
    const res = await send("DELETE", `/api/team/${entry._id}?centerId=${sunrise.id}`, owner);
    expect(res.status).toBe(200);
    expect((await res.json()).member).toMatchObject({ status: "removed", address: creator.email });
    expect(await homePage()).not.toContain("Thermodynamics Live");
    expect(await catalogTitles("team-sunrise.test")).toEqual([]);
    const mine = (await (await get("/api/content/my", creator)).json()).contents as {
      title: string;
      businessId: string | null;
    }[];
    expect(
      mine.filter((c) => ["Thermodynamics Live", "Organic Notes"].includes(c.title)).map((c) => c.businessId),
    ).toEqual([null, null]);
    expect(
      (await (await get(`/api/site-contents?centerId=${sunrise.id}`, owner)).json()).contents.filter(
        (i: { onTeam: boolean }) => i.onTeam,
      ),
    ).toEqual([]);
    expect((await (await get("/api/businesses", creator)).json()).businesses).toEqual([]);
    const again = await send("PUT", `/api/content/${live}/assign`, creator, { businessId: sunrise.id });
    expect(again.status).toBe(403);
    // Removing twice changes nothing.
    expect((await send("DELETE", `/api/team/${entry._id}?centerId=${sunrise.id}`, owner)).status).toBe(200);
    // The owner's other institute has no such member.
    expect((await send("DELETE", `/api/team/${entry._id}?centerId=${branch.id}`, owner)).status).toBe(404);
  });
});

describe("another owner", () => {
  it("cannot see, change or remove another institute's team or items", async () => {
    const entry = (await teamOf()).find((e) => e.status !== "removed")!;
    expect((await get(`/api/team?centerId=${sunrise.id}`, rival)).status).toBe(404);
    expect((await get(`/api/site-contents?centerId=${sunrise.id}`, rival)).status).toBe(404);
    const removed = await send("DELETE", `/api/team/${entry._id}`, rival);
    expect(removed.status).toBe(404);
    expect((await removed.json()).error).toBe(TEAM_ENTRY_NOT_FOUND);
    const [item] = await t.database.db
      .select({ id: contents.id })
      .from(contents)
      .where(eq(contents.centerId, sunrise.id))
      .limit(1);
    if (item) expect((await send("PUT", `/api/site-contents/${item.id}`, rival, { hidden: true })).status).toBe(404);
    // Their own lists show none of it.
    const theirs = await (await get("/api/team", rival)).json();
    expect(theirs).toEqual({ business: { _id: rivalCenter.id, name: "Rival Classes" }, team: [] });
    expect((await teamOf()).find((e) => e._id === entry._id)?.status).toBe(entry.status);
  });

  it("on the institute's own domain, is refused the owner's team", async () => {
    const token = await loginOn(t, "team-sunrise.test", rival.email);
    const res = await t.request("/api/team", { host: "team-sunrise.test", headers: bearer(token) });
    expect([403, 404]).toContain(res.status);
    const ownerOnSite = await loginOn(t, "team-sunrise.test", owner.email);
    const mine = await t.request("/api/team", { host: "team-sunrise.test", headers: bearer(ownerOnSite) });
    expect((await mine.json()).business).toEqual({ _id: sunrise.id, name: "Sunrise Academy" });
  });
});

describe("invitation links", () => {
  it("point at the platform, also when the owner works on their institute's domain", async () => {
    const ownerOnSite = await loginOn(t, "team-north.test", owner.email);
    const res = await postJson(
      t,
      "/api/team/invitations",
      { email: "on-domain@example.com" },
      { headers: bearer(ownerOnSite), host: "team-north.test" },
    );
    expect(res.status).toBe(201);
    expect((await res.json()).link).toMatch(/^http:\/\/localhost:3000\/invite\/[a-z2-7]{32}$/);
    expect((await teamOf(branch.id)).map((e) => e.address)).toEqual(["on-domain@example.com"]);
  });

  it("are rate limited per owner", async () => {
    const busy = await register(t, "business");
    await createCenter(t, busy.user._id);
    let last: Response | undefined;
    for (let i = 0; i < 51; i++)
      last = await send("POST", "/api/team/invitations", busy, { email: `bulk${i}@example.com` });
    expect(last!.status).toBe(429);
    expect(last!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await last!.json()).error).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
  });
});
