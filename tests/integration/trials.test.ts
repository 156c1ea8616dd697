import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { centers, notices, trials } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { TRIAL_TEXTS } from "#common/trial.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { adminToken, createListeningTestApp, payThroughSandbox, type ListeningTestApp } from "../helpers/payments.ts";
import { proveDomain } from "../helpers/domains.ts";
import { createCenter } from "../helpers/centers.ts";
import { DOMAIN_TEXTS } from "#common/domains.ts";

let t: ListeningTestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createListeningTestApp({ PLATFORM_DOMAIN: "pathshala.test" });
  await seedDemo(t.database.db);
  admin = bearer(await adminToken(t));
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
let n = 0;
const newDomain = () => `trial-${Date.now().toString(36)}-${++n}.example.com`;

const trialBody = (overrides: Record<string, unknown> = {}) => ({
  institute: "Sunrise Coaching",
  owner: "Asha Rao",
  email: "asha@example.com",
  phone: "+91 98765 43210",
  plan: "3 Year Plan",
  billing: "quarterly",
  domain: newDomain(),
  ...overrides,
});

async function owner() {
  const account = await registerUser(t, "business", { name: "Asha Rao" });
  return { ...account, auth: bearer(account.access_token) };
}

const startTrial = (auth: Record<string, string>, body: unknown) => postJson(t, "/api/trial", body, { headers: auth });

const lookup = async (auth: Record<string, string>, email: string) =>
  t.request(`/api/centers/lookup?email=${encodeURIComponent(email)}`, { headers: auth });

const centerRow = async (id: string) => (await t.database.db.select().from(centers).where(eq(centers.id, id)))[0];

describe("POST /api/trial", () => {
  it("starts a 14-day trial without paying: the site answers on its working address at once, on its domain once proven", async () => {
    const o = await owner();
    const body = trialBody();
    const res = await startTrial(o.auth, body);
    expect(res.status).toBe(201);
    const { center } = await res.json();
    expect(center).toMatchObject({
      instituteName: "Sunrise Coaching",
      domain: null,
      pendingDomain: body.domain,
      plan: "3 Year Plan",
      billing: "quarterly",
      status: "trial",
    });
    expect(center.workingHost).toBe(`${center.slug}.pathshala.test`);
    const ends = new Date(center.trialEndsAt).getTime();
    expect(Math.abs(ends - (Date.now() + 14 * DAY))).toBeLessThan(60_000);
    expect(center.expiresAt).toBe(center.trialEndsAt);

    // The domain is only asked for: it serves nothing until its owner proves it.
    expect((await t.request("/", { host: body.domain })).status).toBe(404);
    expect((await t.request("/", { host: center.workingHost })).status).toBe(200);
    await proveDomain(t, o.auth);
    for (const host of [body.domain, center.workingHost]) {
      const page = await t.request("/", { host });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Sunrise Coaching");
    }

    const sub = await lookup(o.auth, o.email);
    expect(sub.status).toBe(200);
    expect(await sub.json()).toMatchObject({ status: "trial", trialEndsAt: center.trialEndsAt, plan: "3 Year Plan" });

    // The admins hear of it, apart from purchases.
    const feed = await (await t.request("/api/admin/notifications", { headers: admin })).json();
    expect(
      feed.notices.some(
        (x: { kind: string; centerId: string }) => x.kind === "trial-started" && x.centerId === center._id,
      ),
    ).toBe(true);
    expect(feed.purchases.some((p: { centerId: { _id: string } | null }) => p.centerId?._id === center._id)).toBe(
      false,
    );
    const stats = await (await t.request("/api/admin/role-stats", { headers: admin })).json();
    expect(stats.centers.trials).toBeGreaterThanOrEqual(1);
  });

  it("puts the owner's e-mail and phone from the wizard on the trial's new site, as a paid plan does", async () => {
    const o = await owner();
    const body = trialBody({ email: "contact-trial@example.com", phone: "+91 98765 43210" });
    const res = await startTrial(o.auth, body);
    expect(res.status).toBe(201);
    const { center } = await res.json();
    expect((await centerRow(center._id)).siteProfile).toEqual({
      contactEmail: "contact-trial@example.com",
      phone: "+91 98765 43210",
    });
    const html = await (await t.request("/", { host: center.workingHost })).text();
    expect(html).toContain('href="mailto:contact-trial@example.com"');
    expect(html).toContain('href="tel:+919876543210"');
    // The admins' notice names the plan once: never '3 Year Plan plan' (issue 38 §6).
    const [notice] = await t.database.db
      .select({ body: notices.body })
      .from(notices)
      .where(and(eq(notices.kind, "trial-started"), eq(notices.centerId, center._id)));
    expect(notice.body).toMatch(/^Asha Rao \(contact-trial@example\.com\) is trying the 3 Year Plan on /);
  });

  it("refuses a second trial of the same owner (409); an unproven domain blocks nobody, a proven one everybody else", async () => {
    const o = await owner();
    const first = trialBody();
    expect((await startTrial(o.auth, first)).status).toBe(201);
    const again = await startTrial(o.auth, trialBody());
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(TRIAL_TEXTS.ownerUsed);

    // Another owner may name the same domain while it is unproven (the first may be a squatter).
    const other = await owner();
    expect((await startTrial(other.auth, trialBody({ domain: first.domain }))).status).toBe(201);

    // Once one of them proves it, it is theirs: nobody else's trial can name it.
    await proveDomain(t, o.auth);
    const third = await owner();
    const refused = await startTrial(third.auth, trialBody({ domain: first.domain }));
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toBe(DOMAIN_TEXTS.taken);
    expect(await t.database.db.select().from(trials).where(eq(trials.userId, third.user._id))).toHaveLength(0);
  });

  it("is for an owner's first institute: an owner who has one (paid or ended) is refused, and not offered it", async () => {
    const o = await owner();
    expect(await t.services.trials.mayStart(o.user._id)).toBe(true);
    await createCenter(t, o.user._id, { status: "active" });
    expect(await t.services.trials.mayStart(o.user._id)).toBe(false);
    const res = await startTrial(o.auth, trialBody());
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(TRIAL_TEXTS.ownerHasInstitute);
    expect(await t.database.db.select().from(trials).where(eq(trials.userId, o.user._id))).toEqual([]);

    const used = await owner();
    expect((await startTrial(used.auth, trialBody())).status).toBe(201);
    expect(await t.services.trials.refusal(used.user._id)).toBe(TRIAL_TEXTS.ownerUsed);
  });

  it("lets exactly one of two simultaneous trials of one owner through", async () => {
    const o = await owner();
    const answers = await Promise.all([startTrial(o.auth, trialBody()), startTrial(o.auth, trialBody())]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const owned = await t.database.db.select().from(centers).where(eq(centers.ownerId, o.user._id));
    expect(owned).toHaveLength(1);
  });

  it("checks its input and who asks: 400 with the field's words, 401, 403, unknown plan, reserved address", async () => {
    const o = await owner();
    const bad = await startTrial(o.auth, trialBody({ institute: "  " }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Institute/Brand name is required");
    expect((await startTrial({}, trialBody())).status).toBe(401);
    const student = await registerUser(t, "student");
    expect((await startTrial(bearer(student.access_token), trialBody())).status).toBe(403);
    expect((await startTrial(o.auth, trialBody({ plan: "No Such Plan" }))).status).toBe(400);
    expect((await startTrial(o.auth, trialBody({ domain: "mine.pathshala.test" }))).status).toBe(400);
    expect(await t.database.db.select().from(trials).where(eq(trials.userId, o.user._id))).toHaveLength(0);
  });
});

describe("a trial's end", () => {
  it("is unavailable from its end time on read, without any job, and the lookup says expired", async () => {
    const o = await owner();
    const body = trialBody();
    const { center } = await (await startTrial(o.auth, body)).json();
    await proveDomain(t, o.auth);
    // Time passes: the trial ended a minute ago.
    const ended = new Date(Date.now() - 60_000);
    await t.database.db.update(centers).set({ trialEndsAt: ended, expiresAt: ended }).where(eq(centers.id, center._id));
    await t.database.db.update(trials).set({ endsAt: ended }).where(eq(trials.centerId, center._id));
    t.services.tenants.changed();
    for (const host of [body.domain, center.workingHost]) {
      const page = await t.request("/", { host });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain("temporarily unavailable");
    }
    expect(await (await lookup(o.auth, o.email)).json()).toMatchObject({ status: "expired" });

    // The job tells the owner and the admins once, however often it runs.
    expect(await t.services.trials.announceEnded()).toBeGreaterThanOrEqual(1);
    await t.services.trials.announceEnded();
    const told = await t.database.db
      .select()
      .from(notices)
      .where(and(eq(notices.centerId, center._id), eq(notices.kind, "trial-ended")));
    expect(told.map((x) => x.audience).sort()).toEqual(["admins", "owner"]);
    const mine = await t.services.notices.forOwner(o.user._id);
    expect(mine.notices[0]).toMatchObject({ kind: "trial-ended", title: "Your free trial has ended" });
    expect(mine.unread).toBe(1);
  });
});

describe("converting a trial", () => {
  it("buys the plan for the same center: nothing is lost, the paid period starts when the trial ends", async () => {
    const o = await owner();
    const body = trialBody();
    const { center } = await (await startTrial(o.auth, body)).json();
    // What the owner did during the trial (the domain still waiting for proof: the order names it).
    await t.database.db
      .update(centers)
      .set({ templateId: "t3", siteProfile: { tagline: "Results that speak" } })
      .where(eq(centers.id, center._id));

    const order = await postJson(
      t,
      "/api/payment/create-order",
      { ...body, plan: "1 Year Plan", billing: "monthly" },
      { headers: o.auth },
    );
    expect(order.status).toBe(200);
    const { order: placed } = await order.json();
    const { body: verified } = await payThroughSandbox(t, placed.id);
    expect(verified.center._id).toBe(center._id);

    const after = await centerRow(center._id);
    expect(after).toMatchObject({
      trialEndsAt: null,
      planName: "1 Year Plan",
      billing: "monthly",
      templateId: "t3",
      customDomain: null,
      slug: center.slug,
      status: "active",
    });
    expect(after.siteProfile).toMatchObject({ tagline: "Results that speak" });
    expect(after.expiresAt!.getTime()).toBe(new Date(center.trialEndsAt).getTime() + 30 * DAY);
    const owned = await t.database.db.select().from(centers).where(eq(centers.ownerId, o.user._id));
    expect(owned).toHaveLength(1);
    // Paying proves nothing: the domain still waits for its owner's proof.
    expect(await proveDomain(t, o.auth)).toBe(body.domain);
    expect(await (await lookup(o.auth, o.email)).json()).toMatchObject({ status: "active", trialEndsAt: null });
    const [trial] = await t.database.db.select().from(trials).where(eq(trials.centerId, center._id));
    expect(trial.convertedAt).not.toBeNull();
    // A converted trial is never announced as ended.
    await t.database.db
      .update(trials)
      .set({ endsAt: sql`now() - interval '1 day'` })
      .where(eq(trials.id, trial.id));
    await t.services.trials.announceEnded();
    const ended = await t.database.db
      .select()
      .from(notices)
      .where(and(eq(notices.centerId, center._id), eq(notices.kind, "trial-ended")));
    expect(ended).toHaveLength(0);
    const converted = await t.database.db
      .select()
      .from(notices)
      .where(and(eq(notices.centerId, center._id), eq(notices.kind, "trial-converted")));
    expect(converted).toHaveLength(1);
  });

  it("after the trial ended, the paid period starts at payment and the site comes back", async () => {
    const o = await owner();
    const body = trialBody();
    const { center } = await (await startTrial(o.auth, body)).json();
    await proveDomain(t, o.auth);
    const ended = new Date(Date.now() - DAY);
    await t.database.db.update(centers).set({ trialEndsAt: ended, expiresAt: ended }).where(eq(centers.id, center._id));
    t.services.tenants.changed();
    expect((await t.request("/", { host: body.domain })).status).toBe(503);
    const order = await postJson(t, "/api/payment/create-order", body, { headers: o.auth });
    const before = Date.now();
    await payThroughSandbox(t, (await order.json()).order.id);
    const after = await centerRow(center._id);
    expect(after.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 90 * DAY - 1000);
    expect((await t.request("/", { host: body.domain })).status).toBe(200);
  });
});
