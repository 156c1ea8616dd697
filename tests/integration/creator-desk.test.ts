import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { contents, memberships, users } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { FIXTURES } from "../helpers/content.ts";
import { notAllowed } from "../../server/api/member-guard.ts";
import { OTHER_DESK_CONTENT } from "../../server/services/content.ts";
import { EXAM_ACCESS_TEXTS } from "../../server/services/mock-tests/exam-access.ts";
import { CHOSEN_MEMBERSHIP_COOKIE, type MemberRole } from "#common/memberships.ts";

/**
 * The creator area decides through the policy (issue 40 §1, decision 0039): a teacher or creator
 * who chose an institute in the header works on that institute's content and tests, each write
 * decided by content.write or tests.write there; a teacher writes tests but is refused PDFs,
 * videos and live classes in the policy's words; a creator of two institutes switches between
 * them and, at one, reaches nothing of the other's; a creator with no institute works as before.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let ownerA: Account;
let ownerB: Account;
let teacher: Account;
let both: Account;
let alone: Account;
let a: Awaited<ReturnType<typeof createCenter>>;
let b: Awaited<ReturnType<typeof createCenter>>;

const chose = (centerId: string, role: MemberRole) => `${CHOSEN_MEMBERSHIP_COOKIE}=${centerId}:${role}`;
const headers = (who: Account, cookie?: string) => ({ ...bearer(who.access_token), ...(cookie ? { cookie } : {}) });
const get = (path: string, who: Account, cookie?: string) => t.request(path, { headers: headers(who, cookie) });
const send = (method: string, path: string, who: Account, body: unknown, cookie?: string) =>
  postJson(t, path, body, { method, headers: headers(who, cookie) });
const error = async (res: Response) => ((await res.json()) as { error: string }).error;

/** A live class uploaded through the API (no file needed), as `who` at the desk `cookie` names. */
function upload(who: Account, title: string, cookie?: string, extra: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries({
    title,
    type: "live",
    price: "0",
    liveLink: "https://meet.example.com/class",
    ...extra,
  }))
    form.set(k, v);
  return t.request("/api/content", { method: "POST", headers: headers(who, cookie), body: form });
}

async function uploaded(who: Account, title: string, cookie?: string, extra?: Record<string, string>) {
  const res = await upload(who, title, cookie, extra);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).content as { _id: string; businessId: string | null };
}

async function draft(who: Account, title: string, cookie?: string, businessId?: string) {
  const res = await send("POST", "/api/tests", who, { pattern: "custom", title, businessId }, cookie);
  return res;
}

async function member(centerId: string, who: Account, role: MemberRole) {
  const [row] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, who.user._id));
  await t.database.db
    .insert(memberships)
    .values({ centerId, userId: who.user._id, email: row.email, role, status: "active", acceptedAt: new Date() });
}

const titles = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()).contents as { title: string }[]).map((c) => c.title).sort();
};
const testTitles = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()).tests as { title: string }[]).map((x) => x.title).sort();
};

beforeAll(async () => {
  t = await createTestApp();
  ownerA = await register(t, "business", { name: "Owner A" });
  ownerB = await register(t, "business", { name: "Owner B" });
  teacher = await register(t, "creator", { name: "Teacher Tara" });
  both = await register(t, "creator", { name: "Creator of Both" });
  alone = await register(t, "creator", { name: "Solo Seller" });
  a = await createCenter(t, ownerA.user._id, { instituteName: "Alpha Academy", slug: "desk-alpha" });
  b = await createCenter(t, ownerB.user._id, { instituteName: "Beta Classes", slug: "desk-beta" });
  await member(a.id, teacher, "teacher");
  await member(a.id, both, "creator");
  await member(b.id, both, "creator");
});
afterAll(() => t.close());

describe("a teacher at their institute", () => {
  it("writes tests and questions there but is refused PDFs, videos and live classes in the policy's words", async () => {
    const atA = chose(a.id, "teacher");
    const made = await draft(teacher, "Teacher's weekly test", atA);
    expect(made.status, await made.clone().text()).toBe(201);
    expect((await made.json()).test.businessId).toBe(a.id);
    const question = await send(
      "POST",
      "/api/questions",
      teacher,
      {
        type: "single",
        text: "What is $1+1$?",
        options: ["$1$", "$2$", "$3$", "$4$"],
        answer: 1,
        tags: { subject: "Maths", chapter: "Numbers", difficulty: "easy" },
      },
      atA,
    );
    expect(question.status, await question.clone().text()).toBe(201);
    expect((await question.json()).questions[0].businessId ?? a.id).toBe(a.id);

    const before = await t.database.db.select({ id: contents.id }).from(contents).where(eq(contents.centerId, a.id));
    const refused = await upload(teacher, "Teacher's notes", atA);
    expect(refused.status).toBe(403);
    expect(await error(refused)).toBe(notAllowed("content.write"));
    const list = await get("/api/content/my", teacher, atA);
    expect(list.status).toBe(403);
    expect(await error(list)).toBe(notAllowed("content.write"));
    const after = await t.database.db.select({ id: contents.id }).from(contents).where(eq(contents.centerId, a.id));
    expect(after).toHaveLength(before.length);
  });
});

describe("a creator of two institutes", () => {
  it("works on the institute chosen in the header and switches with the choice", async () => {
    const atA = chose(a.id, "creator");
    const atB = chose(b.id, "creator");
    expect((await uploaded(both, "Alpha notes", atA)).businessId).toBe(a.id);
    expect((await uploaded(both, "Beta notes", atB)).businessId).toBe(b.id);
    const byOwner = await uploaded(ownerA, "Owner's Alpha class", chose(a.id, "owner"));
    expect(byOwner.businessId).toBe(a.id);

    // At A: A's content, whoever wrote it; at B: B's alone.
    expect(await titles(await get("/api/content/my", both, atA))).toEqual(["Alpha notes", "Owner's Alpha class"]);
    expect(await titles(await get("/api/content/my", both, atB))).toEqual(["Beta notes"]);

    expect((await draft(both, "Alpha mock", atA)).status).toBe(201);
    expect((await draft(both, "Beta mock", atB)).status).toBe(201);
    // The institute's tests, whoever wrote them (the teacher's above).
    expect(await testTitles(await get("/api/tests", both, atA))).toEqual(["Alpha mock", "Teacher's weekly test"]);
    expect(await testTitles(await get("/api/tests", both, atB))).toEqual(["Beta mock"]);

    // A's owner opens a creator's PDF at A, its file link included (content.write at A: file-links-policy.test.ts).
    const form = new FormData();
    for (const [k, v] of Object.entries({ title: "Alpha PDF", type: "pdf", price: "0" })) form.set(k, v);
    form.set("file", new Blob([FIXTURES.pdf(3000)]), "notes.pdf");
    const pdf = await t.request("/api/content", { method: "POST", headers: headers(both, atA), body: form });
    expect(pdf.status, await pdf.clone().text()).toBe(201);
    const pdfId = (await pdf.json()).content._id as string;
    const seen = await get(`/api/content/${pdfId}`, ownerA, chose(a.id, "owner"));
    expect(seen.status, await seen.clone().text()).toBe(200);
    const seenContent = (await seen.json()).content;
    expect(seenContent).toMatchObject({ title: "Alpha PDF", businessId: a.id });
    expect(seenContent.fileUrl).toMatch(new RegExp(`^/api/files/${pdfId}/`));
    await send("DELETE", `/api/content/${pdfId}`, both, {}, atA);
  });

  it("at A cannot read or change B's content or tests, even their own", async () => {
    const atA = chose(a.id, "creator");
    const atB = chose(b.id, "creator");
    const betaContent = await uploaded(both, "Beta video class", atB);
    const betaTest = (await (await draft(both, "Beta final", atB)).json()).test._id as string;

    expect((await get(`/api/content/${betaContent._id}`, both, atA)).status).toBe(404);
    const edit = await send("PUT", `/api/content/${betaContent._id}`, both, { title: "Taken" }, atA);
    expect(edit.status).toBe(404);
    expect((await send("DELETE", `/api/content/${betaContent._id}`, both, {}, atA)).status).toBe(404);
    const moved = await send(
      "PUT",
      `/api/content/${(await uploaded(both, "Alpha x", atA))._id}/assign`,
      both,
      {
        businessId: b.id,
      },
      atA,
    );
    expect(moved.status).toBe(403);
    expect(await error(moved)).toBe(OTHER_DESK_CONTENT);
    const named = await upload(both, "Sneaked into Beta", atA, { businessId: b.id });
    expect(named.status).toBe(403);
    expect(await error(named)).toBe(OTHER_DESK_CONTENT);

    expect((await get(`/api/tests/${betaTest}`, both, atA)).status).toBe(404);
    expect((await send("POST", `/api/tests/${betaTest}/publish`, both, {}, atA)).status).toBe(404);
    const into = await draft(both, "Into Beta", atA, b.id);
    expect(into.status).toBe(403);
    expect(await error(into)).toBe(EXAM_ACCESS_TEXTS.otherDesk);
    const bank = await get(`/api/questions?bank=${b.id}`, both, atA);
    expect(bank.status).toBe(200);
    expect((await bank.json()).questions).toEqual([]);

    const [row] = await t.database.db.select().from(contents).where(eq(contents.id, betaContent._id));
    expect(row).toMatchObject({ title: "Beta video class", centerId: b.id });
    // At B again, it is theirs to change.
    expect((await send("PUT", `/api/content/${betaContent._id}`, both, { title: "Beta live" }, atB)).status).toBe(200);
  });

  it("keeps a choice only while they hold a role there: a removed creator's choice opens nothing of it", async () => {
    const other = await register(t, "creator", { name: "Former Creator" });
    await member(a.id, other, "creator");
    const atA = chose(a.id, "creator");
    const theirs = await uploaded(other, "Former's Alpha notes", atA);
    await t.database.db
      .update(memberships)
      .set({ status: "removed", removedAt: new Date() })
      .where(and(eq(memberships.centerId, a.id), eq(memberships.userId, other.user._id)));
    // The choice is ignored: they work on their own again, where A's content is not theirs to list.
    expect(await titles(await get("/api/content/my", other, atA))).toEqual(["Former's Alpha notes"]);
    const edit = await send("PUT", `/api/content/${theirs._id}`, other, { title: "Still mine?" }, atA);
    expect(edit.status).toBe(403);
    expect(await error(edit)).toBe(notAllowed("content.write"));
    expect(await testTitles(await get("/api/tests", other, atA))).toEqual([]);
  });
});

describe("a creator with no institute", () => {
  it("works on their own content and tests as before, whatever the header's cookie says", async () => {
    const stranger = chose(b.id, "creator");
    for (const cookie of [undefined, stranger]) {
      const mine = await uploaded(alone, `Solo class ${cookie ? "with" : "without"} cookie`, cookie);
      expect(mine.businessId).toBeNull();
      const edited = await send("PUT", `/api/content/${mine._id}`, alone, { title: `${mine._id} edited` }, cookie);
      expect(edited.status).toBe(200);
    }
    expect(await titles(await get("/api/content/my", alone, stranger))).toHaveLength(2);
    const made = await draft(alone, "Solo mock", stranger);
    expect(made.status, await made.clone().text()).toBe(201);
    expect((await made.json()).test.businessId).toBeNull();
    expect(await testTitles(await get("/api/tests", alone))).toEqual(["Solo mock"]);
    // Another institute's content stays another's.
    const [beta] = await t.database.db.select().from(contents).where(eq(contents.centerId, b.id)).limit(1);
    expect((await send("PUT", `/api/content/${beta.id}`, alone, { title: "x" }, stranger)).status).toBe(403);
  });
});

describe("exam access reads roles from memberships", () => {
  it("an owner whose owner role is ended reaches the institute's tests no more, though the center still names them", async () => {
    const owner = await register(t, "business", { name: "Owner C" });
    const c = await createCenter(t, owner.user._id, { instituteName: "Gamma School", slug: "desk-gamma" });
    const made = await draft(owner, "Gamma test", undefined, c.id);
    expect(made.status, await made.clone().text()).toBe(201);
    const testId = (await made.json()).test._id as string;
    expect((await get(`/api/tests/${testId}`, owner)).status).toBe(200);
    await t.database.db
      .update(memberships)
      .set({ status: "removed", removedAt: new Date() })
      .where(and(eq(memberships.centerId, c.id), eq(memberships.userId, owner.user._id)));
    expect((await get(`/api/tests/${testId}`, owner)).status).toBe(404);
  });
});
