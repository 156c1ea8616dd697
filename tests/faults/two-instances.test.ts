import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import pg from "pg";
import { openDatabase } from "../../server/db/open.ts";
import { centers, contents, memberships, users } from "../../server/db/schema/index.ts";
import { call, launch, prepareStore, type Running, type Store } from "./server.ts";
import { candidate, registerAccount, untilSubmitted } from "./exam.ts";
import { ADVISORY_LOCKS } from "../../server/db/advisory-locks.ts";

/** Two app instances on one PostgreSQL: a change made through one is served by the other within a second. */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let store: Store;
let a: Running;
let b: Running;

beforeAll(async () => {
  if (!onPostgres) return;
  store = await prepareStore();
  // Each names its connections, so that a test can tell which one holds the periodic work's lock.
  [a, b] = await Promise.all([
    launch(store, { PGAPPNAME: "pathshala-a" }),
    launch(store, { PGAPPNAME: "pathshala-b" }),
  ]);
}, 120_000);
afterAll(async () => {
  a?.child.kill("SIGKILL");
  b?.child.kill("SIGKILL");
  await store?.drop();
});

describe.skipIf(!onPostgres)("two instances, one database", () => {
  it("shows a template applied through one instance on the other within a second", async () => {
    const reg = await call(a.base, "/api/auth/register", {
      body: {
        name: "Twin Owner",
        email: `twin.${Date.now()}@example.com`,
        password: "tangerine-kettle-42",
        role: "business",
      },
    });
    expect(reg.status).toBe(201);
    const database = await openDatabase({ databaseUrl: store.databaseUrl, poolMax: 1 });
    const [owner] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, reg.json.user.email));
    await database.db.insert(centers).values({
      slug: "twins",
      instituteName: "Twin Towers Academy",
      customDomain: "twins.test",
      ownerId: owner.id,
      planName: "1 Year Plan",
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    await database.close();

    // Instance B serves (and caches) the institute's page as it is now…
    const first = await call(b.base, "/", { headers: { host: "twins.test" } });
    expect(first.status).toBe(200);
    expect(first.text).toContain('data-template="t1"');

    // …the owner switches template through instance A…
    const applied = await call(a.base, "/api/templates/apply", {
      token: reg.json.access_token,
      body: { templateId: "t3" },
    });
    expect(applied.json).toEqual({ success: true, alreadyApplied: false, templateId: "t3" });

    // …and B shows it within a second.
    const until = Date.now() + 1000;
    let template = "";
    while (Date.now() < until) {
      template =
        /data-template="(t\d)"/.exec((await call(b.base, "/", { headers: { host: "twins.test" } })).text)?.[1] ?? "";
      if (template === "t3") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(template).toBe("t3");
  }, 60_000);

  it("takes a content its owner hid through one instance off the other's home page within a second", async () => {
    const reg = await call(a.base, "/api/auth/register", {
      body: {
        name: "Twin Owner",
        email: `hider.${Date.now()}@example.com`,
        password: "tangerine-kettle-42",
        role: "business",
      },
    });
    expect(reg.status).toBe(201);
    const database = await openDatabase({ databaseUrl: store.databaseUrl, poolMax: 1 });
    const [owner] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, reg.json.user.email));
    const [center] = await database.db
      .insert(centers)
      .values({
        slug: "twin-catalog",
        instituteName: "Twin Catalog Academy",
        customDomain: "twin-catalog.test",
        ownerId: owner.id,
        planName: "1 Year Plan",
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    const [creator] = await database.db
      .insert(users)
      .values({ name: "Twin Creator", email: `creator.${Date.now()}@example.com`, passwordHash: "x", role: "creator" })
      .returning();
    await database.db.insert(memberships).values({
      centerId: center.id,
      email: creator.email,
      userId: creator.id,
      role: "creator",
      status: "active",
      acceptedAt: new Date(),
    });
    const [item] = await database.db
      .insert(contents)
      .values({
        creatorId: creator.id,
        centerId: center.id,
        type: "live",
        title: "Twin Optics Live",
        price: 0,
        liveLink: "https://meet.example.com/optics",
      })
      .returning();
    await database.close();

    // Instance B serves (and caches) the page listing the class…
    const page = () => call(b.base, "/", { headers: { host: "twin-catalog.test" } });
    const until = Date.now() + 1000;
    while (!(await page()).text.includes("Twin Optics Live") && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect((await page()).text).toContain("Twin Optics Live");

    // …the owner hides it through instance A…
    const hidden = await call(a.base, `/api/site-contents/${item.id}?centerId=${center.id}`, {
      method: "PUT",
      token: reg.json.access_token,
      body: { hidden: true },
    });
    expect(hidden.status).toBe(200);

    // …and B stops listing it within a second.
    const deadline = Date.now() + 1000;
    let listed = true;
    while (Date.now() < deadline) {
      listed = (await page()).text.includes("Twin Optics Live");
      if (!listed) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(listed).toBe(false);
  }, 60_000);

  it("refuses on one instance a login signed out through the other, within a second", async () => {
    const reg = await call(a.base, "/api/auth/register", {
      body: {
        name: "Twin Reader",
        email: `reader.${Date.now()}@example.com`,
        password: "tangerine-kettle-42",
        role: "student",
      },
    });
    expect(reg.status).toBe(201);
    const token = reg.json.access_token as string;
    // B checks the login and keeps it in memory…
    expect((await call(b.base, "/api/auth/profile", { token })).status).toBe(200);
    expect((await call(b.base, "/api/auth/profile", { token })).status).toBe(200);

    // …the person signs out through A…
    expect((await call(a.base, "/api/auth/logout", { token, body: {} })).status).toBe(200);
    expect((await call(a.base, "/api/auth/profile", { token })).status).toBe(401);

    // …and B refuses the token within a second.
    const until = Date.now() + 1000;
    let status = 0;
    while (Date.now() < until) {
      status = (await call(b.base, "/api/auth/profile", { token })).status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
  }, 60_000);

  // Last: it kills one of the two.
  it("submits a sitting at its deadline through the other instance when the one running the clock is killed -9", async () => {
    /** The instance whose session holds the periodic work's lock (decision 0050). */
    const leader = async () => {
      const client = new pg.Client({ connectionString: store.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>(
          `select s.application_name as name from pg_locks l join pg_stat_activity s using (pid)
           where l.locktype = 'advisory' and l.objid = $1 and l.granted
             and l.database = (select oid from pg_database where datname = current_database())`,
          [ADVISORY_LOCKS.periodicWork],
        );
        return rows[0]?.name;
      } finally {
        await client.end();
      }
    };
    const leading = await leader();
    expect(["pathshala-a", "pathshala-b"]).toContain(leading);
    const [doomed, survivor] = leading === "pathshala-a" ? [a, b] : [b, a];

    const creator = await registerAccount(survivor.base, "creator", "Twin Examiner");
    const question = await call(survivor.base, "/api/questions", {
      token: creator.token,
      body: { type: "single", text: "Q1", options: ["$1$", "$2$"], answer: 0, tags: { subject: "Physics" } },
    });
    expect(question.status).toBe(201);
    const created = await call(survivor.base, "/api/tests", {
      token: creator.token,
      body: {
        title: "Twin window",
        pattern: "custom",
        durationMinutes: 30,
        price: 0,
        // The sitting ends with the window, seconds from now.
        closesAt: new Date(Date.now() + 10_000).toISOString(),
        sections: [{ name: "Physics", questions: [question.json.questions[0]._id] }],
      },
    });
    expect(created.status).toBe(201);
    const testId = created.json.test._id as string;
    await call(survivor.base, `/api/tests/${testId}/publish`, { token: creator.token, body: {} });
    const student = await registerAccount(survivor.base, "student", "Twin Candidate");
    const sitting = await candidate(() => survivor, student.token).start(testId);

    // The instance running the clock dies mid-test; the other takes the clock over.
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    const closed = await untilSubmitted(survivor.base, creator.token, testId, sitting._id, 30_000);
    expect(closed.submittedBy).toBe("clock");
    expect(closed.submittedAt).toBe(sitting.deadline);
    // Within the clock's 5 s and the hand-over's second (and some slack for a busy machine).
    expect(closed.seenAt - Date.parse(sitting.deadline)).toBeLessThan(10_000);
    expect(await leader()).toBe(survivor === a ? "pathshala-a" : "pathshala-b");
  }, 60_000);
});
