import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { contents, memberships, users } from "../../server/db/schema/index.ts";
import { createLoadContext } from "../../server/middleware/context.ts";
import type { AppDeps, AppEnv } from "../../server/middleware/types.ts";
import { openBusinessArea, CENTER_COOKIE } from "../../app/lib/business.server.ts";
import { loader as listLoader } from "../../app/routes/mock-tests/list.tsx";
import { loader as testLoader, action as testAction } from "../../app/routes/mock-tests/test.tsx";
import { notAllowed } from "../../server/auth/permissions.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { CHOSEN_MEMBERSHIP_COOKIE, type MemberRole } from "#common/memberships.ts";

/**
 * The business area's Tests pages decide through the policy (issue 40 §1, decision 0039): they
 * show and change the tests of the institute the business area shows (the person's pick, the
 * institute's domain, the header's choice, else the newest) alone, each write decided by
 * tests.write there. An owner of two institutes sees one institute's tests at a time, switches
 * with the header, and is refused the other's test by its id; staff are refused the pages.
 */

/** The business layout's middleware, then the Tests list's or a test's loader or action, as React Router runs them. */
async function pages(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const context = createLoadContext(c, deps);
  const request = c.req.raw;
  const path = new URL(c.req.url).pathname;
  const one = /^\/business\/tests\/([0-9a-f-]{36})$/.exec(path);
  try {
    await openBusinessArea(context, request);
    if (path === "/business/tests") return c.json(await listLoader({ request, params: {}, context } as never));
    if (one && request.method === "GET")
      return c.json(await testLoader({ request, params: { id: one[1] }, context } as never));
    if (one) {
      const answer = (await testAction({ request, params: { id: one[1] }, context } as never)) as unknown;
      return answerOf(c, answer);
    }
    return c.text("react-router", 200);
  } catch (thrown) {
    return answerOf(c, thrown);
  }
}

/** A thrown or returned Response (a redirect) as it is; `data(…, {status})` as JSON with its status. */
function answerOf(c: Context<AppEnv>, value: unknown): Response {
  if (value instanceof Response) return value;
  if (value && typeof value === "object" && "init" in value && "data" in value) {
    const { data, init } = value as { data: unknown; init?: { status?: number } };
    return c.json({ data }, (init?.status ?? 200) as 200);
  }
  throw value;
}

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let staff: Account;
let alpha: Awaited<ReturnType<typeof createCenter>>;
let beta: Awaited<ReturnType<typeof createCenter>>;
const ids = {} as Record<"alphaTest" | "betaTest", string>;

const picked = (centerId: string) => `${CENTER_COOKIE}=${centerId}`;
const chose = (centerId: string, role: MemberRole) => `${CHOSEN_MEMBERSHIP_COOKIE}=${centerId}:${role}`;
const headers = (who: Account, cookie?: string) => ({ ...bearer(who.access_token), ...(cookie ? { cookie } : {}) });
const page = (path: string, who: Account, cookie?: string) => t.request(path, { headers: headers(who, cookie) });
const post = (path: string, who: Account, form: Record<string, string>, cookie?: string) =>
  t.request(path, {
    method: "POST",
    headers: { ...headers(who, cookie), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });

async function listed(res: Response): Promise<string[]> {
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { tests: { title: string }[] }).tests.map((x) => x.title).sort();
}

async function draft(title: string, centerId: string): Promise<string> {
  const res = await postJson(
    t,
    "/api/tests",
    { pattern: "custom", title, businessId: centerId },
    { headers: headers(owner, chose(centerId, "owner")) },
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).test._id as string;
}

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" }, { pages });
  owner = await register(t, "business", { name: "Owner of Two" });
  staff = await register(t, "creator", { name: "Front Desk at Alpha" });
  alpha = await createCenter(t, owner.user._id, {
    instituteName: "Alpha Tutorials",
    slug: "btd-alpha",
    createdAt: new Date(Date.now() - 60_000),
  });
  beta = await createCenter(t, owner.user._id, { instituteName: "Beta Coaching", slug: "btd-beta" });
  const [row] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, staff.user._id));
  await t.database.db.insert(memberships).values({
    centerId: alpha.id,
    userId: staff.user._id,
    email: row.email,
    role: "staff",
    duty: "front desk",
    status: "active",
    acceptedAt: new Date(),
  });
  ids.alphaTest = await draft("Alpha weekly test", alpha.id);
  ids.betaTest = await draft("Beta weekly test", beta.id);
});
afterAll(() => t.close());

describe("the business area's Tests pages for an owner of two institutes", () => {
  it("list the tests of the institute the area shows alone, and follow the header's switch", async () => {
    // No choice: the newest institute (Beta).
    expect(await listed(await page("/business/tests", owner))).toEqual(["Beta weekly test"]);
    // Switched with the header's institute switcher, or the role switcher.
    expect(await listed(await page("/business/tests", owner, picked(alpha.id)))).toEqual(["Alpha weekly test"]);
    expect(await listed(await page("/business/tests", owner, chose(alpha.id, "owner")))).toEqual(["Alpha weekly test"]);
    expect(await listed(await page("/business/tests", owner, picked(beta.id)))).toEqual(["Beta weekly test"]);
  });

  it("open a test of the institute shown, and refuse the other institute's by its id", async () => {
    const atAlpha = await page(`/business/tests/${ids.alphaTest}`, owner, picked(alpha.id));
    expect(atAlpha.status, await atAlpha.clone().text()).toBe(200);
    expect((await atAlpha.json()).test.title).toBe("Alpha weekly test");

    const other = await page(`/business/tests/${ids.alphaTest}`, owner, picked(beta.id));
    expect([403, 404]).toContain(other.status);
    expect(JSON.stringify(await other.json())).not.toContain("Alpha weekly test");
    expect([403, 404]).toContain((await page(`/business/tests/${ids.betaTest}`, owner, picked(alpha.id))).status);
  });

  it("name the institute they show on their /api links, so the API works on the same one", async () => {
    // The page says which institute it shows; its links (rank list, export, figures) carry it.
    const shown = await page(`/business/tests/${ids.betaTest}`, owner);
    expect(shown.status, await shown.clone().text()).toBe(200);
    expect((await shown.json()).desk).toBe(beta.id);
    // Without it the API would work on the owner's first institute by name (Alpha), not the newest the area shows.
    expect((await page(`/api/tests/${ids.betaTest}`, owner)).status).toBe(404);
    expect((await page(`/api/tests/${ids.betaTest}?desk=${beta.id}`, owner)).status).toBe(200);
    // A desk where the person does not work is no desk: the API falls back and finds nothing of Beta's.
    const elsewhere = await createCenter(t, null, { instituteName: "Gamma Classes", slug: "btd-gamma" });
    expect((await page(`/api/tests/${ids.betaTest}?desk=${elsewhere.id}`, owner)).status).toBe(404);
  });

  it("change only the institute shown's tests: the other's draft is not discarded from here", async () => {
    const refused = await post(`/business/tests/${ids.betaTest}`, owner, { intent: "discard" }, picked(alpha.id));
    expect([403, 404]).toContain(refused.status);
    const [kept] = await t.database.db.select().from(contents).where(eq(contents.id, ids.betaTest));
    expect(kept).toBeDefined();
    expect(kept.archivedAt).toBeNull();

    // At Beta, its owner discards it.
    const done = await post(`/business/tests/${ids.betaTest}`, owner, { intent: "discard" }, picked(beta.id));
    expect(done.status, await done.clone().text()).toBe(302);
    expect(await listed(await page("/business/tests", owner, picked(beta.id)))).toEqual([]);
    expect(await listed(await page("/business/tests", owner, picked(alpha.id)))).toEqual(["Alpha weekly test"]);
  });
});

describe("the business area's Tests pages for staff", () => {
  it("are refused in the policy's words (staff may not tests.write)", async () => {
    const res = await page("/business/tests", staff);
    expect(res.status).toBe(403);
    expect((await res.json()).data).toBe(notAllowed("tests.write"));
    expect((await page(`/business/tests/${ids.alphaTest}`, staff)).status).toBe(403);
  });
});
