import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { centers, contents, hiddenContents, memberships, users } from "../../server/db/schema/index.ts";
import { CENTERS_CHANNEL } from "../../server/services/tenants.ts";
import { CATALOG_CHANNEL } from "../../server/services/sites.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { announcementsSettled } from "../helpers/wait.ts";

/**
 * The database announces every change to centers and to what an institute's site lists
 * (migration 0011), whoever writes it: here plain SQL, as another instance or a tool would.
 * On PostgreSQL through LISTEN/NOTIFY, on the embedded database through PGlite's listeners.
 */
let testDb: TestDatabase;
const heard: Record<string, string[]> = { [CENTERS_CHANNEL]: [], [CATALOG_CHANNEL]: [] };
let creatorId: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  for (const channel of Object.keys(heard)) testDb.database.listen(channel, (payload) => heard[channel].push(payload));
  const [creator] = await testDb.database.db
    .insert(users)
    .values({ name: "Asha", email: "asha@example.com", passwordHash: "x", role: "creator" })
    .returning();
  creatorId = creator.id;
});
afterAll(() => testDb.drop());

/** What `channel` announces while `change` runs (settled: everything sent has arrived). */
async function announced(channel: string, change: () => Promise<unknown>): Promise<string[]> {
  await announcementsSettled(testDb.database, channel);
  const from = heard[channel].length;
  await change();
  await announcementsSettled(testDb.database, channel);
  return heard[channel].slice(from).filter((payload) => payload !== "settled" && payload !== "*");
}

const newCenter = async (slug: string) =>
  (
    await testDb.database.db
      .insert(centers)
      .values({ slug, instituteName: slug, customDomain: `${slug}.test` })
      .returning()
  )[0].id;

describe("center changes are announced by the database", () => {
  it("names each center inserted, updated or deleted", async () => {
    let id = "";
    expect(await announced(CENTERS_CHANNEL, async () => (id = await newCenter("notice-one")))).toEqual([id]);
    expect(
      await announced(CENTERS_CHANNEL, () =>
        testDb.database.db.update(centers).set({ templateId: "t3" }).where(eq(centers.id, id)),
      ),
    ).toEqual([id]);
    expect(
      await announced(CENTERS_CHANNEL, () => testDb.database.db.delete(centers).where(eq(centers.id, id))),
    ).toEqual([id]);
  });

  it("says nothing when no center changed", async () => {
    expect(
      await announced(CENTERS_CHANNEL, () =>
        testDb.database.db.update(centers).set({ templateId: "t2" }).where(eq(centers.slug, "nobody")),
      ),
    ).toEqual([]);
  });
});

describe("catalog changes are announced by the database, by institute", () => {
  let north: string;
  let south: string;
  let contentId: string;
  beforeAll(async () => {
    north = await newCenter("notice-north");
    south = await newCenter("notice-south");
  });

  it("names the institute whose team changed", async () => {
    expect(
      await announced(CATALOG_CHANNEL, () =>
        testDb.database.db.insert(memberships).values({
          centerId: north,
          email: "asha@example.com",
          userId: creatorId,
          role: "creator",
          status: "active",
          acceptedAt: new Date(),
        }),
      ),
    ).toEqual([north]);
    expect(
      await announced(CATALOG_CHANNEL, () =>
        testDb.database.db.update(memberships).set({ status: "removed" }).where(eq(memberships.centerId, north)),
      ),
    ).toEqual([north]);
  });

  it("says nothing when a student joins: the site lists what its team sells, not who studies there", async () => {
    expect(
      await announced(CATALOG_CHANNEL, () =>
        testDb.database.db.insert(users).values({
          name: "Ravi",
          email: "ravi@example.com",
          passwordHash: "x",
          role: "student",
          signupCenterId: south,
        }),
      ),
    ).toEqual([]);
    // The sign-up made Ravi a student of the institute: the trigger ran, and still nothing was announced.
    const made = await testDb.database.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.centerId, south), eq(memberships.role, "student")));
    expect(made).toEqual([{ role: "student" }]);
  });

  it("names the institutes a content leaves and joins, and none for unassigned content", async () => {
    expect(
      await announced(CATALOG_CHANNEL, async () => {
        contentId = (
          await testDb.database.db
            .insert(contents)
            .values({ creatorId, type: "pdf", title: "Notes", price: 0 })
            .returning()
        )[0].id;
      }),
    ).toEqual([]);
    expect(
      await announced(CATALOG_CHANNEL, () =>
        testDb.database.db.update(contents).set({ centerId: north }).where(eq(contents.id, contentId)),
      ),
    ).toEqual([north]);
    expect(
      (
        await announced(CATALOG_CHANNEL, () =>
          testDb.database.db.update(contents).set({ centerId: south }).where(eq(contents.id, contentId)),
        )
      ).sort(),
    ).toEqual([north, south].sort());
    expect(
      await announced(CATALOG_CHANNEL, () =>
        testDb.database.db.update(contents).set({ title: "Organic notes" }).where(eq(contents.id, contentId)),
      ),
    ).toEqual([south]);
  });

  it("names the institute whose owner hid or showed a content", async () => {
    expect(
      await announced(CATALOG_CHANNEL, () =>
        testDb.database.db.insert(hiddenContents).values({ centerId: south, contentId }),
      ),
    ).toEqual([south]);
    expect(
      await announced(CATALOG_CHANNEL, () =>
        testDb.database.db
          .delete(hiddenContents)
          .where(and(eq(hiddenContents.centerId, south), eq(hiddenContents.contentId, contentId))),
      ),
    ).toEqual([south]);
  });

  it("names the institute once for a statement that changes many of its contents, and its content's deletion", async () => {
    const more = await testDb.database.db
      .insert(contents)
      .values(
        [1, 2, 3].map((n) => ({ creatorId, centerId: south, type: "pdf" as const, title: `Sheet ${n}`, price: 0 })),
      )
      .returning({ id: contents.id });
    expect(
      await announced(CATALOG_CHANNEL, () =>
        testDb.database.db
          .update(contents)
          .set({ price: 100 })
          .where(
            inArray(
              contents.id,
              more.map((m) => m.id),
            ),
          ),
      ),
    ).toEqual([south]);
    expect(
      await announced(CATALOG_CHANNEL, () => testDb.database.db.delete(contents).where(eq(contents.id, contentId))),
    ).toEqual([south]);
  });
});
