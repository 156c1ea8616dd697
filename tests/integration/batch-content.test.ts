import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberships } from "../../server/db/schema/index.ts";
import { NO_FILE_ACCESS } from "../../server/services/delivery.ts";
import { ATTEMPT_TEXTS } from "../../server/services/mock-tests/attempts.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { FIXTURES } from "../helpers/content.ts";
import { loginOn, register } from "../helpers/learning.ts";
import { CHOSEN_MEMBERSHIP_COOKIE, type MemberRole } from "../../common/memberships.ts";
import { BATCH_CONTENT_NOT_FOUND, BATCH_CONTENT_NOT_IN_BATCH, NOT_A_TEACHER } from "../../common/validation/batches.ts";

/**
 * A batch's content (issue 41 §1, decision 0042): the institute's owners and staff add its own
 * items, tests and series to a batch, and a student admitted to the batch opens them as if they
 * had bought them, through the one rule in content-access.ts: the PDF's file link (their stamped
 * copy), a paid test's sitting, a series' tests, their own area's list. A waitlisted student, one
 * who left or moved, and a student of another batch get none of it; another institute's content
 * cannot be added; a batch's teachers are named anew.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let author: Account;
let teacher: Account;
let otherOwner: Account;
let otherAuthor: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let vidya: Awaited<ReturnType<typeof createCenter>>;
const s = {} as Record<"admitted" | "waiting" | "leaving" | "mover" | "elsewhere", Account>;
const ids = {} as Record<"batch" | "other" | "pdf" | "test" | "seriesTest" | "series" | "vidyaPdf", string>;
const PDF = FIXTURES.pdf(3000);

const grant = (centerId: string, userId: string, role: MemberRole) =>
  t.database.db
    .insert(memberships)
    .values({ centerId, userId, role, status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();
const as = (who: Account) => bearer(who.access_token);
const json = async (res: Response) => ({ status: res.status, body: await res.json() });
const desk = (centerId: string, role: MemberRole) => ({ cookie: `${CHOSEN_MEMBERSHIP_COOKIE}=${centerId}:${role}` });

async function upload(who: Account, centerId: string, title: string): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ title, type: "pdf", price: "499" })) form.set(k, v);
  form.set("file", new Blob([PDF]), "notes.pdf");
  const res = await t.request("/api/content", {
    method: "POST",
    headers: { ...as(who), ...desk(centerId, "creator") },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).content._id;
}

async function paidTest(title: string): Promise<string> {
  const q = await json(
    await postJson(
      t,
      `/api/questions?bank=${sunrise.id}`,
      { type: "single", text: "$2 + 2 =$", options: ["3", "4", "5", "6"], answer: 1 },
      { headers: as(owner) },
    ),
  );
  expect(q.status, JSON.stringify(q.body)).toBe(201);
  const made = await json(
    await postJson(
      t,
      "/api/tests",
      {
        title,
        businessId: sunrise.id,
        price: 199,
        durationMinutes: 20,
        sections: [{ name: "Maths", questions: [q.body.questions[0]._id] }],
      },
      { headers: as(owner) },
    ),
  );
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = made.body.test._id as string;
  expect((await postJson(t, `/api/tests/${id}/publish`, {}, { headers: as(owner) })).status).toBe(200);
  return id;
}

const addContent = (who: Account, batchId: string, contentId: unknown) =>
  postJson(t, `/api/batches/${batchId}/contents`, { contentId }, { headers: as(who) });
const fileUrl = (who: Account, contentId: string) =>
  t.request(`/api/content/${contentId}/file-url`, { headers: as(who) });
const startTest = (who: Account, testId: string) =>
  postJson(t, `/api/tests/${testId}/attempts`, {}, { headers: as(who) });
const batchItems = async (who: Account) => {
  const res = await t.request("/api/student/batch-contents", { headers: as(who) });
  expect(res.status).toBe(200);
  return (await res.json()).items as {
    batch: { name: string };
    content: { _id: string; fromBatch: boolean; fileUrl: string | null };
  }[];
};

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  owner = await register(t, "business", { name: "Anita Sharma" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  author = await register(t, "creator", { name: "Meera Nair" });
  otherAuthor = await register(t, "creator", { name: "Vikram Sen" });
  teacher = await register(t, "creator", { name: "Kavya Iyer" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "bc-sunrise" });
  vidya = await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "bc-vidya" });
  await grant(sunrise.id, author.user._id, "creator");
  await grant(sunrise.id, teacher.user._id, "teacher");
  await grant(vidya.id, otherAuthor.user._id, "creator");
  for (const [key, name] of [
    ["admitted", "Priya Das"],
    ["waiting", "Arjun Rao"],
    ["leaving", "Sana Khan"],
    ["mover", "Dev Patel"],
    ["elsewhere", "Isha Roy"],
  ] as const) {
    s[key] = await register(t, "student", { name });
    await grant(sunrise.id, s[key].user._id, "student");
  }

  const make = async (name: string, capacity: number) => {
    const res = await json(
      await postJson(
        t,
        "/api/batches",
        { centerId: sunrise.id, name, startsOn: "2027-04-01", capacity },
        { headers: as(owner) },
      ),
    );
    expect(res.status).toBe(201);
    return res.body.batch._id as string;
  };
  ids.batch = await make("NEET 2027 Evening", 3);
  ids.other = await make("NEET 2027 Morning", 10);
  const admitted = await json(
    await postJson(
      t,
      `/api/batches/${ids.batch}/students`,
      { studentIds: [s.admitted.user._id, s.leaving.user._id, s.mover.user._id, s.waiting.user._id] },
      { headers: as(owner) },
    ),
  );
  expect(admitted.body.waitlisted.map((w: { name: string }) => w.name)).toEqual(["Arjun Rao"]);
  await postJson(
    t,
    `/api/batches/${ids.other}/students`,
    { studentIds: [s.elsewhere.user._id] },
    { headers: as(owner) },
  );

  ids.pdf = await upload(author, sunrise.id, "Organic chemistry notes");
  ids.vidyaPdf = await upload(otherAuthor, vidya.id, "Vidya physics notes");
  ids.test = await paidTest("Biology mock 1");
  ids.seriesTest = await paidTest("Biology mock 2");
  const series = await json(
    await postJson(
      t,
      "/api/series",
      { title: "NEET biology series", businessId: sunrise.id, price: 999, tests: [ids.seriesTest] },
      { headers: as(owner) },
    ),
  );
  expect(series.status, JSON.stringify(series.body)).toBe(201);
  ids.series = series.body.series._id;
});
afterAll(() => t.close());

describe("a batch's content", () => {
  it("is added by the owner (twice is harmless) and listed on the batch", async () => {
    const first = await json(await addContent(owner, ids.batch, ids.pdf));
    expect(first.status).toBe(200);
    const again = await json(await addContent(owner, ids.batch, ids.pdf));
    expect(again.status).toBe(200);
    expect(again.body.contents.map((c: { _id: string }) => c._id)).toEqual([ids.pdf]);
    for (const id of [ids.test, ids.series]) expect((await addContent(owner, ids.batch, id)).status).toBe(200);
    const detail = await json(await t.request(`/api/batches/${ids.batch}`, { headers: as(owner) }));
    expect(detail.body.contents).toEqual([
      expect.objectContaining({ _id: ids.pdf, title: "Organic chemistry notes", type: "pdf" }),
      expect.objectContaining({ _id: ids.test, title: "Biology mock 1", type: "test" }),
      expect.objectContaining({ _id: ids.series, title: "NEET biology series", type: "series" }),
    ]);
  });

  it("refuses another institute's content, an unknown id and a non-id, in words, adding nothing", async () => {
    const foreign = await json(await addContent(owner, ids.batch, ids.vidyaPdf));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(BATCH_CONTENT_NOT_FOUND);
    const unknown = await json(await addContent(owner, ids.batch, "00000000-0000-4000-8000-000000000000"));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(BATCH_CONTENT_NOT_FOUND);
    const bad = await json(await addContent(owner, ids.batch, "not-an-id"));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(BATCH_CONTENT_NOT_FOUND);
    const teacherTry = await addContent(teacher, ids.batch, ids.pdf);
    expect(teacherTry.status).toBe(403);
    const detail = await json(await t.request(`/api/batches/${ids.batch}`, { headers: as(owner) }));
    expect(detail.body.contents).toHaveLength(3);
  });

  it("opens the PDF to an admitted student: a file link to their stamped copy", async () => {
    const res = await fileUrl(s.admitted, ids.pdf);
    expect(res.status, await res.clone().text()).toBe(200);
    const { url } = await res.json();
    const file = await t.request(url, { headers: as(s.admitted) });
    expect(file.status).toBe(200);
    const bytes = new Uint8Array(await file.arrayBuffer());
    // Their own copy, stamped with their name: not the original bytes.
    expect(bytes).not.toEqual(PDF);
    expect(file.headers.get("content-type")).toBe("application/pdf");
  });

  it("lets an admitted student sit its paid test, and a test of its series, without buying", async () => {
    const sitting = await json(await startTest(s.admitted, ids.test));
    expect(sitting.status, JSON.stringify(sitting.body)).toBe(200);
    expect(sitting.body.attempt._id).toBeTruthy();
    const viaSeries = await json(await startTest(s.admitted, ids.seriesTest));
    expect(viaSeries.status, JSON.stringify(viaSeries.body)).toBe(200);
  });

  it("lists the batch's contents in the admitted student's own area, marked as from the batch", async () => {
    const items = await batchItems(s.admitted);
    expect(items.map((i) => i.content._id).sort()).toEqual([ids.pdf, ids.test, ids.series].sort());
    expect(items.every((i) => i.batch.name === "NEET 2027 Evening" && i.content.fromBatch)).toBe(true);
    const pdf = items.find((i) => i.content._id === ids.pdf)!.content;
    expect(pdf.fileUrl).toMatch(new RegExp(`^/api/files/${ids.pdf}/`));
  });

  it("is listed on the batch's institute's own site, under its row-level security, and not on another's", async () => {
    const onSite = async (host: string) => {
      const token = await loginOn(t, host, s.admitted.email);
      const res = await t.request("/api/student/batch-contents", { headers: bearer(token), host });
      expect(res.status).toBe(200);
      return ((await res.json()).items as { content: { _id: string } }[]).map((i) => i.content._id).sort();
    };
    expect(await onSite(sunrise.customDomain!)).toEqual([ids.pdf, ids.test, ids.series].sort());
    expect(await onSite(vidya.customDomain!)).toEqual([]);
    const token = await loginOn(t, sunrise.customDomain!, s.admitted.email);
    const link = await t.request(`/api/content/${ids.pdf}/file-url`, {
      headers: bearer(token),
      host: sunrise.customDomain!,
    });
    expect(link.status).toBe(200);
  });

  it("opens nothing to a waitlisted student or a student of another batch", async () => {
    for (const who of [s.waiting, s.elsewhere]) {
      const link = await json(await fileUrl(who, ids.pdf));
      expect(link.status).toBe(403);
      expect(link.body.error).toBe(NO_FILE_ACCESS);
      const sitting = await json(await startTest(who, ids.test));
      expect(sitting.status).toBe(402);
      expect(sitting.body.error).toBe(ATTEMPT_TEXTS.paymentRequired);
      expect(await batchItems(who)).toEqual([]);
    }
  });

  it("closes it to a student who leaves or moves, the link already given included", async () => {
    const { url } = await (await fileUrl(s.leaving, ids.pdf)).json();
    expect((await t.request(url, { headers: as(s.leaving) })).status).toBe(200);
    expect((await startTest(s.mover, ids.test)).status).toBe(200);

    const left = await t.request(`/api/batches/${ids.batch}/students/${s.leaving.user._id}`, {
      method: "DELETE",
      headers: as(owner),
    });
    expect(left.status).toBe(200);
    const moved = await postJson(
      t,
      `/api/batches/${ids.batch}/students/${s.mover.user._id}/move`,
      { toBatchId: ids.other },
      { headers: as(owner) },
    );
    expect(moved.status).toBe(200);

    expect((await t.request(url, { headers: as(s.leaving) })).status).toBe(403);
    expect((await fileUrl(s.leaving, ids.pdf)).status).toBe(403);
    expect((await fileUrl(s.mover, ids.pdf)).status).toBe(403);
    expect((await startTest(s.leaving, ids.seriesTest)).status).toBe(402);
    expect(await batchItems(s.mover)).toEqual([]);
    // Two seats freed: the waiting student took one, and now opens what the batch has.
    expect((await fileUrl(s.waiting, ids.pdf)).status).toBe(200);
  });

  it("is removed from the batch, closing it to its students; removing it again is a 404 in words", async () => {
    const removed = await json(
      await t.request(`/api/batches/${ids.batch}/contents/${ids.pdf}`, { method: "DELETE", headers: as(owner) }),
    );
    expect(removed.status).toBe(200);
    expect(removed.body.contents.map((c: { _id: string }) => c._id)).toEqual([ids.test, ids.series]);
    expect((await fileUrl(s.admitted, ids.pdf)).status).toBe(403);
    const again = await json(
      await t.request(`/api/batches/${ids.batch}/contents/${ids.pdf}`, { method: "DELETE", headers: as(owner) }),
    );
    expect(again.status).toBe(404);
    expect(again.body.error).toBe(BATCH_CONTENT_NOT_IN_BATCH);
  });
});

describe("a batch's teachers", () => {
  const setTeachers = (who: Account, teacherIds: unknown) =>
    postJson(t, `/api/batches/${ids.batch}/teachers`, { teacherIds }, { method: "PUT", headers: as(who) });

  it("are replaced, all of them, by the owner", async () => {
    const first = await json(await setTeachers(owner, [teacher.user._id, owner.user._id]));
    expect(first.status).toBe(200);
    expect(first.body.batch.teachers.map((x: { name: string }) => x.name)).toEqual(["Anita Sharma", "Kavya Iyer"]);
    const second = await json(await setTeachers(owner, [author.user._id]));
    expect(second.body.batch.teachers.map((x: { name: string }) => x.name)).toEqual(["Meera Nair"]);
    const none = await json(await setTeachers(owner, []));
    expect(none.body.batch.teachers).toEqual([]);
  });

  it("refuses a person who does not teach there, changing nothing", async () => {
    await setTeachers(owner, [teacher.user._id]);
    const res = await json(await setTeachers(owner, [teacher.user._id, s.admitted.user._id]));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(NOT_A_TEACHER(`The teacher ${s.admitted.user._id}`));
    const detail = await json(await t.request(`/api/batches/${ids.batch}`, { headers: as(owner) }));
    expect(detail.body.batch.teachers.map((x: { name: string }) => x.name)).toEqual(["Kavya Iyer"]);
    expect((await setTeachers(teacher, [])).status).toBe(403);
  });

  it("are offered from the institute's people, as the students to admit are", async () => {
    const res = await json(await t.request(`/api/batches/people?centerId=${sunrise.id}`, { headers: as(owner) }));
    expect(res.status).toBe(200);
    expect(res.body.teachers.map((p: { name: string }) => p.name)).toEqual([
      "Anita Sharma",
      "Kavya Iyer",
      "Meera Nair",
    ]);
    expect(res.body.students.map((p: { name: string }) => p.name)).toEqual([
      "Arjun Rao",
      "Dev Patel",
      "Isha Roy",
      "Priya Das",
      "Sana Khan",
    ]);
  });
});
