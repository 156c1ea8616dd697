import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { centers, domainClaims } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { CENTER_DOMAIN_TAKEN } from "../../server/services/center-admin.ts";
import { NO_SUBSCRIPTION } from "../../server/api/business-context.ts";
import { CLAIM_DAYS, DOMAIN_TEXTS, PROOF_PATH } from "#common/domains.ts";
import { INVALID_DOMAIN } from "#common/validation/setup.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createCenter } from "../helpers/centers.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { adminToken, createListeningTestApp, payThroughSandbox, type ListeningTestApp } from "../helpers/payments.ts";
import { domainState, proveDomain } from "../helpers/domains.ts";

/** Issue 37 §3: a domain is bound to an institute only once its owner proves control of it. */
let t: ListeningTestApp;

beforeAll(async () => {
  t = await createListeningTestApp({ PLATFORM_DOMAIN: "pathshala.test" });
  await seedDemo(t.database.db);
});
afterAll(() => t?.close());

const DAY = 24 * 60 * 60 * 1000;
let n = 0;
const newDomain = (name = "academy") => `${name}-${Date.now().toString(36)}-${++n}.example.in`;

async function business() {
  const account = await registerUser(t, "business", { name: "Asha Rao" });
  return { ...account, auth: bearer(account.access_token) };
}

async function startTrial(auth: Record<string, string>, domain: string) {
  return postJson(
    t,
    "/api/trial",
    { institute: "Sunrise Coaching", owner: "Asha Rao", email: "asha@example.com", plan: "3 Year Plan", domain },
    { headers: auth },
  );
}

async function trialOn(domain: string) {
  const owner = await business();
  const res = await startTrial(owner.auth, domain);
  expect(res.status).toBe(201);
  const { center } = await res.json();
  return { ...owner, center: center as { _id: string; slug: string; workingHost: string } };
}

const ask = (domain: string) => t.request(`/api/domains/ask?domain=${encodeURIComponent(domain)}`);
const claimDomain = (auth: Record<string, string>, domain: string) =>
  postJson(t, "/api/domains/claim", { domain }, { headers: auth });
const verify = (auth: Record<string, string>) => postJson(t, "/api/domains/verify", {}, { headers: auth });
const tokenOf = (txtValue: string) => txtValue.replace(/^pathshala-verify=/, "");

describe("a domain asked for and not proven", () => {
  it("serves nothing and gets no certificate; the working address works at once", async () => {
    const domain = newDomain();
    const { auth, center } = await trialOn(domain);
    const page = await t.request("/", { host: domain });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("This site is not configured");
    expect((await t.request("/", { host: center.workingHost })).status).toBe(200);
    expect(await (await ask(domain)).text()).toBe("no");
    expect((await ask(`www.${domain}`)).status).toBe(404);
    expect(await (await ask(center.workingHost)).text()).toBe("ok");

    const state = await domainState(t, auth);
    expect(state).toMatchObject({
      bound: null,
      workingHost: center.workingHost,
      claim: {
        domain,
        status: "pending",
        txt: { name: `_pathshala.${domain}` },
        checkedAt: null,
        lastResult: null,
      },
    });
    expect(state.claim!.txt.value).toMatch(/^pathshala-verify=[a-z2-7]{32}$/);
    const lapses = new Date(state.claim!.expiresAt).getTime() - new Date(state.claim!.createdAt).getTime();
    expect(lapses).toBe(CLAIM_DAYS * DAY);
  });

  it("is not proven by a check that finds nothing: the owner is told why, and it is remembered", async () => {
    const domain = newDomain();
    const { auth } = await trialOn(domain);
    // A TXT record with another token proves nothing.
    t.dns.records.set(`_pathshala.${domain}`, ["pathshala-verify=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]);
    const res = await verify(auth);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, proven: false, message: DOMAIN_TEXTS["not-found"](domain) });
    expect(body.domain.claim.lastResult).toBe(DOMAIN_TEXTS["not-found"](domain));
    expect((await domainState(t, auth)).claim!.checkedAt).not.toBeNull();
    expect((await t.request("/", { host: domain })).status).toBe(404);
  });
});

describe("proving a domain", () => {
  it("by its TXT record binds it: the site, its certificate and its www. twin follow at once", async () => {
    const domain = newDomain();
    const { auth, center } = await trialOn(domain);
    const { claim } = await domainState(t, auth);
    t.dns.records.set(claim!.txt.name, ["v=spf1 -all", claim!.txt.value]);
    const res = await verify(auth);
    expect(await res.json()).toMatchObject({
      success: true,
      proven: true,
      message: DOMAIN_TEXTS.proven(domain),
      domain: { bound: domain, claim: null },
    });
    const [row] = await t.database.db.select().from(centers).where(eq(centers.id, center._id));
    expect(row).toMatchObject({ customDomain: domain, website: `https://${domain}` });
    const page = await t.request("/", { host: domain });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Sunrise Coaching");
    expect(await (await ask(domain)).text()).toBe("ok");
    expect(await (await ask(`www.${domain}`)).text()).toBe("ok");
  });

  it("by the domain leading here over HTTP, when no other owner asks for it", async () => {
    const domain = newDomain();
    const { auth } = await trialOn(domain);
    t.dns.pointed.add(domain);
    expect(await (await verify(auth)).json()).toMatchObject({ proven: true, domain: { bound: domain } });
    expect((await t.request("/", { host: domain })).status).toBe(200);
  });

  it("not by HTTP while another owner asks for the same domain: only the TXT record tells them apart", async () => {
    const domain = newDomain();
    const squatter = await trialOn(domain);
    const owner = await trialOn(domain);
    t.dns.pointed.add(domain);
    for (const who of [owner, squatter]) {
      const body = await (await verify(who.auth)).json();
      expect(body).toMatchObject({ proven: false, message: DOMAIN_TEXTS.rivals(domain) });
    }
    expect((await t.request("/", { host: domain })).status).toBe(404);
    await proveDomain(t, owner.auth);
    const page = await t.request("/", { host: domain });
    expect(page.status).toBe(200);
    // The squatter's check now says the domain is another institute's, and it stays so.
    expect(await (await verify(squatter.auth)).json()).toMatchObject({ proven: false, message: DOMAIN_TEXTS.taken });
    const [sq] = await t.database.db.select().from(centers).where(eq(centers.id, squatter.center._id));
    expect(sq.customDomain).toBeNull();
  });
});

describe("the platform's HTTP answer", () => {
  it("is given only on the claimed host, for its live claim's token", async () => {
    const domain = newDomain();
    const { auth, center } = await trialOn(domain);
    const token = tokenOf((await domainState(t, auth)).claim!.txt.value);
    const here = await t.request(`${PROOF_PATH}${token}`, { host: domain });
    expect(here.status).toBe(200);
    expect(here.headers.get("cache-control")).toBe("no-store");
    const answer = await here.text();
    expect(answer).toMatch(/^[0-9a-f]{64}$/);
    // Not the token itself: a server that echoes its address cannot pass for the platform.
    expect(answer).not.toContain(token);
    for (const host of [`other.${domain}`, "localhost", center.workingHost, newDomain()])
      expect((await t.request(`${PROOF_PATH}${token}`, { host })).status, host).toBe(404);
    expect((await t.request(`${PROOF_PATH}${"a".repeat(32)}`, { host: domain })).status).toBe(404);
    expect((await t.request(`${PROOF_PATH}..%2F..%2Fetc`, { host: domain })).status).toBe(404);
    // Lapsed: no answer.
    await t.database.db
      .update(domainClaims)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(domainClaims.centerId, center._id));
    expect((await t.request(`${PROOF_PATH}${token}`, { host: domain })).status).toBe(404);
  });
});

describe("a claim that lapses", () => {
  it("cannot be proven any more; asked again, it gets a new token and the old record proves nothing", async () => {
    const domain = newDomain();
    const { auth, center } = await trialOn(domain);
    const old = (await domainState(t, auth)).claim!;
    await t.database.db
      .update(domainClaims)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(domainClaims.centerId, center._id));
    t.dns.records.set(old.txt.name, [old.txt.value]);
    const lapsed = await verify(auth);
    expect(lapsed.status).toBe(409);
    expect((await lapsed.json()).error).toBe(DOMAIN_TEXTS.lapsed);
    expect((await domainState(t, auth)).claim!.status).toBe("lapsed");
    expect((await t.request("/", { host: domain })).status).toBe(404);

    const again = await claimDomain(auth, domain);
    expect(again.status).toBe(200);
    const body = await again.json();
    expect(body).toMatchObject({
      proven: false,
      message: DOMAIN_TEXTS.asked(domain),
      domain: { claim: { status: "pending" } },
    });
    expect(body.domain.claim.txt.value).not.toBe(old.txt.value);
    expect(await (await verify(auth)).json()).toMatchObject({ proven: false });
    await proveDomain(t, auth);
  });
});

describe("a squatter", () => {
  it("blocks nobody: the real owner starts a trial, orders a plan and proves the domain; then it is theirs alone", async () => {
    const domain = newDomain("victim");
    const squatter = await trialOn(domain);
    const owner = await trialOn(domain);
    const availability = await (
      await t.request(`/api/payment/domain-availability?domain=${domain}`, { headers: owner.auth })
    ).json();
    expect(availability).toMatchObject({ available: true, renewal: true });
    const order = await postJson(
      t,
      "/api/payment/create-order",
      { institute: "Victim Academy", owner: "Real Owner", email: "real@example.com", plan: "1 Year Plan", domain },
      { headers: owner.auth },
    );
    expect(order.status).toBe(200);
    await proveDomain(t, owner.auth);

    // Bound: nobody else may ask for it, its www. twin, or a name under it.
    const third = await trialOn(newDomain());
    for (const name of [domain, `www.${domain}`, `shop.${domain}`, domain.toUpperCase(), `https://www.${domain}/`]) {
      for (const who of [squatter, third]) {
        const res = await claimDomain(who.auth, name);
        expect(res.status, name).toBe(409);
        expect((await res.json()).error).toBe(DOMAIN_TEXTS.taken);
      }
    }
    const fourth = await business();
    const trial = await startTrial(fourth.auth, `www.${domain}`);
    expect(trial.status).toBe(409);
    expect((await trial.json()).error).toBe(DOMAIN_TEXTS.taken);
    const buy = await postJson(
      t,
      "/api/payment/create-order",
      { institute: "X", owner: "X", email: "x@example.com", plan: "1 Year Plan", domain: `shop.${domain}` },
      { headers: fourth.auth },
    );
    expect(buy.status).toBe(409);
    // An admin, who binds without proof, cannot give the twin away either.
    const admin = bearer(await adminToken(t));
    const sub = await postJson(
      t,
      "/api/centers",
      { name: "Twin Center", domain: `www.${domain}`, website: `https://www.${domain}`, superAdminPath: "/admin" },
      { headers: admin },
    );
    expect(sub.status).toBe(409);
    expect((await sub.json()).error).toBe(CENTER_DOMAIN_TAKEN);
  });
});

describe("www.", () => {
  it("of a bound domain leads to the domain itself (and a bound www. domain's apex to it), path and query kept", async () => {
    const apex = newDomain();
    const a = await trialOn(apex);
    await proveDomain(t, a.auth);
    const get = await t.request("/catalog?page=2", { host: `www.${apex}` });
    expect(get.status).toBe(301);
    expect(get.headers.get("location")).toBe(`http://${apex}/catalog?page=2`);
    const post = await t.request("/api/enquiries", { host: `www.${apex}`, method: "POST", body: "{}" });
    expect(post.status).toBe(308);
    expect(post.headers.get("location")).toBe(`http://${apex}/api/enquiries`);

    const www = `www.${newDomain()}`;
    const b = await trialOn(www);
    await proveDomain(t, b.auth);
    const bare = await t.request("/", { host: www.slice(4) });
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe(`http://${www}/`);
    expect((await t.request("/", { host: www })).status).toBe(200);
    const c = await trialOn(newDomain());
    for (const name of [www.slice(4), www, `shop.${www.slice(4)}`])
      expect((await claimDomain(c.auth, name)).status, name).toBe(409);
  });
});

describe("a plan bought without a trial", () => {
  it("makes an institute on its working address that asks for the domain: paying proves nothing", async () => {
    const domain = newDomain("paid");
    const owner = await business();
    const order = await postJson(
      t,
      "/api/payment/create-order",
      { institute: "Paid Academy", owner: "Owner", email: "owner@example.com", plan: "1 Year Plan", domain },
      { headers: owner.auth },
    );
    const { body } = await payThroughSandbox(t, (await order.json()).order.id);
    expect(body.center).toMatchObject({ domain: null, pendingDomain: domain });
    expect(body.center.workingHost).toBe(`${body.center.slug}.pathshala.test`);
    expect((await t.request("/", { host: domain })).status).toBe(404);
    expect((await t.request("/", { host: body.center.workingHost })).status).toBe(200);
    // Admins find it by the domain it asked for, marked as not proven.
    const admin = bearer(await adminToken(t));
    const listed = await (await t.request(`/api/centers?q=${domain}`, { headers: admin })).json();
    expect(listed.centers).toHaveLength(1);
    expect(listed.centers[0]).toMatchObject({ _id: body.center._id, domain: null, pendingDomain: domain });
    await proveDomain(t, owner.auth);
    const after = await (await t.request(`/api/centers?q=${domain}`, { headers: admin })).json();
    expect(after.centers[0]).toMatchObject({ _id: body.center._id, domain, pendingDomain: null });
    expect((await t.request("/", { host: domain })).status).toBe(200);
    // Buying again for it renews the same institute.
    const again = await postJson(
      t,
      "/api/payment/create-order",
      { institute: "Paid Academy", owner: "Owner", email: "owner@example.com", plan: "1 Year Plan", domain },
      { headers: owner.auth },
    );
    const renewed = await payThroughSandbox(t, (await again.json()).order.id);
    expect(renewed.body.center._id).toBe(body.center._id);
  });
});

describe("asking for a domain", () => {
  it("checks who asks and what: 401, 403, 404 without an institute, 400 for bad or Pathshala names, 409 for its own", async () => {
    const body = { domain: newDomain() };
    expect((await postJson(t, "/api/domains/claim", body)).status).toBe(401);
    const student = await registerUser(t, "student");
    expect((await postJson(t, "/api/domains/claim", body, { headers: bearer(student.access_token) })).status).toBe(403);
    const newcomer = await business();
    const none = await claimDomain(newcomer.auth, body.domain);
    expect(none.status).toBe(404);
    expect((await none.json()).error).toBe(NO_SUBSCRIPTION);
    expect((await verify(newcomer.auth)).status).toBe(404);

    const domain = newDomain();
    const { auth, center } = await trialOn(domain);
    const cases: [unknown, number, string][] = [
      ["not a domain", 400, INVALID_DOMAIN],
      ["", 400, "Domain name is required"],
      [42, 400, "Domain name is required"],
      [`mine.pathshala.test`, 400, DOMAIN_TEXTS.reserved],
      ["localhost", 400, INVALID_DOMAIN],
    ];
    for (const [value, status, error] of cases) {
      const res = await postJson(t, "/api/domains/claim", { domain: value }, { headers: auth });
      expect(res.status, String(value)).toBe(status);
      expect((await res.json()).error).toBe(error);
    }
    const malformed = await postJson(t, "/api/domains/claim", "{", { headers: auth });
    expect(malformed.status).toBe(400);
    // Nothing changed: the trial's claim stands.
    expect((await domainState(t, auth)).claim!.domain).toBe(domain);

    await proveDomain(t, auth);
    for (const own of [domain, `www.${domain}`]) {
      const res = await claimDomain(auth, own);
      expect(res.status).toBe(409);
      expect((await res.json()).error).toBe(DOMAIN_TEXTS.ownThis);
    }
    const verifyNothing = await verify(auth);
    expect(verifyNothing.status).toBe(404);
    expect((await verifyNothing.json()).error).toBe(DOMAIN_TEXTS.noClaim);

    // Moving to another domain: the bound one keeps serving until the new one is proven.
    const next = newDomain();
    expect((await claimDomain(auth, next)).status).toBe(200);
    expect((await t.request("/", { host: domain })).status).toBe(200);
    await proveDomain(t, auth);
    expect((await t.request("/", { host: next })).status).toBe(200);
    expect((await t.request("/", { host: domain })).status).toBe(404);
    const [row] = await t.database.db.select().from(centers).where(eq(centers.id, center._id));
    expect(row.customDomain).toBe(next);
  });

  it("and checking it are limited per institute", async () => {
    const { auth } = await trialOn(newDomain());
    const answers: number[] = [];
    for (let i = 0; i < 31; i++) answers.push((await verify(auth)).status);
    expect(answers.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(answers[30]).toBe(429);
  });
});

describe("on a real deployment", () => {
  let real: TestApp;
  beforeAll(async () => {
    real = await createTestApp({ PLATFORM_DOMAIN: "pathshala.in" });
  });
  afterAll(() => real?.close());

  it("names no one can own (*.localhost, *.test…) are refused", async () => {
    const account = await registerUser(real, "business");
    await createCenter(real, account.user._id, { customDomain: null });
    for (const name of ["academy.test", "academy.localhost", "academy.example", "academy.local"]) {
      const res = await postJson(
        real,
        "/api/domains/claim",
        { domain: name },
        { headers: bearer(account.access_token) },
      );
      expect(res.status, name).toBe(400);
      expect((await res.json()).error).toBe(INVALID_DOMAIN);
    }
    const ok = await postJson(
      real,
      "/api/domains/claim",
      { domain: "academy-real.in" },
      { headers: bearer(account.access_token) },
    );
    expect(ok.status).toBe(200);
  });
});
