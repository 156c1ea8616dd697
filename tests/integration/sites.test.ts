import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { centers, contents, enquiries, templateSelections } from "../../server/db/schema/index.ts";
import { createOrPromoteAdmin } from "../../server/services/admins.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { announcementsSettled } from "../helpers/wait.ts";
import { joinTeam } from "../helpers/team.ts";
import { CATALOG_CHANNEL } from "../../server/services/sites.ts";
import { metrics } from "../../server/runtime/metrics.ts";
import { CENTERS_CHANNEL } from "../../server/services/tenants.ts";

let t: TestApp;
let owner: Awaited<ReturnType<typeof registerUser>>;
let center: Awaited<ReturnType<typeof createCenter>>;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  owner = await registerUser(t, "business", { name: "Owner One" });
  center = await createCenter(t, owner.user._id, { instituteName: "Sunrise & Sons Academy", slug: "sunrise" });
});
afterAll(() => t.close());

const home = (host = "sunrise.test", headers: Record<string, string> = {}) => t.request("/", { host, headers });

describe("an institute's home page", () => {
  it("renders its template with its name and the sample programs, and no invented contact details", async () => {
    const res = await home();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain('data-template="t1"');
    expect(html).toContain("Sunrise &amp; Sons Academy");
    // Nothing the institute has not given: no derived e-mail, no sample address or phone.
    expect(html).not.toContain("info@sunrise.test");
    expect(html).not.toContain("Park Street");
    expect(html).not.toContain('href="tel:');
    for (const text of [
      "JEE Main/Advanced",
      "NEET UG",
      "Boards IX–XII",
      'id="programs"',
      'id="why-us"',
      'id="contact"',
      ">Enquire<",
      ">Apply Now<",
      ">Book Demo<",
    ]) {
      expect(html).toContain(text);
    }
    // The sample testimonials' invented ranks never reach visitors: no section, no link to it,
    // until the owner adds their own or confirms the samples (issue 38 §6).
    expect(html).not.toContain('id="testimonials"');
    expect(html).not.toContain('href="#testimonials"');
    for (const invented of ["Ananya Ghosh", "JEE Advanced AIR 1,284", "NEET UG 668/720"])
      expect(html).not.toContain(invented);
    // Readable without JavaScript: one small deferred script, no framework bundle.
    expect(html.match(/<script src=/g)).toHaveLength(1);
  });

  it("shows the testimonials the owner added or confirmed, with the link to them", async () => {
    const other = await createCenter(t, null, { instituteName: "Quotes Academy", slug: "quotes" });
    await t.services.sites.updateProfile(other.id, {
      testimonials: [{ name: "Priya Das", text: "The weekly tests helped.", result: "NEET UG 2026" }],
    });
    const html = await (await home("quotes.test")).text();
    expect(html).toContain('id="testimonials"');
    expect(html).toContain('href="#testimonials"');
    expect(html).toContain("Priya Das");
    expect(html).not.toContain("Ananya Ghosh");
  });

  it("also answers on {slug}.{PLATFORM_DOMAIN}", async () => {
    const res = await home("sunrise.localhost");
    expect(await res.text()).toContain("Sunrise &amp; Sons Academy");
  });

  it("answers 304 to a matching ETag and sends pre-compressed bodies", async () => {
    const first = await home();
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await home("sunrise.test", { "if-none-match": etag })).status).toBe(304);
    const gz = await home("sunrise.test", { "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toContain("Sunrise &amp; Sons Academy");
    const br = await home("sunrise.test", { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toContain('data-template="t1"');
  });

  it("shows the institute's catalog, and a change to it that the database announces", async () => {
    const creator = await registerUser(t, "creator");
    await joinTeam(t, center.id, creator.user._id);
    // Earlier announcements, once in, would empty the page cache mid-test.
    await announcementsSettled(t.database, CATALOG_CHANNEL);
    await home();
    // Written as another instance or a tool would: no call tells this instance, only the database.
    const [item] = await t.database.db
      .insert(contents)
      .values({
        creatorId: creator.user._id,
        centerId: center.id,
        type: "live",
        title: "Organic Chemistry Live",
        price: 49900,
        liveLink: "https://meet.example.com/x",
      })
      .returning();
    await announcementsSettled(t.database, CATALOG_CHANNEL);
    const html = await (await home()).text();
    expect(html).toContain("Organic Chemistry Live");
    expect(html).toContain("₹499");
    expect(html).toContain(`/catalog#content-${item.id}`);
  });

  it("renders afresh while the database's announcements cannot be heard", async () => {
    const renders = async () =>
      Number(
        /pathshala_cache_lookups_total\{cache="site",result="miss"\} (\d+)/.exec(await metrics.render())?.[1] ?? 0,
      );
    // Earlier tests' announcements, arriving late, would empty the cache mid-test.
    await announcementsSettled(t.database, CATALOG_CHANNEL);
    await announcementsSettled(t.database, CENTERS_CHANNEL);
    await home();
    const cached = await renders();
    await home();
    expect(await renders()).toBe(cached);
    const listening = t.database.listening;
    t.database.listening = () => false;
    try {
      await home();
      await home();
      expect(await renders()).toBe(cached + 2);
    } finally {
      t.database.listening = listening;
    }
  });

  it("serves the templates' stylesheets and script with long caching when versioned", async () => {
    const html = await (await home()).text();
    const css = /href="(\/_site\/t1\.css\?v=[\w-]+)"/.exec(html)![1];
    const res = await t.request(css, { host: "sunrise.test" });
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await res.text()).toContain(".t1{");
    const js = /src="(\/_site\/enquiry\.js\?v=[\w-]+)"/.exec(html)![1];
    expect((await t.request(js, { host: "sunrise.test" })).headers.get("content-type")).toContain("javascript");
  });

  it("sends the stylesheet compressed once, with its version as ETag, and 304 to it", async () => {
    const html = await (await home()).text();
    const css = /href="(\/_site\/t1\.css\?v=[\w-]+)"/.exec(html)![1];
    const plain = await t.request(css, { host: "sunrise.test" });
    const text = await plain.text();
    const etag = plain.headers.get("etag")!;
    expect(etag).toBe(`"${css.split("v=")[1]}"`);
    for (const [accept, encoding, decode] of [
      ["gzip, deflate, br, zstd", "br", brotliDecompressSync],
      ["gzip", "gzip", gunzipSync],
    ] as const) {
      const first = await t.request(css, { host: "sunrise.test", headers: { "accept-encoding": accept } });
      const second = await t.request(css, { host: "sunrise.test", headers: { "accept-encoding": accept } });
      expect(first.headers.get("content-encoding")).toBe(encoding);
      expect(first.headers.get("vary")).toContain("Accept-Encoding");
      const [a, b] = [Buffer.from(await first.arrayBuffer()), Buffer.from(await second.arrayBuffer())];
      // The same bytes each time: compressed once, not per request.
      expect(a.equals(b)).toBe(true);
      expect(decode(a).toString()).toBe(text);
    }
    const notModified = await t.request(css, { host: "sunrise.test", headers: { "if-none-match": etag } });
    expect(notModified.status).toBe(304);
    expect((await notModified.arrayBuffer()).byteLength).toBe(0);
  });

  it("shows a branded 'temporarily unavailable' page (503) when expired or inactive", async () => {
    const lapsedOwner = await registerUser(t, "business");
    const other = await createCenter(t, lapsedOwner.user._id, {
      instituteName: "Lapsed Institute",
      expiresAt: new Date(Date.now() - 1000),
    });
    const res = await home(other.customDomain!);
    expect(res.status).toBe(503);
    const html = await res.text();
    expect(html).toContain("This site is temporarily unavailable");
    expect(html).toContain("Lapsed Institute");
    expect(html).not.toContain("Pathshala");
  });

  it("sends its admin path to the institute's own business sign-in", async () => {
    const res = await t.request("/admin", { host: "sunrise.test" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth?role=business&mode=login&redirectTo=%2Fbusiness");
    await t.database.db.update(centers).set({ superAdminPath: "/staff" }).where(eq(centers.id, center.id));
    t.services.tenants.changed();
    expect((await t.request("/staff", { host: "sunrise.test" })).status).toBe(302);
    expect(await (await t.request("/admin", { host: "sunrise.test" })).text()).toBe("react-router");
    await t.database.db.update(centers).set({ superAdminPath: "/admin" }).where(eq(centers.id, center.id));
    t.services.tenants.changed();
  });

  it("reflects the site profile the owner saved", async () => {
    await t.services.sites.updateProfile(center.id, {
      tagline: "Where toppers are made",
      phone: "+91 90000 11111",
      programs: [{ name: "Olympiad Foundation" }],
      brandColor: "#be123c",
    });
    const html = await (await home()).text();
    expect(html).toContain("Where toppers are made");
    expect(html).toContain("+91 90000 11111");
    expect(html).toContain("Olympiad Foundation");
    expect(html).not.toContain("NEET UG</h3>");
    expect(html).toContain("--brand:#be123c");
  });
});

describe("POST /api/templates/apply and /api/centers/template", () => {
  it("applies a template for the owner, records it, and the site shows it on the next request", async () => {
    const res = await postJson(
      t,
      "/api/templates/apply",
      { templateId: "t3" },
      { headers: bearer(owner.access_token) },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, alreadyApplied: false, templateId: "t3" });
    expect(await (await home()).text()).toContain('data-template="t3"');
    const selections = await t.database.db
      .select()
      .from(templateSelections)
      .where(eq(templateSelections.centerId, center.id));
    expect(selections.map((s) => s.templateId)).toEqual(["t3"]);

    const again = await postJson(
      t,
      "/api/templates/apply",
      { templateId: "t3" },
      { headers: bearer(owner.access_token) },
    );
    expect((await again.json()).alreadyApplied).toBe(true);
    expect(
      await t.database.db.select().from(templateSelections).where(eq(templateSelections.centerId, center.id)),
    ).toHaveLength(1);
  });

  it("by the owner's email too, and only for the owner", async () => {
    const ok = await postJson(
      t,
      "/api/centers/template",
      { email: owner.email.toUpperCase(), templateId: "t2" },
      { headers: bearer(owner.access_token) },
    );
    expect(await ok.json()).toEqual({ success: true, alreadyApplied: false, templateId: "t2" });
    expect(await (await home()).text()).toContain('data-template="t2"');
    const other = await registerUser(t, "business");
    await createCenter(t, other.user._id);
    const wrong = await postJson(
      t,
      "/api/centers/template",
      { email: owner.email, templateId: "t4" },
      { headers: bearer(other.access_token) },
    );
    expect(wrong.status).toBe(403);
    expect(await (await home()).text()).toContain('data-template="t2"');
  });

  it("refuses without an active plan, without an institute, with a bad id, or for other roles", async () => {
    const lapsed = await registerUser(t, "business");
    await createCenter(t, lapsed.user._id, { expiresAt: new Date(Date.now() - 1000) });
    const noPlan = await postJson(
      t,
      "/api/templates/apply",
      { templateId: "t2" },
      { headers: bearer(lapsed.access_token) },
    );
    expect(noPlan.status).toBe(403);
    expect((await noPlan.json()).error).toBe("Purchase a plan to apply this template");

    const fresh = await registerUser(t, "business");
    const none = await postJson(
      t,
      "/api/templates/apply",
      { templateId: "t2" },
      { headers: bearer(fresh.access_token) },
    );
    expect(none.status).toBe(404);
    expect((await none.json()).error).toBe("No active subscription found.");

    const bad = await postJson(
      t,
      "/api/templates/apply",
      { templateId: "t9" },
      { headers: bearer(owner.access_token) },
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Please choose a template: t1, t2, t3 or t4");

    const student = await registerUser(t, "student");
    expect(
      (await postJson(t, "/api/templates/apply", { templateId: "t2" }, { headers: bearer(student.access_token) }))
        .status,
    ).toBe(403);
    expect((await postJson(t, "/api/templates/apply", { templateId: "t2" })).status).toBe(401);
  });
});

describe("GET /api/centers/lookup", () => {
  it("answers the owner with their subscription, by email or domain (trimmed, lower-cased)", async () => {
    const res = await t.request(`/api/centers/lookup?email=${encodeURIComponent(`  ${owner.email.toUpperCase()} `)}`, {
      headers: bearer(owner.access_token),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      plan: "3 Year Plan",
      status: "active",
      instituteName: expect.any(String),
      templateId: expect.stringMatching(/^t[1-4]$/),
    });
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(["plan", "status", "subscriptionStartAt", "expiresAt", "instituteName", "templateId"]),
    );
    const byDomain = await t.request("/api/centers/lookup?domain=%20SUNRISE.test%20", {
      headers: bearer(owner.access_token),
    });
    expect((await byDomain.json()).instituteName).toBe("Sunrise & Sons Academy");
  });

  it("keeps others' subscriptions private, except from admins", async () => {
    const other = await registerUser(t, "business");
    expect(
      (await t.request(`/api/centers/lookup?email=${owner.email}`, { headers: bearer(other.access_token) })).status,
    ).toBe(403);
    expect(
      (await t.request("/api/centers/lookup?domain=sunrise.test", { headers: bearer(other.access_token) })).status,
    ).toBe(403);
    const student = await registerUser(t, "student");
    expect(
      (await t.request(`/api/centers/lookup?email=${student.email}`, { headers: bearer(student.access_token) })).status,
    ).toBe(403);
    await createOrPromoteAdmin(t.database.db, { email: "root-sites@example.com", password: "unusual-admin-pass-1" });
    const admin = await (
      await postJson(t, "/api/auth/login", { email: "root-sites@example.com", password: "unusual-admin-pass-1" })
    ).json();
    expect(
      (await t.request(`/api/centers/lookup?email=${owner.email}`, { headers: bearer(admin.access_token) })).status,
    ).toBe(200);
    const missing = await t.request(`/api/centers/lookup?email=${other.email}`, {
      headers: bearer(other.access_token),
    });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe("No active subscription found.");
    expect((await t.request("/api/centers/lookup", { headers: bearer(admin.access_token) })).status).toBe(400);
  });
});

describe("GET /api/domains/ask (Caddy on-demand TLS)", () => {
  it("allows live institutes' domains and platform hosts only", async () => {
    const ask = (domain: string) => t.request(`/api/domains/ask?domain=${encodeURIComponent(domain)}`);
    expect((await ask("sunrise.test")).status).toBe(200);
    expect((await ask("SUNRISE.test.")).status).toBe(200);
    expect((await ask("sunrise.localhost")).status).toBe(200);
    expect((await ask("localhost")).status).toBe(200);
    expect((await ask("nobody.example.com")).status).toBe(404);
    expect((await ask("127.0.0.1")).status).toBe(404);
    expect((await ask("[::1]")).status).toBe(404);
    expect((await ask("")).status).toBe(404);
    const inactive = await createCenter(t, null, { status: "inactive" });
    expect((await ask(inactive.customDomain!)).status).toBe(404);
  });
});

describe("enquiries", () => {
  const lead = {
    name: "Ravi Kumar",
    phone: "+91 98765-43210",
    email: "Ravi@Example.com",
    program: "NEET UG",
    message: "Evening batch?",
    kind: "Book Demo",
  };

  it("are stored for the institute whose domain they came from", async () => {
    const res = await postJson(t, "/api/enquiries", lead, { host: "sunrise.test" });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.message).toBe("Thank you! We have received your enquiry and will call you back soon.");
    const [row] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, body.enquiry._id));
    expect(row).toMatchObject({
      centerId: center.id,
      name: "Ravi Kumar",
      phone: "+919876543210",
      email: "ravi@example.com",
      kind: "Book Demo",
      status: "new",
    });
  });

  it("need only a phone: the e-mail is optional", async () => {
    const { email: _email, ...phoneOnly } = lead;
    for (const body of [phoneOnly, { ...lead, email: "  " }]) {
      const res = await postJson(t, "/api/enquiries", body, { host: "sunrise.test" });
      expect(res.status).toBe(201);
      const [row] = await t.database.db
        .select()
        .from(enquiries)
        .where(eq(enquiries.id, (await res.json()).enquiry._id));
      expect(row).toMatchObject({ phone: "+919876543210", email: "" });
    }
  });

  it("name what is wrong and store nothing", async () => {
    const before = (await t.database.db.select().from(enquiries)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...lead, name: " " }, "Please enter your name"],
      [{ ...lead, phone: "1" }, "Please enter a valid phone number"],
      [{ ...lead, phone: "12" }, "Please enter a valid phone number"],
      [{ ...lead, phone: "abc" }, "Please enter a valid phone number"],
      [{ ...lead, phone: "98765abc10" }, "Please enter a valid phone number"],
      [{ ...lead, phone: "0987654321" }, "Please enter a valid phone number"],
      [{ ...lead, email: "nope" }, "Please enter a valid email address"],
      [{ ...lead, message: "x".repeat(1001) }, "Your message is too long (1,000 characters at most)"],
      [{ ...lead, kind: "Spam" }, "Please choose Enquire, Apply Now or Book Demo"],
    ];
    for (const [body, message] of cases) {
      const res = await postJson(t, "/api/enquiries", body, {
        host: "sunrise.test",
        headers: { "x-forwarded-for": "198.51.100.9" },
      });
      expect(res.status, message).toBe(400);
      expect((await res.json()).error).toBe(message);
    }
    expect((await postJson(t, "/api/enquiries", lead)).status).toBe(404);
    expect((await t.database.db.select().from(enquiries)).length).toBe(before);
  });

  it("are rate limited per address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (
          await postJson(t, "/api/enquiries", lead, {
            host: "sunrise.test",
            headers: { "x-forwarded-for": "203.0.113.50" },
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("work as a plain form post without JavaScript, and refuse other sites' forms", async () => {
    const form = new URLSearchParams({ ...lead, name: "Form Visitor" });
    const res = await t.request("/enquiry", {
      method: "POST",
      host: "sunrise.test",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "http://sunrise.test",
        "x-forwarded-for": "192.0.2.1",
      },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Thank you! We have received your enquiry and will call you back soon.");
    const bad = await t.request("/enquiry", {
      method: "POST",
      host: "sunrise.test",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "192.0.2.1" },
      body: new URLSearchParams({ ...lead, email: "x" }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a valid email address");
    const crossSite = await t.request("/enquiry", {
      method: "POST",
      host: "sunrise.test",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://spam.example" },
      body: form,
    });
    expect(crossSite.status).toBe(403);
  });

  it("are listed and updated by the owner only", async () => {
    const list = await t.request("/api/enquiries", { headers: bearer(owner.access_token) });
    expect(list.status).toBe(200);
    const { enquiries: rows, total } = await list.json();
    expect(total).toBeGreaterThan(0);
    expect(rows.every((r: { email: string }) => ["ravi@example.com", ""].includes(r.email))).toBe(true);

    const id = rows[0]._id;
    const patch = await t.request(`/api/enquiries/${id}`, {
      method: "PATCH",
      headers: { ...bearer(owner.access_token), "content-type": "application/json" },
      body: JSON.stringify({ status: "contacted" }),
    });
    expect((await patch.json()).enquiry.status).toBe("contacted");
    const filtered = await (
      await t.request("/api/enquiries?status=contacted", { headers: bearer(owner.access_token) })
    ).json();
    expect(filtered.enquiries.map((r: { _id: string }) => r._id)).toEqual([id]);

    const other = await registerUser(t, "business");
    await createCenter(t, other.user._id);
    const theirs = await (await t.request("/api/enquiries", { headers: bearer(other.access_token) })).json();
    expect(theirs.enquiries).toEqual([]);
    const steal = await t.request(`/api/enquiries/${id}`, {
      method: "PATCH",
      headers: { ...bearer(other.access_token), "content-type": "application/json" },
      body: JSON.stringify({ status: "enrolled" }),
    });
    expect(steal.status).toBe(404);
    const [row] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, id));
    expect(row.status).toBe("contacted");
  });
});

describe("the creator studio keeps institutes' sites current", () => {
  it("shows content on the site as soon as it is assigned, and drops it when unassigned", async () => {
    const creator = await registerUser(t, "creator");
    await joinTeam(t, center.id, creator.user._id);
    const form = new FormData();
    form.set("title", "Thermodynamics Live Revision");
    form.set("type", "live");
    form.set("price", "0");
    form.set("liveLink", "https://meet.example.com/thermo");
    const created = await t.request("/api/content", {
      method: "POST",
      headers: bearer(creator.access_token),
      body: form,
    });
    expect(created.status).toBe(201);
    const id = (await created.json()).content._id;
    expect(await (await home()).text()).not.toContain("Thermodynamics Live Revision");
    const assign = (businessId: string | null) =>
      t.request(`/api/content/${id}/assign`, {
        method: "PUT",
        headers: { ...bearer(creator.access_token), "content-type": "application/json" },
        body: JSON.stringify({ businessId }),
      });
    // The catalog a visitor's browser reads on the institute's domain follows the same changes at once.
    const catalogTitles = async () =>
      ((await (await t.request("/api/contents", { host: "sunrise.test" })).json()).items as { title: string }[]).map(
        (i) => i.title,
      );
    expect(await catalogTitles()).not.toContain("Thermodynamics Live Revision");
    expect((await assign(center.id)).status).toBe(200);
    expect(await (await home()).text()).toContain("Thermodynamics Live Revision");
    expect(await catalogTitles()).toContain("Thermodynamics Live Revision");
    const rename = await t.request(`/api/content/${id}`, {
      method: "PUT",
      headers: { ...bearer(creator.access_token), "content-type": "application/json" },
      body: JSON.stringify({ title: "Thermodynamics Live Marathon" }),
    });
    expect(rename.status).toBe(200);
    expect(await catalogTitles()).toEqual(expect.arrayContaining(["Thermodynamics Live Marathon"]));
    expect(await catalogTitles()).not.toContain("Thermodynamics Live Revision");
    expect((await assign(null)).status).toBe(200);
    expect(await (await home()).text()).not.toContain("Thermodynamics Live");
    expect(await catalogTitles()).not.toContain("Thermodynamics Live Marathon");
  });
});
