import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { sql } from "drizzle-orm";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { seedBulk } from "../../server/seed/bulk.ts";

/**
 * Every list the product shows must be read through an index: this seeds PostgreSQL with a
 * realistic amount of data, drives every list endpoint, records the SQL they run, and EXPLAINs
 * each statement. A sequential scan of a large table fails the test.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** A table is large when it holds at least this many rows here (the planner rightly scans small ones). */
const LARGE_ROWS = 5000;
const WHOLE_TABLE_COUNT = /^select ("\w+", )?count\(\*\) from "\w+"( group by "\w+"\."\w+")?$/i;

let t: TestApp;
const seen = new Map<string, unknown[]>();
const tokens: Record<string, Record<string, string>> = {};
const ids: Record<string, string> = {};

describe.skipIf(!onPostgres)("query plans on a large database", () => {
  beforeAll(async () => {
    t = await createTestApp({}, { onQuery: (text, params) => seen.set(text, params) });
    await seedDemo(t.database.db);
    const db = t.database.db;
    await seedBulk(db);
    // As autovacuum leaves a real database: statistics and visibility maps up to date.
    const admin = new pg.Client({ connectionString: t.testDb.url });
    await admin.connect();
    await admin.query("vacuum analyze");
    await admin.end();

    const pick = async (query: string) => {
      const result = (await db.execute(sql.raw(query))) as unknown as { rows: { id: string }[] };
      return result.rows[0].id;
    };
    ids.student = await pick("select student_id as id from enrollments order by student_id limit 1");
    ids.creator = await pick("select id from users where email = 'creator7@bulk.example'");
    ids.business = await pick("select owner_id as id from centers where slug = 'bulk-42'");
    ids.content = await pick(
      "select id from contents where creator_id = (select id from users where email = 'creator7@bulk.example') limit 1",
    );
    ids.admin = await pick(
      "insert into users (name, email, password_hash, role) values ('Admin', 'admin@bulk.example', 'x', 'admin') returning id",
    );
    for (const who of ["student", "creator", "business", "admin"]) {
      tokens[who] = bearer((await t.services.sessions.issueApiTokens(ids[who], "localhost")).access_token);
    }
    t.services.tenants.changed();
  }, 300_000);
  afterAll(() => t?.close());

  it("reads every list through an index", async () => {
    seen.clear();
    const get = async (path: string, who?: string, host = "localhost") => {
      const res = await t.request(path, { host, headers: who ? tokens[who] : {} });
      expect(res.status, `${path} as ${who ?? "anonymous"}`).toBeLessThan(400);
    };
    await get("/api/contents");
    await get("/api/contents", undefined, "bulk-42.test");
    await get("/", undefined, "bulk-42.test");
    await get("/api/student/my-courses", "student");
    await get("/api/content/my", "creator");
    await get("/api/content/my?sort=price&dir=asc&q=Bulk", "creator");
    await get("/api/sales/my", "creator");
    await get(`/api/sales/content/${ids.content}`, "creator");
    await get("/api/enquiries", "business");
    await get("/api/enquiries?status=new&page=2", "business");
    await get("/api/payment/purchases/my", "business");
    await get("/api/businesses", "creator");
    await get("/api/team", "business");
    await get("/api/site-contents", "business");
    await get("/api/centers", "admin");
    await get("/api/centers?q=Bulk%20Institute%2042", "admin");
    await get("/api/admin/role-stats", "admin");
    await get("/api/admin/recent-purchases?limit=10", "admin");
    await get("/api/admin/recent-template-selections?limit=10", "admin");
    await get("/api/admin/notifications", "admin");
    // The overview's Recent Activity is read by its page loader, not an endpoint.
    await t.services.adminFeed.recentActivity(10);
    await get("/api/bookings", "admin");
    await get("/api/centers/lookup?domain=bulk-42.test", "admin");
    await get("/api/domains/ask?domain=bulk-99.test");
    await t.request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "student5@bulk.example", password: "wrong-password" }),
    });

    const client = new pg.Client({ connectionString: t.testDb.url });
    await client.connect();
    const { rows: sizes } = await client.query(
      "select relname, reltuples from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace",
    );
    const large = new Set(sizes.filter((r) => Number(r.reltuples) >= LARGE_ROWS).map((r) => r.relname as string));
    expect([...large].sort()).toEqual(
      [
        "contents",
        "enquiries",
        "enrollments",
        // Every student's role in each institute they enrolled in (decision 0039).
        "memberships",
        "orders",
        "rate_limit_hits",
        "seminar_bookings",
        "sessions",
        "users",
      ]
        .filter((n) => large.has(n))
        .sort(),
    );
    expect(large.size).toBeGreaterThanOrEqual(8);
    const offenders: string[] = [];
    let explained = 0;
    try {
      for (const [text, params] of seen) {
        if (!/^\s*(select|with)\b/i.test(text) || /pg_advisory|set_config|current_setting\('app/i.test(text)) continue;
        // A count of a whole table (a total for a card or a pager) reads every row whatever the plan; it is not a list.
        if (WHOLE_TABLE_COUNT.test(text.trim())) continue;
        const { rows } = await client.query(`explain (format json) ${text}`, params as unknown[]);
        explained++;
        const walk = (node: Record<string, unknown>) => {
          if (node["Node Type"] === "Seq Scan" && large.has(String(node["Relation Name"])))
            offenders.push(`${node["Relation Name"]}: ${process.env.PLAN_DEBUG ? text : text.slice(0, 160)}`);
          for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
        };
        walk(rows[0]["QUERY PLAN"][0].Plan);
      }
    } finally {
      await client.end();
    }
    expect(explained).toBeGreaterThan(20);
    expect(offenders).toEqual([]);
  }, 120_000);
});
