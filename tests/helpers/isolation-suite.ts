import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { centers, enquiries } from "../../server/db/schema/index.ts";
import { insertPlanOrder } from "./orders.ts";
import { adminToken, type ListeningTestApp } from "./payments.ts";
import { bearer, postJson, registerUser } from "./http.ts";
import { createCenter } from "./centers.ts";
import { uploadContent } from "./content.ts";
import { joinTeam } from "./team.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { PDFDocument } from "pdf-lib";

async function realPdf(): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText("Chapter 1");
  return (await doc.save()) as Uint8Array<ArrayBuffer>;
}

/**
 * The isolation matrix: for every endpoint that reads or writes institute-, creator- or
 * student-owned data, another institute, another creator, another student and every lower role
 * are refused (401/403/404) or see only their own, never the owner's.
 *
 * `open` makes the app: the same suite runs on the test database as it is, and through PgBouncer
 * in transaction mode (tests/integration/pooler-isolation.test.ts).
 */
export function describeIsolation(open: () => Promise<ListeningTestApp>) {
  let t: ListeningTestApp;
  type Who = "anonymous" | "studentA" | "studentB" | "creatorA" | "creatorB" | "businessA" | "businessB" | "admin";
  const auth: Record<Who, Record<string, string>> = {} as never;
  /** Tokens are bound to the host that issued them: these were issued on institute A's domain. */
  const authOnA: Record<Who, Record<string, string>> = {} as never;
  const ids = {
    centerA: "",
    centerB: "",
    contentA: "",
    enquiryA: "",
    purchaseA: "",
    emailA: "",
    studentA: "",
    teamItemA: "",
    inviteA: "",
    inviteTokenB: "",
    ownerA: "",
  };
  const hostA = "iso-a.test";
  const hostB = "iso-b.test";

  const DENIED = [401, 403, 404];

  beforeAll(async () => {
    t = await open();
    await seedDemo(t.database.db);
    auth.anonymous = {};
    const users: Partial<Record<Who, Awaited<ReturnType<typeof registerUser>>>> = {};
    for (const who of ["studentA", "studentB", "creatorA", "creatorB", "businessA", "businessB"] as const) {
      users[who] = await registerUser(t, who.replace(/[AB]$/, "") as "student" | "creator" | "business", { name: who });
      auth[who] = bearer(users[who]!.access_token);
    }
    auth.admin = bearer(await adminToken(t));
    authOnA.anonymous = {};
    ids.emailA = users.businessA!.email;
    ids.studentA = users.studentA!.user._id;
    ids.centerA = (
      await createCenter(t, users.businessA!.user._id, { slug: "iso-a", customDomain: hostA, instituteName: "Iso A" })
    ).id;
    ids.centerB = (
      await createCenter(t, users.businessB!.user._id, { slug: "iso-b", customDomain: hostB, instituteName: "Iso B" })
    ).id;
    // creatorA is on both teams (the matrix's assign moves A's content to B); creatorB on neither.
    await joinTeam(t, ids.centerA, users.creatorA!.user._id);
    await joinTeam(t, ids.centerB, users.creatorA!.user._id);
    const [enquiry] = await t.database.db
      .insert(enquiries)
      .values({ centerId: ids.centerA, name: "Secret Lead", phone: "+919800000009", email: "lead@example.com" })
      .returning();
    ids.enquiryA = enquiry.id;
    const purchase = await insertPlanOrder(t.database.db, {
      buyerId: users.businessA!.user._id,
      centerId: ids.centerA,
      planName: "1 Year Plan",
      billing: "monthly",
      durationDays: 30,
      amount: 500000,
      instituteName: "Iso A",
      ownerName: "A",
      email: ids.emailA,
      domain: hostA,
      gatewayOrderId: "order_isoA",
      status: "paid",
    });
    ids.purchaseA = purchase.id;
    const up = await uploadContent(
      t,
      users.creatorA!.access_token,
      { title: "Secret Notes A", type: "pdf", price: "0", businessId: ids.centerA },
      { file: await realPdf(), fileName: "notes.pdf" },
    );
    expect(up.status).toBe(201);
    ids.contentA = (await up.json()).content._id;
    for (const who of ["studentA", "studentB", "creatorA", "creatorB", "businessA", "businessB"] as const) {
      const login = await postJson(
        t,
        "/api/auth/login",
        { email: users[who]!.email, password: users[who]!.password },
        { host: hostA },
      );
      authOnA[who] = bearer((await login.json()).access_token);
    }
    authOnA.admin = {};
    // A's team: an item of creatorA's on its site, a pending invitation, and one for creatorB to accept.
    const item = await uploadContent(t, users.creatorA!.access_token, {
      title: "Team Item A",
      type: "live",
      price: "0",
      liveLink: "https://meet.example.com/team-a",
      businessId: ids.centerA,
    });
    ids.teamItemA = (await item.json()).content._id;
    ids.ownerA = users.businessA!.user._id;
    const owner = { id: users.businessA!.user._id, email: ids.emailA, role: "business" as const };
    const centerA = { id: ids.centerA, instituteName: "Iso A" };
    ids.inviteA = (await t.services.team.invite(owner, centerA, { email: "pending.iso@example.com" })).entry._id;
    ids.inviteTokenB = (await t.services.team.invite(owner, centerA, { email: users.creatorB!.email })).token;
    const enrolled = await postJson(t, "/api/student/enroll", { contentId: ids.contentA }, { headers: auth.studentA });
    expect(enrolled.status).toBe(201);
  }, 60_000);
  afterAll(() => t.close());

  const json = (init: { method?: string; body?: unknown; host?: string; who: Who }) => ({
    method: init.method ?? "GET",
    host: init.host,
    headers: {
      ...(init.host === hostA ? authOnA : auth)[init.who],
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });

  /** An endpoint, who may use it, and a request builder. Everyone else must be refused. */
  const OWNED: { name: string; allowed: Who[]; request: (who: Who) => Promise<Response> }[] = [
    {
      name: "GET /api/content/{id}",
      // A's owner too: content assigned to A is A's to work on (content.write at A's desk, decision 0039).
      allowed: ["creatorA", "admin", "businessA"],
      request: (who) => t.request(`/api/content/${ids.contentA}`, json({ who })),
    },
    {
      name: "PUT /api/content/{id}",
      allowed: ["creatorA", "businessA"],
      request: (who) =>
        t.request(`/api/content/${ids.contentA}`, json({ who, method: "PUT", body: { title: `Renamed by ${who}` } })),
    },
    {
      name: "PUT /api/content/{id}/assign",
      allowed: ["creatorA"],
      request: (who) =>
        t.request(
          `/api/content/${ids.contentA}/assign`,
          json({ who, method: "PUT", body: { businessId: ids.centerB } }),
        ),
    },
    {
      name: "GET /api/content/{id}/file-url",
      // And whoever may content.write the content's institute (decision 0039): by now that is B's
      // owner, as the assign row above moved it to B; A's owner no longer.
      allowed: ["creatorA", "admin", "studentA", "businessB"],
      request: (who) => t.request(`/api/content/${ids.contentA}/file-url`, json({ who })),
    },
    {
      name: "GET /api/sales/content/{id}",
      allowed: ["creatorA", "admin"],
      request: (who) => t.request(`/api/sales/content/${ids.contentA}`, json({ who })),
    },
    {
      name: "PATCH /api/enquiries/{id}",
      allowed: ["businessA"],
      request: (who) =>
        t.request(`/api/enquiries/${ids.enquiryA}`, json({ who, method: "PATCH", body: { status: "contacted" } })),
    },
    {
      name: "GET /api/centers/lookup?email=owner",
      allowed: ["businessA", "admin"],
      request: (who) => t.request(`/api/centers/lookup?email=${encodeURIComponent(ids.emailA)}`, json({ who })),
    },
    {
      name: "GET /api/centers/lookup?domain=owner's",
      allowed: ["businessA", "admin"],
      request: (who) => t.request(`/api/centers/lookup?domain=${hostA}`, json({ who })),
    },
    {
      name: "POST /api/centers/template (owner's email)",
      allowed: ["businessA"],
      request: (who) =>
        t.request(
          "/api/centers/template",
          json({ who, method: "POST", body: { email: ids.emailA, templateId: "t4" } }),
        ),
    },
    {
      name: "PUT /api/centers/{id} (admin only)",
      allowed: ["admin"],
      request: (who) =>
        t.request(
          `/api/centers/${ids.centerA}`,
          json({
            who,
            method: "PUT",
            body: { name: "Iso A", domain: hostA, website: `https://${hostA}`, superAdminPath: "/admin" },
          }),
        ),
    },
    {
      name: "GET /api/enquiries on A's own domain",
      allowed: ["businessA"],
      request: (who) => t.request("/api/enquiries", json({ who, host: hostA })),
    },
    {
      name: "GET /api/team?centerId=A",
      allowed: ["businessA"],
      request: (who) => t.request(`/api/team?centerId=${ids.centerA}`, json({ who })),
    },
    {
      name: "POST /api/team/invitations?centerId=A",
      allowed: ["businessA"],
      request: (who) =>
        t.request(
          `/api/team/invitations?centerId=${ids.centerA}`,
          json({ who, method: "POST", body: { email: `invited.by.${who}@example.com` } }),
        ),
    },
    {
      name: "DELETE /api/team/{id} (A's invitation)",
      allowed: ["businessA"],
      request: (who) => t.request(`/api/team/${ids.inviteA}?centerId=${ids.centerA}`, json({ who, method: "DELETE" })),
    },
    {
      name: "DELETE /api/team/{id} (A's invitation, no centerId)",
      allowed: ["businessA"],
      request: (who) => t.request(`/api/team/${ids.inviteA}`, json({ who, method: "DELETE" })),
    },
    {
      name: "POST /api/team/accept (invited: creatorB)",
      allowed: ["creatorB"],
      request: (who) => t.request("/api/team/accept", json({ who, method: "POST", body: { token: ids.inviteTokenB } })),
    },
    {
      name: "GET /api/site-contents?centerId=A",
      allowed: ["businessA"],
      request: (who) => t.request(`/api/site-contents?centerId=${ids.centerA}`, json({ who })),
    },
    {
      name: "PUT /api/site-contents/{id} (A's item)",
      allowed: ["businessA"],
      request: (who) =>
        t.request(
          `/api/site-contents/${ids.teamItemA}`,
          json({ who, method: "PUT", body: { hidden: who !== "businessA" } }),
        ),
    },
    {
      name: "GET /api/team on A's own domain",
      allowed: ["businessA"],
      request: (who) => t.request("/api/team", json({ who, host: hostA })),
    },
  ];

  const EVERYONE: Who[] = [
    "anonymous",
    "studentA",
    "studentB",
    "creatorA",
    "creatorB",
    "businessA",
    "businessB",
    "admin",
  ];

  describe("owned data is refused to everyone else", () => {
    for (const row of OWNED) {
      it(row.name, async () => {
        for (const who of EVERYONE.filter((w) => !row.allowed.includes(w))) {
          const res = await row.request(who);
          expect(DENIED, `${row.name} as ${who} → ${res.status}`).toContain(res.status);
        }
        const owner = row.allowed[0];
        const ok = await row.request(owner);
        expect(ok.status, `${row.name} as ${owner}`).toBeLessThan(300);
      });
    }

    it("left the owner's data as it was", async () => {
      const [center] = await t.database.db.select().from(centers).where(eq(centers.id, ids.centerA));
      // Only the owner changed the template (to t4), nobody else.
      expect(center.templateId).toBe("t4");
      const content = await (await t.request(`/api/content/${ids.contentA}`, json({ who: "creatorA" }))).json();
      expect(content.content.title).toBe("Renamed by creatorA");
      expect(content.content.businessId).toBe(ids.centerB);
      // Nobody but A's owner invited anyone to A's team, revoked its invitation or hid its item.
      const team = await t.services.team.list(ids.centerA);
      expect(team.filter((e) => e.address.startsWith("invited.by.")).map((e) => e.address)).toEqual([
        "invited.by.businessa@example.com",
      ]);
      expect(team.find((e) => e._id === ids.inviteA)?.status).toBe("removed");
      const [item] = await t.services.team.siteItems(ids.centerA, ids.teamItemA);
      expect(item).toMatchObject({ hidden: false, shown: true });
    });
  });

  describe("lists show only one's own", () => {
    const cases: { name: string; who: Who; path: string; host?: string; secret: () => string }[] = [
      { name: "another creator's contents", who: "creatorB", path: "/api/content/my", secret: () => "Secret Notes A" },
      { name: "another creator's sales", who: "creatorB", path: "/api/sales/my", secret: () => ids.contentA },
      { name: "another institute's leads", who: "businessB", path: "/api/enquiries", secret: () => "Secret Lead" },
      {
        name: "another owner's purchases",
        who: "businessB",
        path: "/api/payment/purchases/my",
        secret: () => ids.purchaseA,
      },
      {
        name: "another student's courses",
        who: "studentB",
        path: "/api/student/my-courses",
        secret: () => "Secret Notes A",
      },
      {
        name: "another institute's catalog",
        who: "studentB",
        path: "/api/contents",
        host: hostA,
        secret: () => "nothing-from-B",
      },
      {
        name: "another institute's team",
        who: "businessB",
        path: "/api/team",
        secret: () => "pending.iso@example.com",
      },
      {
        name: "another institute's site items",
        who: "businessB",
        path: "/api/site-contents",
        secret: () => "Team Item A",
      },
      {
        name: "institutes whose team one is not on (creator's Business dropdown)",
        who: "creatorB",
        path: "/api/businesses",
        secret: () => ids.centerB,
      },
      { name: "institutes for a student", who: "studentA", path: "/api/businesses", secret: () => "Iso" },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const res = await t.request(c.path, json({ who: c.who, host: c.host }));
        expect(res.status).toBeLessThan(300);
        expect(await res.text()).not.toContain(c.secret());
      });
    }

    it("an institute's domain lists none of another institute's content", async () => {
      // contentA was moved to B by its owner above: A's domain must not show it, B's must.
      const onA = await (await t.request("/api/contents", { host: hostA })).text();
      const onB = await (await t.request("/api/contents", { host: hostB })).text();
      expect(onA).not.toContain(ids.contentA);
      expect(onB).toContain(ids.contentA);
    });

    it("a creator not on an institute's team cannot put content on its site", async () => {
      const res = await uploadContent(t, auth.creatorB.authorization.slice(7), {
        title: "Iso phishing class",
        type: "live",
        price: "0",
        liveLink: "https://evil.example.com/x",
        businessId: ids.centerB,
      });
      expect(res.status).toBe(403);
      for (const host of [hostA, hostB]) {
        expect(await (await t.request("/", { host })).text()).not.toContain("Iso phishing class");
        expect(await (await t.request("/api/contents", { host })).text()).not.toContain("Iso phishing class");
      }
    });

    it("an item its institute hid is on none of its lists, and back when shown", async () => {
      const lists = async () => [
        await (await t.request("/", { host: hostA })).text(),
        await (await t.request("/api/contents", { host: hostA })).text(),
        await (await t.request("/api/contents")).text(),
      ];
      for (const list of await lists()) expect(list).toContain("Team Item A");
      await t.services.team.setHidden({ id: ids.ownerA }, ids.centerA, ids.teamItemA, { hidden: true });
      for (const list of await lists()) expect(list).not.toContain("Team Item A");
      await t.services.team.setHidden({ id: ids.ownerA }, ids.centerA, ids.teamItemA, { hidden: false });
      for (const list of await lists()) expect(list).toContain("Team Item A");
    });

    it("a student's signed file link does not work for another student", async () => {
      const link = await (await t.request(`/api/content/${ids.contentA}/file-url`, json({ who: "studentA" }))).json();
      const url = new URL(link.url, "http://localhost");
      const mine = await t.request(`${url.pathname}${url.search}`, { headers: auth.studentA });
      expect(mine.status).toBe(200);
      const theirs = await t.request(`${url.pathname}${url.search}`, { headers: auth.studentB });
      expect(theirs.status).toBe(403);
    });
  });

  describe("every admin endpoint refuses every lower role", () => {
    const ADMIN_ONLY = [
      ["GET", "/api/admin/role-stats"],
      ["GET", "/api/admin/recent-purchases?limit=10"],
      ["GET", "/api/admin/recent-template-selections?limit=10"],
      ["GET", "/api/admin/notifications"],
      ["POST", "/api/admin/notifications/read"],
      ["POST", "/api/admin/notifications/clear"],
      ["GET", "/api/centers"],
      ["POST", "/api/centers"],
      ["GET", "/api/pricing/admin"],
      ["POST", "/api/pricing"],
      ["GET", "/api/bookings"],
      ["GET", "/api/bookings/export"],
    ] as const;
    for (const [method, path] of ADMIN_ONLY) {
      it(`${method} ${path}`, async () => {
        for (const who of ["anonymous", "studentA", "creatorA", "businessA"] as const) {
          const res = await t.request(path, json({ who, method, body: method === "POST" ? {} : undefined }));
          expect(who === "anonymous" ? [401] : [403], `${method} ${path} as ${who}`).toContain(res.status);
        }
      });
    }
  });
}
