import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { contents, enrollments, orders } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { registerUser } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { insertPaidOrder } from "../helpers/content.ts";
import { joinTeam } from "../helpers/team.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function content(
  creatorId: string,
  centerId: string | null,
  overrides: Partial<typeof contents.$inferInsert> = {},
) {
  const [row] = await t.database.db
    .insert(contents)
    .values({ creatorId, centerId, type: "pdf", title: "Notes", price: 10_000, ...overrides })
    .returning();
  return row;
}

async function enrol(studentId: string, contentId: string, orderId: string | null = null) {
  await t.database.db.insert(enrollments).values({ studentId, contentId, orderId });
}

describe("an institute's dashboard figures", () => {
  it("count its students and its revenue, and nobody else's", async () => {
    const owner = await registerUser(t, "business");
    const creator = await registerUser(t, "creator");
    const [s1, s2, s3] = await Promise.all([
      registerUser(t, "student"),
      registerUser(t, "student"),
      registerUser(t, "student"),
    ]);
    const ours = await createCenter(t, owner.user._id);
    const theirs = await createCenter(t, owner.user._id);
    await joinTeam(t, ours.id, creator.user._id);
    await joinTeam(t, theirs.id, creator.user._id);

    expect(await t.services.businessFigures.figures(ours.id)).toEqual({
      studentsEnrolled: 0,
      paidOrders: 0,
      revenue: 0,
      contentsOnSale: 0,
    });

    const a = await content(creator.user._id, ours.id, { price: 14_900 });
    const b = await content(creator.user._id, ours.id, { price: 29_900 });
    await content(creator.user._id, ours.id, { isActive: false });
    const elsewhere = await content(creator.user._id, theirs.id, { price: 50_000 });

    // Two students buy our content; one of them buys both (one student, counted once).
    const o1 = await insertPaidOrder(t, a.id, s1.user._id, 14_900);
    await enrol(s1.user._id, a.id, o1.id);
    const o2 = await insertPaidOrder(t, b.id, s1.user._id, 29_900);
    await enrol(s1.user._id, b.id, o2.id);
    const o3 = await insertPaidOrder(t, a.id, s2.user._id, 14_900);
    await enrol(s2.user._id, a.id, o3.id);
    // Unpaid and failed orders are not revenue.
    await insertPaidOrder(t, a.id, s3.user._id, 14_900, new Date(), "created");
    await insertPaidOrder(t, b.id, s3.user._id, 29_900, new Date(), "failed");
    // Another institute's sale is not ours.
    const o4 = await insertPaidOrder(t, elsewhere.id, s3.user._id, 50_000);
    await enrol(s3.user._id, elsewhere.id, o4.id);

    expect(await t.services.businessFigures.figures(ours.id)).toEqual({
      studentsEnrolled: 2,
      paidOrders: 3,
      revenue: 59_700,
      contentsOnSale: 2,
    });
    expect(await t.services.businessFigures.figures(theirs.id)).toEqual({
      studentsEnrolled: 1,
      paidOrders: 1,
      revenue: 50_000,
      contentsOnSale: 1,
    });

    // A sale made on our site still counts after the creator moves the content elsewhere.
    await t.database.db.update(orders).set({ sellerCenterId: ours.id }).where(eq(orders.id, o4.id));
    await t.database.db.update(contents).set({ centerId: theirs.id }).where(eq(contents.id, b.id));
    const after = await t.services.businessFigures.figures(ours.id);
    // o1 and o3 (content a, ours) + o4 (placed on our site); o2's content moved away.
    expect(after).toMatchObject({
      paidOrders: 3,
      revenue: 14_900 + 14_900 + 50_000,
      studentsEnrolled: 3,
      contentsOnSale: 1,
    });

    // What the owner hides from the site is not on sale there; its sales still count.
    await t.services.team.setHidden({ id: owner.user._id }, ours.id, a.id, { hidden: true });
    expect(await t.services.businessFigures.figures(ours.id)).toMatchObject({
      paidOrders: 3,
      revenue: 14_900 + 14_900 + 50_000,
      contentsOnSale: 0,
    });
  });
});
