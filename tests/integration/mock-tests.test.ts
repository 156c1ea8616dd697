import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { attempts, enrollments, messages } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { loginOn, register } from "../helpers/learning.ts";
import { publishTest, sit as sitTest, startSitting, writeQuestions } from "../helpers/sittings.ts";
import { joinTeam } from "../helpers/team.ts";

let t: TestApp;
let creator: Awaited<ReturnType<typeof register>>;
let otherCreator: Awaited<ReturnType<typeof register>>;
let students: Awaited<ReturnType<typeof register>>[];
let center: { id: string; customDomain: string | null };
const host = () => center.customDomain!;

const json = async (res: Response) => ({ status: res.status, body: await res.json() });
const as = (token: string, extra: Record<string, string> = {}) => ({ ...bearer(token), ...extra });
const put = (path: string, token: string, body: unknown, on?: string) =>
  postJson(t, path, body, { method: "PUT", headers: bearer(token), host: on });

const single = (text: string, answer: number, chapter = "Kinematics") => ({
  type: "single",
  text,
  options: ["$1$", "$2$", "$3$", "$4$"],
  answer,
  solution: `The answer is option ${answer + 1}.`,
  tags: { subject: "Physics", chapter, difficulty: "easy" },
});
const numerical = (text: string, value: number) => ({
  type: "numerical",
  text,
  answer: { value, tolerance: 0.01 },
  decimals: { places: 2, mode: "round" },
  tags: { subject: "Physics", chapter: "Kinematics", difficulty: "medium" },
});

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  creator = await register(t, "creator", { name: "Rahul Verma" });
  otherCreator = await register(t, "creator", { name: "Stranger" });
  center = await createCenter(t, null, { instituteName: "Sunrise Academy" });
  await joinTeam(t, center.id, creator.user._id);
  students = [];
  // The institute's students sign up on its domain (sessions hold on the host they were made on).
  for (const name of ["Asha", "Bala", "Chitra", "Dev"])
    students.push(await register(t, "student", { name, host: center.customDomain! }));
});
afterAll(() => t.close());

describe("question bank", () => {
  it("writes a question, lists it for its author and not for a stranger, and names a bad one's problem", async () => {
    const [id] = await writeQuestions(t, creator.access_token, [single("Speed of $x$?", 1, "Optics")]);
    const mine = await json(await t.request("/api/questions?chapter=Optics", { headers: as(creator.access_token) }));
    expect(mine.body.questions.map((q: { _id: string }) => q._id)).toEqual([id]);
    const theirs = await json(await t.request("/api/questions", { headers: as(otherCreator.access_token) }));
    expect(theirs.body.questions).toEqual([]);

    const bad = await json(
      await postJson(
        t,
        "/api/questions",
        { ...single("Bad", 9), options: ["a", "b"] },
        { headers: bearer(creator.access_token) },
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("The answer must be the number of one of the options");
    const student = await t.request("/api/questions", { headers: as(students[0].access_token), host: host() });
    expect(student.status).toBe(403);
  });

  it("imports a CSV all or nothing, naming each bad row, and exports what it imported", async () => {
    const csv = (rows: string[]) => ["type,text,option_a,option_b,answer,chapter", ...rows].join("\n");
    const upload = (body: string, name = "bank.csv") => {
      const form = new FormData();
      form.set("file", new File([body], name, { type: "text/csv" }));
      return t.request("/api/questions/import", { method: "POST", body: form, headers: as(creator.access_token) });
    };
    const before = (await json(await t.request("/api/questions?chapter=Waves", { headers: as(creator.access_token) })))
      .body.total;
    const refused = await json(await upload(csv(["single,Good one,A,B,A,Waves", "single,,A,B,C,Waves"])));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Nothing was imported: fix these rows and upload the file again.");
    expect(refused.body.problems[0].where).toBe("Row 3");
    const after = (await json(await t.request("/api/questions?chapter=Waves", { headers: as(creator.access_token) })))
      .body.total;
    expect(after).toBe(before);

    const done = await json(await upload(csv(["single,First wave,A,B,A,Waves", "single,Second wave,A,B,B,Waves"])));
    expect(done.status).toBe(201);
    expect(done.body.questions).toHaveLength(2);
    const exported = await t.request("/api/questions/export?format=json&chapter=Waves", {
      headers: as(creator.access_token),
    });
    const file = JSON.parse(await exported.text());
    expect(file.questions.map((q: { text: string }) => q.text).sort()).toEqual(["First wave", "Second wave"]);
    expect((await upload("x", "bank.txt")).status).toBe(400);
  });
});

describe("a test from building to ranks", () => {
  let testId: string;
  let q: string[];
  let paper: { _id: string; type: string }[];

  it("drafts a custom test on the institute, publishes it, and shows it on the institute's site", async () => {
    q = await writeQuestions(t, creator.access_token, [
      single("Q1", 0),
      single("Q2", 1),
      single("Q3", 2),
      numerical("Q4: $g$ to two decimals", 9.81),
    ]);
    const created = await json(
      await postJson(
        t,
        "/api/tests",
        {
          title: "Kinematics chapter test",
          businessId: center.id,
          pattern: "custom",
          durationMinutes: 30,
          price: 0,
          sections: [{ name: "Physics", questions: q }],
        },
        { headers: bearer(creator.access_token) },
      ),
    );
    expect(created.status).toBe(201);
    testId = created.body.test._id;
    expect(created.body.test).toMatchObject({ status: "draft", questionCount: 4, maxScore: 16, durationMinutes: 30 });
    // A draft is on no list of the site.
    const site = await json(await t.request("/api/tests", { host: host() }));
    expect(site.body.tests.map((x: { _id: string }) => x._id)).not.toContain(testId);

    const published = await json(
      await postJson(t, `/api/tests/${testId}/publish`, {}, { headers: bearer(creator.access_token) }),
    );
    expect(published.body.test.status).toBe("published");
    const listed = await json(await t.request("/api/tests", { host: host() }));
    expect(listed.body.tests.find((x: { _id: string }) => x._id === testId)).toMatchObject({
      title: "Kinematics chapter test",
      entitled: true,
    });
    // Another institute's site does not list it.
    const other = await createCenter(t, null, { instituteName: "Elsewhere" });
    const elsewhere = await json(await t.request("/api/tests", { host: other.customDomain! }));
    expect(elsewhere.body.tests.map((x: { _id: string }) => x._id)).not.toContain(testId);
  });

  it("starts a sitting with no keys in it, and resumes the same sitting on a second start", async () => {
    const started = await json(
      await postJson(
        t,
        `/api/tests/${testId}/attempts`,
        {},
        { headers: bearer(students[0].access_token), host: host() },
      ),
    );
    expect(started.status).toBe(200);
    const attempt = started.body.attempt;
    paper = attempt.sections[0].questions;
    expect(paper).toHaveLength(4);
    expect(JSON.stringify(attempt)).not.toMatch(/"answer":\s*\d|solution|tolerance/);
    const left = new Date(attempt.deadline).getTime() - new Date(attempt.serverNow).getTime();
    expect(left).toBeGreaterThan(29 * 60_000);
    expect(left).toBeLessThanOrEqual(30 * 60_000);
    const again = await json(
      await postJson(
        t,
        `/api/tests/${testId}/attempts`,
        {},
        { headers: bearer(students[0].access_token), host: host() },
      ),
    );
    expect(again.body.attempt._id).toBe(attempt._id);
  });

  it("keeps the newest save by sequence number, refuses answers that do not fit, and 409s after the deadline", async () => {
    const start = await json(
      await postJson(
        t,
        `/api/tests/${testId}/attempts`,
        {},
        { headers: bearer(students[0].access_token), host: host() },
      ),
    );
    const id = start.body.attempt._id;
    const save = (qid: string, body: unknown) =>
      put(`/api/attempts/${id}/responses/${qid}`, students[0].access_token, body, host());
    expect(await json(await save(paper[0]._id, { answer: 0, seq: 2 }))).toMatchObject({
      status: 200,
      body: { saved: true, seq: 2, deadline: start.body.attempt.deadline },
    });
    // A late save with an older number is ignored: the newer answer stays.
    expect((await json(await save(paper[0]._id, { answer: 3, seq: 1 }))).body).toMatchObject({ saved: false, seq: 2 });
    expect((await save(paper[1]._id, { answer: 7, seq: 3 })).status).toBe(400);
    expect((await save(paper[3]._id, { answer: [1], seq: 4 })).status).toBe(400);
    await save(paper[1]._id, { answer: 1, markedForReview: true, seq: 5 });
    await save(paper[3]._id, { answer: "9.812", seq: 6 });
    // Another student cannot touch this attempt.
    const stranger = await put(
      `/api/attempts/${id}/responses/${paper[2]._id}`,
      students[1].access_token,
      { answer: 1, seq: 9 },
      host(),
    );
    expect(stranger.status).toBe(404);

    const resumed = await json(
      await t.request(`/api/attempts/${id}`, { headers: as(students[0].access_token), host: host() }),
    );
    expect(resumed.body.attempt.responses[paper[0]._id]).toEqual({ answer: 0, markedForReview: false, visited: true });
    expect(resumed.body.attempt.lastSeq).toBe(6);

    await t.database.db
      .update(attempts)
      .set({ deadline: new Date(Date.now() - 1000) })
      .where(eq(attempts.id, id));
    const late = await json(await save(paper[2]._id, { answer: 2, seq: 7 }));
    expect(late.status).toBe(409);
    expect(late.body.message).toBe("Time is up: this attempt has been submitted");
  });

  it("the clock submits an attempt past its deadline with no browser open, and a submit after it gives the same result", async () => {
    const [row] = await t.database.db.select().from(attempts).where(eq(attempts.studentId, students[0].user._id));
    const swept = await t.services.attempts.submitDue();
    expect(swept.submitted).toBeGreaterThanOrEqual(1);
    const [closed] = await t.database.db.select().from(attempts).where(eq(attempts.id, row.id));
    expect(closed.submittedBy).toBe("clock");
    // Q1 right (+4), Q2 right and marked (evaluated, +4), Q3 unanswered (0), Q4 9.812 → 9.81 right (+4).
    expect(closed.result?.questions.map((x) => x.outcome)).toEqual(["correct", "correct", "unanswered", "correct"]);
    expect(closed.result?.score).toBe(12);
    const first = await json(
      await postJson(
        t,
        `/api/attempts/${row.id}/submit`,
        {},
        { headers: bearer(students[0].access_token), host: host() },
      ),
    );
    const second = await json(
      await postJson(
        t,
        `/api/attempts/${row.id}/submit`,
        {},
        { headers: bearer(students[0].access_token), host: host() },
      ),
    );
    expect(first.body.result.score).toBe(12);
    expect(second.body).toEqual(first.body);
  });

  it("ranks ties 1, 2, 2, 4 with NTA percentiles among the takers, and re-scores everyone when a key changes", async () => {
    const sit = async (student: (typeof students)[number], answers: (number | string | null)[]) =>
      (await sitTest(t, student.access_token, testId, answers, { host: host(), paper }))._id;
    // Asha 12 (above). Bala 8 (two right, one wrong: 4+4-1 = 7)… make them tie exactly:
    const bala = await sit(students[1], [0, 1, null, null]); // 8
    const chitra = await sit(students[2], [0, 1, null, null]); // 8
    const dev = await sit(students[3], [1, null, null, null]); // -1
    const result = async (student: (typeof students)[number], id: string) =>
      (await json(await t.request(`/api/attempts/${id}/result`, { headers: as(student.access_token), host: host() })))
        .body;
    const balaResult = await result(students[1], bala);
    expect(balaResult).toMatchObject({ score: 8, maxScore: 16, rank: 2, takers: 4, percentile: 75 });
    expect((await result(students[2], chitra)).rank).toBe(2);
    const devResult = await result(students[3], dev);
    expect(devResult).toMatchObject({ score: -1, rank: 4, percentile: 25, negative: 1 });
    expect(devResult.questions[0]).toMatchObject({
      answer: 1,
      correctAnswer: 0,
      marks: -1,
      solution: "The answer is option 1.",
    });

    // The institute finds Q1's key was wrong: option 2 (index 1) is right. Everyone is scored again.
    const policy = await json(
      await put(`/api/tests/${testId}/questions/${paper[0]._id}/policy`, creator.access_token, {
        kind: "changed",
        answer: 1,
      }),
    );
    expect(policy.status).toBe(200);
    const devAfter = await result(students[3], dev);
    // Asha 12 → 7, Dev −1 → 4, Bala and Chitra 8 → 3.
    expect(devAfter).toMatchObject({ score: 4, rank: 2 });
    const balaAfter = await result(students[1], bala);
    expect(balaAfter).toMatchObject({ score: 3, rank: 3, percentile: 50 });

    const analysis = await json(
      await t.request(`/api/tests/${testId}/analysis`, { headers: as(creator.access_token) }),
    );
    expect(analysis.body.takers).toBe(4);
    expect(analysis.body.questions[0].options).toEqual([3, 1, 0, 0]);
    const csvBytes = new Uint8Array(
      await (
        await t.request(`/api/tests/${testId}/rank-list.csv`, { headers: as(creator.access_token) })
      ).arrayBuffer(),
    );
    expect([...csvBytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csvLines = new TextDecoder().decode(csvBytes).split("\r\n");
    expect(csvLines[0]).toBe("Rank,Name,E-mail,Score,Percentile,Submitted at,Submitted by");
    expect(csvLines[1]).toMatch(/^1,Asha,/);
    const stranger = await t.request(`/api/tests/${testId}/analysis`, { headers: as(otherCreator.access_token) });
    expect(stranger.status).toBe(404);
  });

  it("a paid test asks for payment (402, with the call that buys it) until the student has bought it", async () => {
    const [id] = await writeQuestions(t, creator.access_token, [single("Paid Q", 0)]);
    const { _id: paidId } = await publishTest(t, creator.access_token, {
      title: "Full mock",
      businessId: center.id,
      pattern: "custom",
      price: 199,
      sections: [{ name: "All", questions: [id] }],
    });
    const refused = await json(
      await postJson(
        t,
        `/api/tests/${paidId}/attempts`,
        {},
        { headers: bearer(students[1].access_token), host: host() },
      ),
    );
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe("Buy this test to take it");
    expect(refused.body.order).toEqual({ method: "POST", path: "/api/student/enroll", body: { contentId: paidId } });
    // Bought (the payment layer's own tests cover the order; here its outcome, the enrolment).
    await t.database.db.insert(enrollments).values({ studentId: students[1].user._id, contentId: paidId });
    const started = await postJson(
      t,
      `/api/tests/${paidId}/attempts`,
      {},
      { headers: bearer(students[1].access_token), host: host() },
    );
    expect(started.status).toBe(200);
  });

  it("a series bundles tests sold as one: bought once, each of its tests can be taken", async () => {
    const [id] = await writeQuestions(t, creator.access_token, [single("Series Q", 0)]);
    const make = async (title: string) =>
      (
        await publishTest(t, creator.access_token, {
          title,
          businessId: center.id,
          price: 99,
          sections: [{ name: "All", questions: [id] }],
        })
      )._id;
    const tests = [await make("Series mock 1"), await make("Series mock 2")];
    const made = await json(
      await postJson(
        t,
        "/api/series",
        { title: "Mock series", businessId: center.id, price: 149, tests },
        { headers: bearer(creator.access_token) },
      ),
    );
    expect(made.status).toBe(201);
    expect(made.body.series.tests.map((x: { title: string }) => x.title)).toEqual(["Series mock 1", "Series mock 2"]);
    const stranger = await postJson(
      t,
      "/api/series",
      { title: "Not mine", price: 0, tests },
      { headers: bearer(otherCreator.access_token) },
    );
    expect(stranger.status).toBe(400);

    const onSite = await json(await t.request("/api/series", { headers: as(students[3].access_token), host: host() }));
    expect(onSite.body.series.find((x: { _id: string }) => x._id === made.body.series._id)).toMatchObject({
      price: 149,
      enrolled: false,
    });
    const start = (testId: string) =>
      postJson(t, `/api/tests/${testId}/attempts`, {}, { headers: bearer(students[3].access_token), host: host() });
    expect((await start(tests[1])).status).toBe(402);
    await t.database.db
      .insert(enrollments)
      .values({ studentId: students[3].user._id, contentId: made.body.series._id });
    expect((await start(tests[1])).status).toBe(200);
    const listed = await json(await t.request("/api/tests", { headers: as(students[3].access_token), host: host() }));
    expect(listed.body.tests.find((x: { _id: string }) => x._id === tests[0]).entitled).toBe(true);
  });
});

describe("a draft changed and thrown away", () => {
  it("replaces a draft's settings and questions, keeps the copy of a question removed from the bank, and stops once published", async () => {
    const token = creator.access_token;
    const [kept, removed, added] = await writeQuestions(t, token, [
      single("Kept Q", 0),
      single("Removed Q", 1),
      single("Added Q", 2),
    ]);
    const draftBody = {
      title: "Optics draft",
      businessId: center.id,
      sections: [{ name: "Physics", questions: [kept, removed] }],
    };
    const created = await json(await postJson(t, "/api/tests", draftBody, { headers: bearer(token) }));
    const id = created.body.test._id as string;
    // The bank's copy goes; the draft still holds its own.
    const gone = await t.request(`/api/questions/${removed}`, { method: "DELETE", headers: bearer(token) });
    expect(gone.status).toBe(200);

    const edited = await json(
      await put(`/api/tests/${id}`, token, {
        title: "Optics chapter test",
        businessId: center.id,
        price: 49.5,
        durationMinutes: 45,
        sections: [
          { name: "Physics", questions: [removed, added] },
          { name: "Bonus", questions: [kept] },
        ],
      }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body.test).toMatchObject({
      title: "Optics chapter test",
      price: 49.5,
      durationMinutes: 45,
      status: "draft",
      questionCount: 3,
      sections: [
        { name: "Physics", questions: 2 },
        { name: "Bonus", questions: 1 },
      ],
    });
    const paper = await json(await t.request(`/api/tests/${id}/paper`, { headers: bearer(token) }));
    expect(paper.body.questions.map((x: { text: string; section: number }) => [x.section, x.text])).toEqual([
      [0, "Removed Q"],
      [0, "Added Q"],
      [1, "Kept Q"],
    ]);

    // A stranger cannot change it; a bad body changes nothing.
    expect((await put(`/api/tests/${id}`, otherCreator.access_token, draftBody)).status).toBe(404);
    const bad = await json(await put(`/api/tests/${id}`, token, { ...draftBody, title: "" }));
    expect(bad).toMatchObject({ status: 400, body: { error: "Title is required" } });
    expect((await json(await t.request(`/api/tests/${id}`, { headers: bearer(token) }))).body.test.title).toBe(
      "Optics chapter test",
    );

    expect((await postJson(t, `/api/tests/${id}/publish`, {}, { headers: bearer(token) })).status).toBe(200);
    const late = await json(await put(`/api/tests/${id}`, token, draftBody));
    expect(late).toMatchObject({
      status: 409,
      body: { error: "Only a draft can be changed this way; this test is already published" },
    });
    const discardPublished = await t.request(`/api/tests/${id}`, { method: "DELETE", headers: bearer(token) });
    expect(discardPublished.status).toBe(409);
  });

  it("discards a draft: gone from the team's list, and 404 after", async () => {
    const token = creator.access_token;
    const [question] = await writeQuestions(t, token, [single("Draft Q", 0)]);
    const created = await json(
      await postJson(
        t,
        "/api/tests",
        { title: "Scrap draft", sections: [{ name: "All", questions: [question] }] },
        { headers: bearer(token) },
      ),
    );
    const id = created.body.test._id as string;
    expect((await t.request(`/api/tests/${id}`, { method: "DELETE", headers: bearer(token) })).status).toBe(200);
    const list = await json(await t.request("/api/tests", { headers: bearer(token) }));
    expect(list.body.tests.map((x: { _id: string }) => x._id)).not.toContain(id);
    expect((await t.request(`/api/tests/${id}`, { headers: bearer(token) })).status).toBe(404);
    expect((await t.request(`/api/tests/${id}`, { method: "DELETE", headers: bearer(token) })).status).toBe(404);
  });
});

describe("the admins' figures", () => {
  it("count published tests, sittings and submitted sittings", async () => {
    const stats = await t.services.adminFeed.testStats();
    const [{ sittings, submitted }] = await t.database.db
      .select({
        sittings: sql<number>`count(*)::int`,
        submitted: sql<number>`count(*) filter (where ${attempts.submittedAt} is not null)::int`,
      })
      .from(attempts);
    expect(stats.attempts).toBe(sittings);
    expect(stats.submitted).toBe(submitted);
    expect(stats.published).toBeGreaterThanOrEqual(4);
  });
});

describe("results held back", () => {
  it("show no score in the list and no result until the institute releases them", async () => {
    const creatorToken = creator.access_token;
    const [id] = await writeQuestions(t, creatorToken, [single("Held Q", 0)]);
    const test = (await publishTest(t, creatorToken, {
      title: "Held results",
      businessId: center.id,
      resultRelease: "manual",
      sections: [{ name: "All", questions: [id] }],
    })) as { _id: string; sections: { counts: unknown }[]; hasHindi: boolean };
    const testId = test._id;
    expect(test.sections[0].counts).toEqual({ single: 1 });
    expect(test.hasHindi).toBe(false);
    const student = students[2];
    const start = await startSitting(t, student.access_token, testId, host());
    const attemptId = start._id;
    const question = start.sections[0].questions[0]._id;
    await put(`/api/attempts/${attemptId}/responses/${question}`, student.access_token, { answer: 0, seq: 1 }, host());
    const submitted = await json(
      await postJson(
        t,
        `/api/attempts/${attemptId}/submit`,
        {},
        { headers: bearer(student.access_token), host: host() },
      ),
    );
    expect(submitted.body).toEqual({ success: true, released: false, result: null, lateAnswers: [] });
    const listed = async () =>
      (await json(await t.request("/api/tests", { headers: as(student.access_token), host: host() }))).body.tests.find(
        (x: { _id: string }) => x._id === testId,
      );
    expect((await listed()).attempts[0].score).toBeNull();
    const held = await json(
      await t.request(`/api/attempts/${attemptId}/result`, { headers: as(student.access_token), host: host() }),
    );
    expect(held.status).toBe(409);
    expect(held.body.message).toBe("Your result will be shown when the institute releases it");

    await postJson(t, `/api/tests/${testId}/results/publish`, {}, { headers: bearer(creatorToken) });
    expect((await listed()).attempts[0].score).toBe(4);
    const out = await json(
      await t.request(`/api/attempts/${attemptId}/result`, { headers: as(student.access_token), host: host() }),
    );
    expect(out.body.score).toBe(4);

    // The taker is told once, with a link to the result on the institute's domain.
    await postJson(t, `/api/tests/${testId}/results/publish`, {}, { headers: bearer(creatorToken) });
    const told = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.template, "results-released"), eq(messages.recipient, student.user.email)));
    expect(told).toHaveLength(1);
    expect(told[0].subject).toMatch(/^Your result for .+ is out$/);
    expect(told[0].text).toContain(`https://${host()}/student/mock-tests/attempts/${attemptId}/result`);
  });
});

describe("building on an institute's domain", () => {
  it("puts the test on that institute, and refuses another institute's", async () => {
    const token = await loginOn(t, host(), creator.email);
    // On an institute's domain the bank is that institute's: the question goes there, and the test draws from it.
    const [id] = await writeQuestions(t, token, [single("Site Q", 0)], { host: host() });
    const body = { title: "Made on the site", sections: [{ name: "All", questions: [id] }] };
    const made = await json(await postJson(t, "/api/tests", body, { headers: bearer(token), host: host() }));
    expect(made.status).toBe(201);
    expect(made.body.test.businessId).toBe(center.id);
    const elsewhere = await createCenter(t, null, { instituteName: "Another" });
    const refused = await json(
      await postJson(t, "/api/tests", { ...body, businessId: elsewhere.id }, { headers: bearer(token), host: host() }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("On an institute's site, its tests and series belong to that institute");
  });
});
