import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { centers, enrollments, memberships } from "../../server/db/schema/index.ts";
import { metrics } from "../../server/runtime/metrics.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { FIXTURES, makeCenter } from "../helpers/content.ts";
import { enrol, myCourses, publish, register, setContent } from "../helpers/learning.ts";
import { announcementsSettled, waitFor } from "../helpers/wait.ts";
import { joinTeam } from "../helpers/team.ts";
import { READS_CHANNEL } from "../../server/caches/read-cache.ts";

/**
 * The signed-in reads kept in memory (server/caches/read-cache.ts): a student's courses, a creator's
 * list, and the content a file link opens. Changes made through the app show on its next answer;
 * changes made anywhere else (here: SQL, as another instance or a tool would) show as soon as the
 * database's announcement arrives, on PostgreSQL a moment later, on the embedded database at once.
 */
let t: TestApp;
let creator: Awaited<ReturnType<typeof register>>;
let student: Awaited<ReturnType<typeof register>>;
let centerId: string;
let videoId: string;

const hits = async () =>
  Number(/pathshala_cache_lookups_total\{cache="reads",result="hit"\} (\d+)/.exec(await metrics.render())?.[1] ?? 0);
const creatorList = async () => {
  const res = await t.request("/api/content/my", { headers: bearer(creator.access_token) });
  return ((await res.json()) as { contents: { _id: string; title: string; businessName: string | null }[] }).contents;
};
const titleIn = (items: { _id: string; title: string }[], id: string) => items.find((item) => item._id === id)?.title;
const coursesTitle = async (id: string) =>
  (await myCourses(t, student.access_token)).find((course) => course.content._id === id)?.content.title;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  creator = await register(t, "creator");
  student = await register(t, "student");
  centerId = (
    await makeCenter(t, `reads-${Date.now().toString(36)}`, {
      status: "active",
      expiresAt: new Date(Date.now() + 86_400_000),
    })
  ).id;
  await joinTeam(t, centerId, creator.user._id);
  videoId = await publish(
    t,
    creator.access_token,
    { title: "Kinematics", type: "video", price: "0", businessId: centerId },
    FIXTURES.mp4(),
    "kinematics.mp4",
  );
  expect((await enrol(t, student.access_token, videoId)).status).toBe(201);
  // Kept only once the listener has said it is connected (at once on the embedded database).
  await waitFor(async () => {
    const before = await hits();
    await creatorList();
    await creatorList();
    return (await hits()) > before;
  });
});
afterAll(async () => {
  await t.close();
});

describe("signed-in reads kept in memory", () => {
  it("answers a student's courses and a creator's list from memory", async () => {
    // The set-up's own announcements, arriving late, would drop what this test counts on.
    await announcementsSettled(t.database, READS_CHANNEL);
    await myCourses(t, student.access_token);
    await creatorList();
    const before = await hits();
    await myCourses(t, student.access_token);
    await creatorList();
    expect(await hits()).toBe(before + 2);
  });

  it("shows what the app itself changed on its next answer", async () => {
    expect(titleIn(await creatorList(), videoId)).toBe("Kinematics");
    const res = await t.request(`/api/content/${videoId}`, {
      method: "PUT",
      headers: { ...bearer(creator.access_token), "content-type": "application/json" },
      body: JSON.stringify({ title: "Kinematics in one dimension" }),
    });
    expect(res.status).toBe(200);
    expect(titleIn(await creatorList(), videoId)).toBe("Kinematics in one dimension");
    expect(await coursesTitle(videoId)).toBe("Kinematics in one dimension");

    // A new free enrolment shows in the student's courses at once.
    const notesId = await publish(
      t,
      creator.access_token,
      { title: "Vectors notes", type: "pdf", price: "0" },
      FIXTURES.pdf(),
      "vectors.pdf",
    );
    expect(await coursesTitle(notesId)).toBeUndefined();
    expect((await enrol(t, student.access_token, notesId)).status).toBe(201);
    expect(await coursesTitle(notesId)).toBe("Vectors notes");
  });

  it("shows changes made outside the app once the database announces them", async () => {
    await creatorList();
    await myCourses(t, student.access_token);
    await setContent(t, videoId, { title: "Motion, renamed in SQL" });
    await expect
      .poll(async () => titleIn(await creatorList(), videoId), { timeout: 10_000 })
      .toBe("Motion, renamed in SQL");
    await expect.poll(() => coursesTitle(videoId), { timeout: 10_000 }).toBe("Motion, renamed in SQL");

    // The institute's name shows in both; renaming it drops what was read with it.
    await t.database.db.update(centers).set({ instituteName: "Renamed Institute" }).where(eq(centers.id, centerId));
    await expect
      .poll(async () => (await creatorList()).find((item) => item._id === videoId)?.businessName, { timeout: 10_000 })
      .toBe("Renamed Institute");

    // An enrolment removed in SQL leaves the student's courses.
    await t.database.db.delete(enrollments).where(eq(enrollments.contentId, videoId));
    await expect.poll(() => coursesTitle(videoId), { timeout: 10_000 }).toBeUndefined();
  });

  it("keeps a creator's institutes until their memberships or those institutes change", async () => {
    const businesses = async () =>
      (
        (await (await t.request("/api/businesses", { headers: bearer(creator.access_token) })).json()) as {
          businesses: { name: string }[];
        }
      ).businesses.map((b) => b.name);
    await announcementsSettled(t.database, READS_CHANNEL);
    expect(await businesses()).toEqual([
      (await t.database.db.select().from(centers).where(eq(centers.id, centerId)))[0].instituteName,
    ]);
    const before = await hits();
    await businesses();
    expect(await hits()).toBe(before + 1);

    // Joining another team (here in SQL, as another instance would) shows once announced…
    const otherId = (
      await makeCenter(t, `reads-other-${Date.now().toString(36)}`, {
        status: "active",
        expiresAt: new Date(Date.now() + 86_400_000),
      })
    ).id;
    await t.database.db.update(centers).set({ instituteName: "Another Institute" }).where(eq(centers.id, otherId));
    await joinTeam(t, otherId, creator.user._id);
    await expect.poll(businesses, { timeout: 10_000 }).toContain("Another Institute");
    // …and so do an institute renamed, and a membership ended.
    await t.database.db
      .update(centers)
      .set({ instituteName: "Another Institute, renamed" })
      .where(eq(centers.id, otherId));
    await expect.poll(businesses, { timeout: 10_000 }).toContain("Another Institute, renamed");
    await t.database.db.update(memberships).set({ status: "removed" }).where(eq(memberships.centerId, otherId));
    await expect.poll(businesses, { timeout: 10_000 }).not.toContain("Another Institute, renamed");
  });

  it("opens a file link with the content as it is now", async () => {
    const link = (await (
      await t.request(`/api/content/${videoId}/file-url`, { headers: bearer(creator.access_token) })
    ).json()) as { url: string };
    const disposition = async () =>
      (await t.request(link.url, { headers: { ...bearer(creator.access_token), range: "bytes=0-15" } })).headers.get(
        "content-disposition",
      );
    expect(await disposition()).toContain("kinematics.mp4");
    await setContent(t, videoId, { fileName: "motion.mp4" });
    await expect.poll(disposition, { timeout: 10_000 }).toContain("motion.mp4");
  });
});
