import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { centers } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { adminToken } from "../helpers/payments.ts";
import { createCenter } from "../helpers/centers.ts";

let t: TestApp;
let admin: Record<string, string>;
let others: [string, Record<string, string>][];

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await adminToken(t));
  others = [
    ["student", bearer((await registerUser(t, "student")).access_token)],
    ["creator", bearer((await registerUser(t, "creator")).access_token)],
    ["business", bearer((await registerUser(t, "business")).access_token)],
  ];
});
afterAll(() => t.close());

let n = 0;
const valid = (overrides: Record<string, unknown> = {}) => {
  n += 1;
  const domain = `sub-${Date.now().toString(36)}-${n}.test`;
  return { name: `Sub Center ${n}`, domain, website: `https://${domain}`, superAdminPath: "/admin", ...overrides };
};
const create = (body: unknown, headers = admin) => postJson(t, "/api/centers", body, { headers });
const centerCount = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(centers))[0].n;

describe("POST /api/centers", () => {
  it("creates a sub center that its domain serves at once, with the spec's message", async () => {
    const body = valid({
      name: "  Howrah Branch ",
      domain: " HTTPS://Howrah-Branch.TEST/ ",
      website: "https://howrah-branch.test/",
      superAdminPath: "/staff/",
    });
    // The host is unknown (and that answer is cached) before the center exists.
    expect((await t.request("/", { host: "howrah-branch.test" })).status).toBe(404);
    const res = await create(body);
    expect(res.status).toBe(201);
    const json = await res.json();
    expect(json).toMatchObject({
      success: true,
      message: "Sub center created successfully.",
      center: {
        name: "Howrah Branch",
        domain: "howrah-branch.test",
        website: "https://howrah-branch.test",
        superAdminPath: "/staff",
        status: "active",
        expireDate: null,
        owner: null,
      },
    });
    expect(json.center._id).toMatch(/^[0-9a-f-]{36}$/);
    const home = await t.request("/", { host: "howrah-branch.test" });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Howrah Branch");
    // Its admin path leads to the institute's own business sign-in.
    const staff = await t.request("/staff", { host: "howrah-branch.test" });
    expect(staff.status).toBe(302);
    expect(staff.headers.get("location")).toContain("/auth?role=business");
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    ["no name", { name: "" }, "name", "Sub center name is required"],
    ["a blank name", { name: "   " }, "name", "Sub center name is required"],
    ["a missing name", { name: undefined }, "name", "Sub center name is required"],
    ["a one-letter name", { name: "A" }, "name", "Sub center name must be at least 2 characters"],
    ["no domain", { domain: "" }, "domain", "Domain name is required"],
    [
      "a domain that is not a host name",
      { domain: "my center" },
      "domain",
      "Please enter a valid domain (e.g., yourinstitute.com)",
    ],
    [
      "a domain with a one-letter ending",
      { domain: "center.x" },
      "domain",
      "Please enter a valid domain (e.g., yourinstitute.com)",
    ],
    ["no website", { website: "" }, "website", "Website is required"],
    ["a website that is not a URL", { website: "not a url" }, "website", "Please enter a valid URL"],
    ["a website that is not http(s)", { website: "javascript:alert(1)" }, "website", "Please enter a valid URL"],
    ["no super admin path", { superAdminPath: "" }, "superAdminPath", "Super Admin Path is required"],
    ["a path without the leading slash", { superAdminPath: "admin" }, "superAdminPath", "Path must start with /"],
    [
      "a path the site already uses",
      { superAdminPath: "/business" },
      "superAdminPath",
      "This path is already used by the institute's website. Please choose another, e.g. /admin.",
    ],
    [
      "the home page as the path",
      { superAdminPath: "/" },
      "superAdminPath",
      "This path is already used by the institute's website. Please choose another, e.g. /admin.",
    ],
    [
      "a path with odd characters",
      { superAdminPath: "/ad min?x" },
      "superAdminPath",
      "Use only letters, numbers, -, _, . and / in the path.",
    ],
  ];

  it.each(invalid)(
    "refuses %s with 400 and the spec's message, creating nothing",
    async (_what, overrides, field, message) => {
      const before = await centerCount();
      const res = await create(valid(overrides));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ success: false, error: message });
      expect(body.issues).toContainEqual({ field, message });
      expect(await centerCount()).toBe(before);
    },
  );

  it("names every invalid field at once", async () => {
    const res = await create({});
    expect(res.status).toBe(400);
    const { issues } = await res.json();
    expect(issues).toEqual([
      { field: "name", message: "Sub center name is required" },
      { field: "domain", message: "Domain name is required" },
      { field: "website", message: "Website is required" },
      { field: "superAdminPath", message: "Super Admin Path is required" },
    ]);
  });

  it("answers 409 when the domain is taken (by a sub center or a purchased institute), in any spelling", async () => {
    const first = valid();
    expect((await create(first)).status).toBe(201);
    const before = await centerCount();
    const res = await create(valid({ domain: `https://${first.domain.toUpperCase()}/` }));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      success: false,
      error: "This domain is already used by another center.",
      issues: [{ field: "domain", message: "This domain is already used by another center." }],
    });
    const bought = await createCenter(t, null);
    expect((await create(valid({ domain: bought.customDomain }))).status).toBe(409);
    expect(await centerCount()).toBe(before + 1);
  });

  it("refuses the platform's own addresses", async () => {
    const res = await create(valid({ domain: "branch.localhost" }));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(
      "This address belongs to Pathshala. Please enter your institute's own domain.",
    );
  });

  it("refuses malformed JSON with 400", async () => {
    expect((await create("{")).status).toBe(400);
  });
});

describe("GET /api/centers", () => {
  it("lists centers newest first with the list's fields, searchable and paged", async () => {
    const made = await (await create(valid({ name: "Listed Branch" }))).json();
    const res = await t.request("/api/centers", { headers: admin });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.total).toBe(await centerCount());
    expect(body.centers[0]).toEqual({
      _id: made.center._id,
      name: "Listed Branch",
      domain: made.center.domain,
      pendingDomain: null,
      website: made.center.website,
      superAdminPath: "/admin",
      slug: "listed-branch",
      status: "active",
      createdAt: made.center.createdAt,
      startsAt: made.center.startsAt,
      expireDate: null,
      plan: null,
      billing: null,
      templateId: "t1",
      owner: null,
      trialEndsAt: null,
      payment: null,
    });
    const found = await (await t.request("/api/centers?q=listed", { headers: admin })).json();
    expect(found.centers.map((c: { name: string }) => c.name)).toEqual(["Listed Branch"]);
    expect(found.total).toBe(1);
    // A % in the search is a character, not a wildcard.
    expect((await (await t.request("/api/centers?q=%25", { headers: admin })).json()).total).toBe(0);
    const paged = await (await t.request("/api/centers?limit=1&offset=1", { headers: admin })).json();
    expect(paged.centers).toHaveLength(1);
    expect(paged.centers[0]._id).toBe(body.centers[1]._id);
    expect((await t.request("/api/centers?limit=0", { headers: admin })).status).toBe(400);
    expect((await t.request("/api/centers?limit=x", { headers: admin })).status).toBe(400);
  });

  it("shows a purchased center's owner and plan", async () => {
    const owner = await registerUser(t, "business", { name: "Owner Name" });
    const center = await createCenter(t, owner.user._id, { instituteName: "Owned Institute" });
    const body = await (await t.request("/api/centers?q=Owned%20Institute", { headers: admin })).json();
    expect(body.centers[0]).toMatchObject({
      _id: center.id,
      plan: "3 Year Plan",
      billing: "yearly",
      owner: { _id: owner.user._id, name: "Owner Name", email: owner.email },
    });
  });
});

describe("editing a center (beyond the spec)", () => {
  it("changes name, domain, website and path; the new domain serves it at once and the old one no longer does", async () => {
    const made = (await (await create(valid({ name: "Before Edit" }))).json()).center;
    expect((await t.request("/", { host: made.domain })).status).toBe(200);
    const res = await postJson(
      t,
      `/api/centers/${made._id}`,
      {
        name: "After Edit",
        domain: "after-edit.test",
        website: "http://after-edit.test:8080",
        superAdminPath: "/office",
      },
      { method: "PUT", headers: admin },
    );
    expect(res.status).toBe(200);
    expect((await res.json()).center).toMatchObject({
      _id: made._id,
      name: "After Edit",
      domain: "after-edit.test",
      website: "http://after-edit.test:8080",
      superAdminPath: "/office",
    });
    expect((await t.request("/", { host: made.domain })).status).toBe(404);
    const home = await t.request("/", { host: "after-edit.test" });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("After Edit");
    expect((await t.request("/office", { host: "after-edit.test" })).status).toBe(302);
  });

  it("keeps its own domain, refuses another center's (409) and bad input (400), and 404s an unknown id", async () => {
    const a = (await (await create(valid())).json()).center;
    const b = (await (await create(valid())).json()).center;
    const put = (id: string, body: unknown) =>
      postJson(t, `/api/centers/${id}`, body, { method: "PUT", headers: admin });
    expect(
      (await put(a._id, { name: "Same Domain", domain: a.domain, website: a.website, superAdminPath: "/admin" }))
        .status,
    ).toBe(200);
    const taken = await put(a._id, { name: "Xavier", domain: b.domain, website: a.website, superAdminPath: "/admin" });
    expect(taken.status).toBe(409);
    const bad = await put(a._id, { name: "Xavier", domain: a.domain, website: "nope", superAdminPath: "/admin" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Please enter a valid URL");
    const [row] = await t.database.db.select().from(centers).where(eq(centers.id, a._id));
    expect(row.instituteName).toBe("Same Domain");
    expect((await put("00000000-0000-4000-8000-000000000000", valid())).status).toBe(404);
    expect((await put("not-an-id", valid())).status).toBe(404);
  });
});

describe("extending and (de)activating a center (beyond the spec)", () => {
  const DAY = 86_400_000;

  it("extends from the current expiry, or from now when there is none or it has passed", async () => {
    const future = await createCenter(t, null, { expiresAt: new Date(Date.now() + 10 * DAY) });
    const res = await postJson(t, `/api/centers/${future.id}/extend`, { days: 30 }, { headers: admin });
    expect(res.status).toBe(200);
    const extended = (await res.json()).center;
    expect(new Date(extended.expireDate).getTime()).toBe(future.expiresAt!.getTime() + 30 * DAY);

    const lapsed = await createCenter(t, null, { expiresAt: new Date(Date.now() - 5 * DAY) });
    expect((await t.request("/", { host: lapsed.customDomain! })).status).toBe(503);
    const before = Date.now();
    const revived = (
      await (await postJson(t, `/api/centers/${lapsed.id}/extend`, { days: "90" }, { headers: admin })).json()
    ).center;
    const expiry = new Date(revived.expireDate).getTime();
    expect(expiry).toBeGreaterThanOrEqual(before + 90 * DAY);
    expect(expiry).toBeLessThanOrEqual(Date.now() + 90 * DAY);
    // Live again at once.
    expect((await t.request("/", { host: lapsed.customDomain! })).status).toBe(200);

    for (const days of [0, -1, 1.5, "x", 4000, null]) {
      const bad = await postJson(t, `/api/centers/${future.id}/extend`, { days }, { headers: admin });
      expect(bad.status, String(days)).toBe(400);
      expect((await bad.json()).error).toBe("Days must be a whole number from 1 to 3650");
    }
    expect(
      (await postJson(t, `/api/centers/00000000-0000-4000-8000-000000000000/extend`, { days: 30 }, { headers: admin }))
        .status,
    ).toBe(404);
  });

  it("deactivates (site unavailable at once) and activates again", async () => {
    const center = await createCenter(t, null, { instituteName: "Switch Academy" });
    const set = (status: unknown) =>
      postJson(t, `/api/centers/${center.id}/status`, { status }, { method: "PUT", headers: admin });
    const off = await set("inactive");
    expect(off.status).toBe(200);
    expect((await off.json()).center.status).toBe("inactive");
    const page = await t.request("/", { host: center.customDomain! });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("This site is temporarily unavailable");
    expect((await set("active")).status).toBe(200);
    expect((await t.request("/", { host: center.customDomain! })).status).toBe(200);
    const bad = await set("paused");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Status must be active or inactive");
  });

  it("is for admins only: 401 signed out, 403 for every other role, nothing changed", async () => {
    const center = await createCenter(t, null, { instituteName: "Guarded Academy" });
    for (const [role, headers] of [["signed out", {}] as [string, Record<string, string>], ...others]) {
      const expected = role === "signed out" ? 401 : 403;
      expect((await postJson(t, `/api/centers/${center.id}`, valid(), { method: "PUT", headers })).status, role).toBe(
        expected,
      );
      expect((await postJson(t, `/api/centers/${center.id}/extend`, { days: 30 }, { headers })).status, role).toBe(
        expected,
      );
      expect(
        (await postJson(t, `/api/centers/${center.id}/status`, { status: "inactive" }, { method: "PUT", headers }))
          .status,
        role,
      ).toBe(expected);
    }
    const [row] = await t.database.db.select().from(centers).where(eq(centers.id, center.id));
    expect(row).toMatchObject({ instituteName: "Guarded Academy", status: "active", expiresAt: center.expiresAt });
  });
});
