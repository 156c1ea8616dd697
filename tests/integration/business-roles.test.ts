import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { centers, memberships } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { notAllowed } from "../../server/api/member-guard.ts";
import { CHOSEN_MEMBERSHIP_COOKIE } from "#common/memberships.ts";

/**
 * The business area decides through the policy (issue 40, decision 0039): staff open it for
 * what their role allows (the team, inviting, leads, the dashboard) and are refused the plan,
 * the bills, the site and the money's settings, in the policy's words; owners keep everything.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
/** Front desk at Sunrise, on a creator account (staff may use any account but an admin's). */
let desk: Account;
/** Staff at Sunrise who also owns an institute of their own (a business account). */
let deskOwner: Account;
let student: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let ownClasses: Awaited<ReturnType<typeof createCenter>>;

const as = (who: Account, cookie?: string) => ({ ...bearer(who.access_token), ...(cookie ? { cookie } : {}) });
const get = (path: string, who: Account, cookie?: string) => t.request(path, { headers: as(who, cookie) });
const send = (method: string, path: string, who: Account, body: unknown = {}) =>
  postJson(t, path, body, { method, headers: as(who) });

async function makeStaff(who: Account) {
  const made = await postJson(
    t,
    `/api/centers/${sunrise.id}/members`,
    { email: who.email, role: "staff", duty: "front desk" },
    { headers: bearer(owner.access_token) },
  );
  expect(made.status, await made.clone().text()).toBe(201);
  const { link } = (await made.json()) as { link: string };
  const accepted = await postJson(t, "/api/team/accept", { token: link.split("/invite/")[1] }, { headers: as(who) });
  expect(accepted.status, await accepted.clone().text()).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  owner = await register(t, "business", { name: "Anita Sharma" });
  desk = await register(t, "creator", { name: "Front Desk Farah" });
  deskOwner = await register(t, "business", { name: "Kiran Both" });
  student = await register(t, "student", { name: "Priya Das" });
  ownClasses = await createCenter(t, deskOwner.user._id, { instituteName: "Kiran Classes", slug: "br-kiran" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "br-sunrise" });
  await makeStaff(desk);
  await makeStaff(deskOwner);
});
afterAll(() => t.close());

describe("the business area's API for staff", () => {
  it("answers what members.view, members.invite and leads.manage allow", async () => {
    const team = await get("/api/team", desk);
    expect(team.status, await team.clone().text()).toBe(200);
    expect((await team.json()).business).toEqual({ _id: sunrise.id, name: "Sunrise Academy" });
    const invited = await send("POST", `/api/team/invitations?centerId=${sunrise.id}`, desk, {
      email: "new.creator@example.com",
    });
    expect(invited.status, await invited.clone().text()).toBe(201);
    expect((await invited.json()).invitation).toMatchObject({ address: "new.creator@example.com", status: "pending" });
    const leads = await get(`/api/enquiries?centerId=${sunrise.id}`, desk);
    expect(leads.status, await leads.clone().text()).toBe(200);
  });

  it("refuses removing, the site, the payment account, the domain and the template, in the policy's words, and changes nothing", async () => {
    const [entry] = (await (await get("/api/team", desk)).json()).team as { _id: string }[];
    const refusals: [Promise<Response>, string][] = [
      [send("DELETE", `/api/team/${entry._id}`, desk), notAllowed("members.remove")],
      [get("/api/site-contents", desk), notAllowed("site.edit")],
      [get(`/api/institute/payment-account?centerId=${sunrise.id}`, desk), notAllowed("payments.connect")],
      [get(`/api/institute/message-language?centerId=${sunrise.id}`, desk), notAllowed("site.edit")],
      [
        send("PUT", "/api/institute/message-language", desk, { centerId: sunrise.id, language: "hi" }),
        notAllowed("site.edit"),
      ],
      [get(`/api/domains/claim?centerId=${sunrise.id}`, desk), notAllowed("site.edit")],
      [send("POST", "/api/templates/apply", desk, { templateId: "t3", centerId: sunrise.id }), notAllowed("site.edit")],
    ];
    for (const [pending, message] of refusals) {
      const res = await pending;
      expect(res.status, message).toBe(403);
      expect((await res.json()).error).toBe(message);
    }
    const [row] = await t.database.db.select().from(centers).where(eq(centers.id, sunrise.id));
    expect(row.templateId).toBe(sunrise.templateId);
    const [still] = await t.database.db.select().from(memberships).where(eq(memberships.id, entry._id));
    expect(still.status).toBe("invited");
  });

  it("acts on the institute named or chosen in the header, and only with the roles held there", async () => {
    // Kiran owns Kiran Classes (older) and is staff at Sunrise (newest): each institute answers by its own role.
    const mine = await get(`/api/site-contents?centerId=${ownClasses.id}`, deskOwner);
    expect(mine.status, await mine.clone().text()).toBe(200);
    const there = await get(`/api/site-contents?centerId=${sunrise.id}`, deskOwner);
    expect(there.status).toBe(403);
    expect((await there.json()).error).toBe(notAllowed("site.edit"));
    const chosen = `${CHOSEN_MEMBERSHIP_COOKIE}=${ownClasses.id}:owner`;
    expect((await (await get("/api/team", deskOwner, chosen)).json()).business._id).toBe(ownClasses.id);
    expect((await get("/api/site-contents", deskOwner, chosen)).status).toBe(200);
    const chosenSunrise = `${CHOSEN_MEMBERSHIP_COOKIE}=${sunrise.id}:staff`;
    expect((await (await get("/api/team", deskOwner, chosenSunrise)).json()).business._id).toBe(sunrise.id);
    expect((await get("/api/site-contents", deskOwner, chosenSunrise)).status).toBe(403);
    expect((await send("DELETE", `/api/institute/payment-account?centerId=${sunrise.id}`, deskOwner)).status).toBe(403);
  });

  it("still refuses those who work at no institute, and keeps everything for the owner", async () => {
    expect((await get("/api/team", student)).status).toBe(403);
    expect((await get("/api/enquiries", student)).status).toBe(403);
    const outsider = await register(t, "creator");
    expect((await get("/api/team", outsider)).status).toBe(403);
    for (const path of [
      "/api/team",
      "/api/site-contents",
      `/api/enquiries?centerId=${sunrise.id}`,
      `/api/institute/payment-account?centerId=${sunrise.id}`,
      `/api/domains/claim?centerId=${sunrise.id}`,
    ])
      expect((await get(path, owner)).status, path).toBe(200);
  });

  it("takes a removed staff member's access away at once", async () => {
    const leaver = await register(t, "creator");
    await makeStaff(leaver);
    expect((await get("/api/team", leaver)).status).toBe(200);
    const [row] = await t.database.db.select().from(memberships).where(eq(memberships.userId, leaver.user._id));
    expect((await send("DELETE", `/api/centers/${sunrise.id}/members/${row.id}`, owner)).status).toBe(200);
    const after = await get(`/api/team?centerId=${sunrise.id}`, leaver);
    expect(after.status).toBe(403);
  });
});
