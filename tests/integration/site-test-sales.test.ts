import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { invoices, mockTests, orders } from "../../server/db/schema/index.ts";
import { createLoadContext } from "../../server/middleware/context.ts";
import type { AppEnv } from "../../server/middleware/types.ts";
import type { AppDeps } from "../../server/middleware/types.ts";
import { loader as catalogLoader } from "../../app/routes/catalog.tsx";
import { loadTestStart } from "../../app/lib/mock-tests/student.server.ts";
import { freeTestHref } from "../../tenants/shared/catalog.tsx";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { enrol, register } from "../helpers/learning.ts";
import { joinTeam } from "../helpers/team.ts";
import { createListeningTestApp, signOrder, type ListeningTestApp } from "../helpers/payments.ts";

/**
 * Issue 38 §4: tests and series sold on the institute's site. The site's home page and catalog list
 * the institute's published tests and series with their prices; a series bought opens each of its
 * tests; a test that has closed or that the student has used up is not offered to be taken.
 */

/** The catalog page's and a test page's loaders, as React Router would run them for the request. */
async function pages(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const context = createLoadContext(c, deps);
  const url = new URL(c.req.url);
  if (url.pathname === "/catalog")
    return c.json(await catalogLoader({ request: c.req.raw, params: {}, context } as never));
  const test = /^\/student\/mock-tests\/([0-9a-f-]{36})$/.exec(url.pathname);
  if (test) return c.json(await loadTestStart(context, test[1]));
  return c.text("react-router", 200);
}

let t: ListeningTestApp;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let vidya: Awaited<ReturnType<typeof createCenter>>;
let creator: Awaited<ReturnType<typeof register>>;
const ids = {} as Record<
  "free" | "paidA" | "paidB" | "draft" | "closed" | "closedFree" | "series" | "emptySeries" | "vidyaTest",
  string
>;
const host = () => sunrise.customDomain!;

const json = async (res: Response) => ({ status: res.status, body: await res.json() });

async function question(token: string): Promise<string> {
  const res = await postJson(
    t,
    "/api/questions",
    { type: "single", text: "$2 + 2 =$", options: ["3", "4", "5", "6"], answer: 1 },
    { headers: bearer(token) },
  );
  expect(res.status).toBe(201);
  return (await res.json()).questions[0]._id;
}

async function makeTest(
  token: string,
  body: { title: string; businessId: string; price: number; attemptsAllowed?: number },
  q: string,
  publish = true,
): Promise<string> {
  const created = await json(
    await postJson(
      t,
      "/api/tests",
      { ...body, durationMinutes: 20, sections: [{ name: "Maths", questions: [q] }] },
      { headers: bearer(token) },
    ),
  );
  expect(created.status).toBe(201);
  const id = created.body.test._id as string;
  if (publish) expect((await postJson(t, `/api/tests/${id}/publish`, {}, { headers: bearer(token) })).status).toBe(200);
  return id;
}

async function makeSeries(token: string, businessId: string, title: string, price: number, tests: string[]) {
  const made = await json(
    await postJson(t, "/api/series", { title, businessId, price, tests }, { headers: bearer(token) }),
  );
  expect(made.status).toBe(201);
  return made.body.series._id as string;
}

/** A page as the signed-in student (their web session on the institute's host) or a visitor sees it. */
async function page<T>(path: string, student?: { user: { _id: string } }): Promise<T> {
  const headers: Record<string, string> = {};
  if (student) {
    const { token } = await t.services.sessions.createWebSession(student.user._id, host(), false);
    headers.cookie = `pathshala_session=${token}`;
  }
  const res = await t.request(path, { host: host(), headers });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

type CatalogData = {
  tests: {
    _id: string;
    title: string;
    price: number;
    entitled: boolean;
    closesAt: string | null;
    attempts: { _id: string; submittedAt: string | null }[];
  }[];
  series: { _id: string; title: string; price: number; enrolled?: boolean; tests: { _id: string }[] }[];
};

const homeHtml = async () => (await t.request("/", { host: host() })).text();
/** The Mock Tests block's entry for one content on the home page. */
const offerOf = (html: string, id: string) =>
  [...html.matchAll(/<li[^>]*data-test-offer="([^"]+)"[^>]*>(.*?)<\/li>/gs)].find((m) => m[1] === id)?.[2];

beforeAll(async () => {
  // Listening: the Razorpay SDK reaches the payment sandbox over HTTP, as in a running server.
  t = await createListeningTestApp({ TRUST_PROXY: "1" }, { pages });
  sunrise = await createCenter(t, null, { instituteName: "Sunrise Academy" });
  vidya = await createCenter(t, null, { instituteName: "Vidya Classes" });
  creator = await register(t, "creator", { name: "Rahul Verma" });
  await joinTeam(t, sunrise.id, creator.user._id);
  await joinTeam(t, vidya.id, creator.user._id);
  const token = creator.access_token;
  const q = await question(token);
  ids.free = await makeTest(token, { title: "Free chapter test", businessId: sunrise.id, price: 0 }, q);
  ids.paidA = await makeTest(token, { title: "JEE Main Mock 1", businessId: sunrise.id, price: 99 }, q);
  ids.paidB = await makeTest(token, { title: "JEE Main Mock 2", businessId: sunrise.id, price: 99 }, q);
  ids.draft = await makeTest(token, { title: "Unfinished draft", businessId: sunrise.id, price: 49 }, q, false);
  ids.closed = await makeTest(token, { title: "Last month's mock", businessId: sunrise.id, price: 149 }, q);
  ids.closedFree = await makeTest(token, { title: "Last month's free quiz", businessId: sunrise.id, price: 0 }, q);
  ids.series = await makeSeries(token, sunrise.id, "JEE Main Test Series", 1499, [ids.paidA, ids.paidB]);
  // A series of a test that is still a draft sells nothing yet.
  ids.emptySeries = await makeSeries(token, sunrise.id, "Series still in the making", 999, [ids.draft]);
  ids.vidyaTest = await makeTest(token, { title: "NEET Biology Mock", businessId: vidya.id, price: 199 }, q);
  // Their windows passed (the builder takes only future windows, so written here).
  for (const id of [ids.closed, ids.closedFree])
    await t.database.db
      .update(mockTests)
      .set({ closesAt: new Date(Date.now() - 60_000) })
      .where(eq(mockTests.contentId, id));
  t.services.sites.catalogChanged(sunrise.id);
});
afterAll(() => t.close());

describe("the site's catalog data", () => {
  it("lists the institute's published tests and its series with their prices, and nothing else", async () => {
    const { tests } = await t.services.sites.catalog(sunrise.id);
    const listed = Object.fromEntries(tests.map((i) => [i.title, i]));
    expect(Object.keys(listed).sort()).toEqual(
      [
        "Free chapter test",
        "JEE Main Mock 1",
        "JEE Main Mock 2",
        "JEE Main Test Series",
        "Last month's free quiz",
        "Last month's mock",
      ].sort(),
    );
    expect(listed["JEE Main Test Series"]).toMatchObject({ type: "series", price: 1499, testCount: 2 });
    expect(listed["JEE Main Mock 1"]).toMatchObject({ type: "test", price: 99, closed: false });
    expect(listed["Free chapter test"]).toMatchObject({ type: "test", price: 0, closed: false });
    expect(listed["Last month's mock"]).toMatchObject({ price: 149, closed: true });
  });

  it("renders them in the home page's Mock Tests block, priced as the product writes prices", async () => {
    const html = await homeHtml();
    const series = offerOf(html, ids.series)!;
    expect(series).toContain("JEE Main Test Series");
    expect(series).toContain("Test series · 2 tests");
    expect(series).toContain("₹1,499");
    expect(series).toContain(`href="/catalog?buy=${ids.series}#content-${ids.series}">Buy</a>`);
    const paid = offerOf(html, ids.paidA)!;
    expect(paid).toContain("₹99");
    expect(paid).toContain(`href="/catalog?buy=${ids.paidA}#content-${ids.paidA}">Buy</a>`);
    const free = offerOf(html, ids.free)!;
    expect(free).toContain("Free");
    // The lead magnet opens on Register, then goes on to the test (a visitor is new to the institute).
    expect(free).toContain(`href="${freeTestHref(ids.free).replaceAll("&", "&amp;")}">Take the free test</a>`);
    for (const hidden of ["Unfinished draft", "Series still in the making", "NEET Biology Mock"])
      expect(html).not.toContain(hidden);
  });

  it("gives the catalog page the same tests and series, priced, for a visitor", async () => {
    const data = await page<CatalogData>("/catalog");
    expect(data.series.map((s) => [s.title, s.price, s.tests.map((x) => x._id)])).toEqual([
      ["JEE Main Test Series", 1499, [ids.paidA, ids.paidB]],
    ]);
    const tests = Object.fromEntries(data.tests.map((x) => [x.title, x]));
    expect(Object.keys(tests).sort()).toEqual(
      ["Free chapter test", "JEE Main Mock 1", "JEE Main Mock 2", "Last month's free quiz", "Last month's mock"].sort(),
    );
    expect(tests["JEE Main Mock 1"]).toMatchObject({ price: 99, entitled: false });
    expect(tests["Free chapter test"]).toMatchObject({ price: 0, entitled: true });
  });

  it("is each institute's own: Vidya's site lists only Vidya's test", async () => {
    const { tests } = await t.services.sites.catalog(vidya.id);
    expect(tests.map((i) => [i.title, i.price])).toEqual([["NEET Biology Mock", 199]]);
  });

  it("keeps the home page until the next test opens or closes, then shows it afresh", async () => {
    const now = new Date();
    const soon = new Date(now.getTime() + 3_600_000);
    await t.database.db.update(mockTests).set({ closesAt: soon }).where(eq(mockTests.contentId, ids.free));
    try {
      expect((await t.services.sites.catalog(sunrise.id, now)).freshUntil).toBe(soon.getTime());
      const after = await t.services.sites.catalog(sunrise.id, new Date(soon.getTime() + 1));
      expect(after.tests.find((i) => i.id === ids.free)).toMatchObject({ closed: true });
    } finally {
      await t.database.db.update(mockTests).set({ closesAt: null }).where(eq(mockTests.contentId, ids.free));
    }
  });
});

describe("the cached home page", () => {
  it("is rendered again once a test on it closes, with no change to the catalog", async () => {
    const closes = new Date(Date.now() + 3_600_000);
    await t.database.db.update(mockTests).set({ closesAt: closes }).where(eq(mockTests.contentId, ids.free));
    t.services.sites.catalogChanged(sunrise.id);
    try {
      expect(offerOf(await homeHtml(), ids.free)).toContain("Take the free test");
      // Kept while nothing on it changes.
      expect(offerOf(await homeHtml(), ids.free)).toContain("Take the free test");
      // The product's clock past the window's close (timers stay real: the database keeps working).
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(closes.getTime() + 1_000);
      const offer = offerOf(await homeHtml(), ids.free)!;
      expect(offer).toContain(">Closed<");
      expect(offer).not.toContain("Take the free test");
    } finally {
      vi.useRealTimers();
      await t.database.db.update(mockTests).set({ closesAt: null }).where(eq(mockTests.contentId, ids.free));
      t.services.sites.catalogChanged(sunrise.id);
    }
  });
});

describe("buying a series", () => {
  it("takes one payment on the institute's site, in the institute's name, and opens every test in it", async () => {
    const student = await register(t, "student", { name: "Neha Kulkarni", host: host() });
    const token = student.access_token;
    const start = (testId: string) =>
      postJson(t, `/api/tests/${testId}/attempts`, {}, { headers: bearer(token), host: host() });
    expect((await start(ids.paidA)).status).toBe(402);

    const ordered = await json(await enrol(t, token, ids.series, host()));
    expect(ordered.status).toBe(200);
    // Priced by the server from the series itself: ₹1,499 in paise.
    expect(ordered.body.order).toMatchObject({ amount: 149900, currency: "INR" });
    const orderId = ordered.body.order.id as string;
    const paymentId = `pay_series${Date.now().toString(36)}`;
    const verified = await json(
      await postJson(
        t,
        "/api/student/enroll/verify",
        {
          razorpay_order_id: orderId,
          razorpay_payment_id: paymentId,
          razorpay_signature: await signOrder(t, orderId, paymentId),
        },
        { headers: bearer(token), host: host() },
      ),
    );
    expect(verified.status).toBe(200);
    expect(verified.body.success).toBe(true);

    // The seller of record is the institute, as for any content it sells.
    const [order] = await t.database.db.select().from(orders).where(eq(orders.gatewayOrderId, orderId));
    const [invoice] = await t.database.db.select().from(invoices).where(eq(invoices.orderId, order.id));
    expect(invoice).toMatchObject({ sellerCenterId: sunrise.id, sellerName: "Sunrise Academy" });

    // Each test of the series opens; none asks to be bought again.
    expect((await start(ids.paidA)).status).toBe(200);
    expect((await start(ids.paidB)).status).toBe(200);
    const again = await json(await enrol(t, token, ids.paidB, host()));
    expect(again.status).toBe(200);
    expect(again.body.order).toBeUndefined();
    expect(again.body.alreadyEnrolled).toBe(true);

    const data = await page<CatalogData>("/catalog", student);
    expect(data.series.find((s) => s._id === ids.series)?.enrolled).toBe(true);
    for (const id of [ids.paidA, ids.paidB]) expect(data.tests.find((x) => x._id === id)?.entitled).toBe(true);
  });
});

describe("a closed or used-up test", () => {
  it("is shown closed on the home page, never offered to be taken or bought", async () => {
    const html = await homeHtml();
    for (const id of [ids.closed, ids.closedFree]) {
      const offer = offerOf(html, id)!;
      expect(offer).toContain(">Closed<");
      expect(offer).not.toContain("Take the free test");
      expect(offer).not.toContain(">Buy<");
    }
  });

  it("is not sold: buying a closed test is refused in the attempts' words", async () => {
    const student = await register(t, "student", { host: host() });
    const refused = await json(await enrol(t, student.access_token, ids.closed, host()));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("This test has closed");
  });

  it("once a student has used their attempts, their test page says so and links the result instead of beginning", async () => {
    const student = await register(t, "student", { name: "Asha", host: host() });
    const token = student.access_token;
    const started = await json(
      await postJson(t, `/api/tests/${ids.free}/attempts`, {}, { headers: bearer(token), host: host() }),
    );
    expect(started.status).toBe(200);
    const attemptId = started.body.attempt._id as string;
    expect(
      (await postJson(t, `/api/attempts/${attemptId}/submit`, {}, { headers: bearer(token), host: host() })).status,
    ).toBe(200);

    const startPage = await page<{ over: string | null; lastSubmitted: string | null }>(
      `/student/mock-tests/${ids.free}`,
      student,
    );
    expect(startPage).toMatchObject({ over: "used-up", lastSubmitted: attemptId });
    const closedPage = await page<{ over: string | null }>(`/student/mock-tests/${ids.closedFree}`, student);
    expect(closedPage.over).toBe("closed");

    // The catalog has their sitting, from which its card shows "Attempted" and the result.
    const data = await page<CatalogData>("/catalog", student);
    expect(data.tests.find((x) => x._id === ids.free)?.attempts.map((a) => a._id)).toEqual([attemptId]);

    // Someone who has not taken it is still offered it.
    const other = await register(t, "student", { host: host() });
    expect((await page<{ over: string | null }>(`/student/mock-tests/${ids.free}`, other)).over).toBeNull();
  });
});
