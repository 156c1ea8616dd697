import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDatabase } from "../../server/db/open.ts";
import { centers, users } from "../../server/db/schema/index.ts";
import { call, launch, prepareStore, type Running, type Store } from "./server.ts";

/** Two app instances on one PostgreSQL: a change made through one is served by the other within a second. */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let store: Store;
let a: Running;
let b: Running;

beforeAll(async () => {
  if (!onPostgres) return;
  store = await prepareStore();
  [a, b] = await Promise.all([launch(store), launch(store)]);
}, 120_000);
afterAll(async () => {
  a?.child.kill("SIGKILL");
  b?.child.kill("SIGKILL");
  await store?.drop();
});

describe.skipIf(!onPostgres)("two instances, one database", () => {
  it("shows a template applied through one instance on the other within a second", async () => {
    const reg = await call(a.base, "/api/auth/register", { body: { name: "Twin Owner", email: `twin.${Date.now()}@example.com`, password: "tangerine-kettle-42", role: "business" } });
    expect(reg.status).toBe(201);
    const database = await openDatabase({ databaseUrl: store.databaseUrl, poolMax: 1 });
    const [owner] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, reg.json.user.email));
    await database.db.insert(centers).values({ slug: "twins", instituteName: "Twin Towers Academy", customDomain: "twins.test", ownerId: owner.id, planName: "1 Year Plan", expiresAt: new Date(Date.now() + 86_400_000) });
    await database.close();

    // Instance B serves (and caches) the institute's page as it is now…
    const first = await call(b.base, "/", { headers: { host: "twins.test" } });
    expect(first.status).toBe(200);
    expect(first.text).toContain('data-template="t1"');

    // …the owner switches template through instance A…
    const applied = await call(a.base, "/api/templates/apply", { token: reg.json.access_token, body: { templateId: "t3" } });
    expect(applied.json).toEqual({ success: true, alreadyApplied: false, templateId: "t3" });

    // …and B shows it within a second.
    const until = Date.now() + 1000;
    let template = "";
    while (Date.now() < until) {
      template = /data-template="(t\d)"/.exec((await call(b.base, "/", { headers: { host: "twins.test" } })).text)?.[1] ?? "";
      if (template === "t3") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(template).toBe("t3");
  }, 60_000);

  it("refuses on one instance a login signed out through the other, within a second", async () => {
    const reg = await call(a.base, "/api/auth/register", { body: { name: "Twin Reader", email: `reader.${Date.now()}@example.com`, password: "tangerine-kettle-42", role: "student" } });
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
});
