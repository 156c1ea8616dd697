import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { attempts, centers, contents, mockTests, questions, memberships, users } from "../../server/db/schema/index.ts";
import { runInTenantScope } from "../../server/db/tenant-scope.ts";
import { DEMO_CENTERS, DEMO_PENDING_INVITE } from "../../server/seed/demo-data.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { sniff } from "../../server/storage/magic.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const storedFiles = () =>
  readdirSync(join(t.env.DATA_DIR, "files"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

async function bytesOf(key: string) {
  const object = await t.services.storage.get(key);
  return new Uint8Array(await new Response(object!.body).arrayBuffer());
}

describe("the demo creator's content", () => {
  it("has a real PDF and a real video in storage, and sales from the demo student", async () => {
    await seedDemo(t.database.db, t.services.storage);
    const [creator] = await t.database.db.select().from(users).where(eq(users.email, "creator@example.com"));
    const rows = await t.database.db.select().from(contents).where(eq(contents.creatorId, creator.id));
    expect(rows.map((r) => r.type).sort()).toEqual([
      "live",
      "live",
      "pdf",
      "series",
      "test",
      "test",
      "test",
      "test",
      "test",
      "video",
    ]);

    const pdf = rows.find((r) => r.type === "pdf")!;
    const pdfBytes = await bytesOf(pdf.fileKey!);
    expect(pdfBytes.byteLength).toBe(pdf.fileSize);
    const doc = await PDFDocument.load(pdfBytes);
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(2);
    expect(doc.getTitle()).toBe("JEE Main Physics: Rotational Motion Formula Sheet");

    const video = rows.find((r) => r.type === "video")!;
    const videoBytes = await bytesOf(video.fileKey!);
    expect(sniff(videoBytes.subarray(0, 16))).toBe("mp4");
    expect(videoBytes.byteLength).toBeGreaterThan(50_000);

    const sales = await t.services.sales.summary(creator.id);
    expect(sales.totalOrders).toBe(3);
    expect(sales.totalRevenue).toBe(149 + 299 + 199);
  });

  it("seeding again adds nothing and leaves no stray files", async () => {
    const before = storedFiles();
    await seedDemo(t.database.db, t.services.storage);
    expect(storedFiles()).toEqual(before);
    expect(await t.database.db.select().from(contents)).toHaveLength(10);
    expect(await t.database.db.select().from(memberships).where(eq(memberships.role, "creator"))).toHaveLength(3);
  });
});

describe("the demo institutes' teams", () => {
  it("have the demo creator as a member of both, and Sunrise an invitation waiting", async () => {
    const [sunrise, vidya] = await Promise.all(
      DEMO_CENTERS.map(async (c) => (await t.database.db.select().from(centers).where(eq(centers.slug, c.slug)))[0]),
    );
    expect(
      (await t.services.team.list(sunrise.id)).map((e) => [
        e.address,
        e.status,
        e.name,
        e.expired,
        e.joinedBeforeTeams,
      ]),
    ).toEqual([
      [DEMO_PENDING_INVITE, "pending", null, false, false],
      ["creator@example.com", "accepted", "Rahul Verma", false, false],
    ]);
    expect((await t.services.team.list(vidya.id)).map((e) => [e.address, e.status])).toEqual([
      ["creator@example.com", "accepted"],
    ]);
    // So both demo sites keep showing the demo creator's content.
    expect((await t.services.team.siteItems(sunrise.id)).every((i) => i.shown)).toBe(true);
    expect((await t.services.sites.catalog(vidya.id)).live.map((i) => i.title)).toEqual([
      "NEET Biology: Human Physiology Doubt Session",
    ]);
  });
});

describe("the demo's mock tests", () => {
  it("hold a finished mock with the demo student's released result and rank, tests to take, and a series", async () => {
    await seedDemo(t.database.db, t.services.storage);
    const [student] = await t.database.db.select().from(users).where(eq(users.email, "student@example.com"));
    const site = await t.services.tenants.resolve("demo-t1.localhost");
    const tests = await t.services.attempts.listForStudent({ id: student.id, role: "student" }, site);
    expect(tests.map((x) => x.title)).toEqual(
      expect.arrayContaining([
        "JEE Main Mock Test 1",
        "JEE Main Mock Test 2",
        "JEE Main All-Sunrise Live Mock",
        "Kinematics & Rotation Chapter Test",
      ]),
    );
    const finished = tests.find((x) => x.title === "JEE Main Mock Test 1")!;
    expect(finished.attempts).toHaveLength(1);
    const result = await t.services.attempts.result({ id: student.id, role: "student" }, finished.attempts[0]._id);
    expect(result).toMatchObject({ rank: 2, takers: 5, maxScore: 36 });
    expect(result.score).toBe(27);
    const series = await t.database.db.select().from(contents).where(eq(contents.type, "series"));
    expect(series.map((s) => s.title)).toEqual(["JEE Main Mock Series 2026"]);
  });

  it("give every sitting and question its institute, so its domain and its team find them", async () => {
    await seedDemo(t.database.db, t.services.storage);
    const [sunrise] = await t.database.db.select().from(centers).where(eq(centers.slug, "demo-t1"));
    const [vidya] = await t.database.db.select().from(centers).where(eq(centers.slug, "demo-t2"));
    const [finished] = await t.database.db
      .select({ id: mockTests.contentId })
      .from(mockTests)
      .innerJoin(contents, eq(contents.id, mockTests.contentId))
      .where(eq(contents.title, "JEE Main Mock Test 1"));
    const sittings = await t.database.db.select().from(attempts).where(eq(attempts.testId, finished.id));
    expect(sittings).toHaveLength(5);
    expect(sittings.every((s) => s.centerId === sunrise.id)).toBe(true);
    // On Sunrise's domain (row-level security on PostgreSQL) the sittings are all there.
    const onItsDomain = await runInTenantScope(sunrise.id, async () =>
      t.database.db.select({ id: attempts.id }).from(attempts).where(eq(attempts.testId, finished.id)),
    );
    expect(onItsDomain).toHaveLength(5);

    const bank = await t.database.db
      .select({ centerId: questions.centerId, subject: questions.subject })
      .from(questions);
    expect(bank.length).toBeGreaterThan(0);
    for (const q of bank) expect(q.centerId).toBe(q.subject === "Biology" ? vidya.id : sunrise.id);
    // The demo owner (of both institutes) sees each bank; on Vidya's domain, Vidya's alone.
    const owner = { id: sunrise.ownerId!, role: "business" as const };
    expect((await t.services.questionBank.list(owner)).total).toBe(bank.length);
    const onVidya = await runInTenantScope(vidya.id, () => t.services.questionBank.list(owner));
    expect(onVidya.questions.map((q) => q.tags?.subject)).toEqual(["Biology", "Biology"]);
  });
});
