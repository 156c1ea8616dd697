import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDatabase } from "../../server/db/open.ts";
import type { Database } from "../../server/db/types.ts";
import { centers } from "../../server/db/schema/index.ts";
import { TenantDirectory } from "../../server/services/tenants.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { waitFor } from "../helpers/wait.ts";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)("two instances on one Postgres", () => {
  let testDb: TestDatabase;
  let second: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    second = await openDatabase({ databaseUrl: testDb.url, poolMax: 2 });
  });
  afterAll(async () => {
    await second.close();
    await testDb.drop();
  });

  it("sees a change made through the other instance within a second", async () => {
    const options = { platformHosts: ["localhost"], platformDomain: "localhost" };
    const a = new TenantDirectory(testDb.database, options);
    const b = new TenantDirectory(second, options);
    await testDb.database.db.insert(centers).values({ slug: "acme", instituteName: "Acme", customDomain: "acme.test", templateId: "t1" });
    await waitFor(() => second.listening());

    const before = await b.resolve("acme.test");
    expect(before.kind === "tenant" && before.center.templateId).toBe("t1");

    await testDb.database.db.update(centers).set({ templateId: "t3" }).where(eq(centers.slug, "acme"));
    await a.changed();
    await waitFor(async () => {
      const site = await b.resolve("acme.test");
      return site.kind === "tenant" && site.center.templateId === "t3";
    }, 1000);
  });
});
