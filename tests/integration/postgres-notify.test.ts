import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDatabase } from "../../server/db/open.ts";
import type { Database } from "../../server/db/types.ts";
import { centers, contents, memberships, users } from "../../server/db/schema/index.ts";
import { TenantDirectory } from "../../server/services/tenants.ts";
import { CATALOG_CHANNEL, SiteService } from "../../server/services/sites.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { announcementsSettled, waitFor } from "../helpers/wait.ts";

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

  it("sees a center changed through the other instance within a second, announced by the database", async () => {
    const options = { platformHosts: ["localhost"], platformDomain: "localhost" };
    const b = new TenantDirectory(second, options);
    await testDb.database.db
      .insert(centers)
      .values({ slug: "acme", instituteName: "Acme", customDomain: "acme.test", templateId: "t1" });
    await waitFor(() => second.listening());

    const before = await b.resolve("acme.test");
    expect(before.kind === "tenant" && before.center.templateId).toBe("t1");

    // No call tells either directory: the trigger on centers does.
    await testDb.database.db.update(centers).set({ templateId: "t3" }).where(eq(centers.slug, "acme"));
    await waitFor(async () => {
      const site = await b.resolve("acme.test");
      return site.kind === "tenant" && site.center.templateId === "t3";
    }, 1000);
  });

  it("sees a catalog changed through the other instance within a second, announced by the database", async () => {
    const options = { platformHosts: ["localhost"], platformDomain: "localhost" };
    const b = new SiteService(second, new TenantDirectory(second, options));
    const [center] = await testDb.database.db
      .insert(centers)
      .values({ slug: "beta", instituteName: "Beta", customDomain: "beta.test" })
      .returning();
    const [creator] = await testDb.database.db
      .insert(users)
      .values({ name: "Asha", email: "asha@example.com", passwordHash: "x", role: "creator" })
      .returning();
    await testDb.database.db.insert(memberships).values({
      centerId: center.id,
      email: creator.email,
      userId: creator.id,
      role: "creator",
      status: "active",
      acceptedAt: new Date(),
    });
    await waitFor(() => second.listening());
    // What the set-up announced has arrived: only the next change can move the version.
    await announcementsSettled(second, CATALOG_CHANNEL);
    const version = b.catalogVersion(center.id);

    await testDb.database.db
      .insert(contents)
      .values({ creatorId: creator.id, centerId: center.id, type: "pdf", title: "Beta notes", price: 0 });
    await waitFor(() => b.catalogVersion(center.id) !== version, 1000);
    expect((await b.catalog(center.id)).materials.map((item) => item.title)).toEqual(["Beta notes"]);
  });
});
