import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { attemptEvents, attempts } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { joinTeam } from "../helpers/team.ts";

/**
 * Issue 38 §5: results by subject with the time spent on each, tie-breaks that are honoured in ranks
 * or refused in words (never dropped), and a sitting resumed at the question and language it was
 * left at.
 */

let t: TestApp;
let creator: Awaited<ReturnType<typeof register>>;
let students: Awaited<ReturnType<typeof register>>[];
let host: string;
let instituteId: string;

const json = async (res: Response) => ({ status: res.status, body: await res.json() });
const put = (path: string, token: string, body: unknown, on?: string) =>
  postJson(t, path, body, { method: "PUT", headers: bearer(token), host: on });

const single = (subject: string, text: string) => ({
  type: "single",
  text,
  options: ["$1$", "$2$", "$3$", "$4$"],
  answer: 0,
  tags: { subject, chapter: "Mixed", difficulty: "easy" },
});

let physics: string[];
let maths: string[];

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  creator = await register(t, "creator", { name: "Rahul Verma" });
  const center = await createCenter(t, null, { instituteName: "Sunrise Academy" });
  host = center.customDomain!;
  await joinTeam(t, center.id, creator.user._id);
  students = [];
  for (const name of ["Asha", "Bala", "Chitra", "Dev"]) students.push(await register(t, "student", { name, host }));
  const write = async (q: unknown) => {
    const res = await postJson(t, "/api/questions", q, { headers: bearer(creator.access_token) });
    expect(res.status).toBe(201);
    return (await res.json()).questions[0]._id as string;
  };
  physics = [];
  maths = [];
  for (const n of [1, 2, 3]) physics.push(await write(single("Physics", `P${n}`)));
  for (const n of [1, 2, 3]) maths.push(await write(single("Mathematics", `M${n}`)));
  instituteId = center.id;
});
afterAll(() => t.close());

const centerId = () => instituteId;

async function createTest(extra: Record<string, unknown>) {
  return json(
    await postJson(
      t,
      "/api/tests",
      {
        title: "Physics and Mathematics mock",
        businessId: centerId(),
        pattern: "custom",
        durationMinutes: 30,
        price: 0,
        sections: [
          { name: "Physics Section A", subject: "Physics", questions: physics },
          { name: "Mathematics Section A", questions: maths },
        ],
        ...extra,
      },
      { headers: bearer(creator.access_token) },
    ),
  );
}

async function publishedTest(extra: Record<string, unknown> = {}) {
  const created = await createTest(extra);
  expect(created.status).toBe(201);
  const id = created.body.test._id as string;
  expect((await postJson(t, `/api/tests/${id}/publish`, {}, { headers: bearer(creator.access_token) })).status).toBe(
    200,
  );
  return id;
}

async function paperOf(student: (typeof students)[number], testId: string) {
  const start = await json(
    await postJson(t, `/api/tests/${testId}/attempts`, {}, { headers: bearer(student.access_token), host }),
  );
  expect(start.status).toBe(200);
  return start.body.attempt as {
    _id: string;
    sections: { questions: { _id: string }[] }[];
    resume: { questionId: string | null; language: string | null };
  };
}

/** Sits the paper: answers by question index (0–2 Physics, 3–5 Mathematics), option 0 is right. */
async function sit(student: (typeof students)[number], testId: string, answers: (number | null)[]) {
  const attempt = await paperOf(student, testId);
  const ids = attempt.sections.flatMap((s) => s.questions.map((q) => q._id));
  let seq = 0;
  for (const [i, answer] of answers.entries())
    if (answer !== null)
      expect(
        (
          await put(
            `/api/attempts/${attempt._id}/responses/${ids[i]}`,
            student.access_token,
            { answer, seq: ++seq },
            host,
          )
        ).status,
      ).toBe(200);
  const done = await postJson(
    t,
    `/api/attempts/${attempt._id}/submit`,
    {},
    { headers: bearer(student.access_token), host },
  );
  expect(done.status).toBe(200);
  return attempt._id;
}

const resultOf = async (student: (typeof students)[number], attemptId: string) =>
  (await json(await t.request(`/api/attempts/${attemptId}/result`, { headers: bearer(student.access_token), host })))
    .body;

describe("tie-breaks", () => {
  it("refuses a tie-break the product does not have, in its words, and changes nothing", async () => {
    const refused = await createTest({ tieBreaks: ["fewer-wrong", "date-of-birth"] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      'Ranks cannot be tie-broken by "date-of-birth". The tie-breaks are "fewer-wrong" (fewer wrong answers), ' +
        '"fewer-negative" (fewer marks lost to negative marking), "more-correct" (more correct answers), ' +
        '"subject-order" (higher marks subject by subject, in the paper\'s order), "less-time" (less time taken), ' +
        '"earlier-submission" (earlier submission), {"subjectOrder": ["Mathematics", "Physics", "Chemistry"]} ' +
        "(higher marks subject by subject, in the order named).",
    );
    const notASubject = await createTest({ tieBreaks: [{ subjectOrder: ["Biology"] }] });
    expect(notASubject.status).toBe(400);
    expect(notASubject.body.error).toBe(
      '"Biology" is not a subject of this test; its subjects are Physics, Mathematics',
    );
    const twice = await createTest({ tieBreaks: ["less-time", "less-time"] });
    expect(twice.body.error).toBe("A tie-break is listed twice");
    const list = await json(await t.request("/api/tests", { headers: bearer(creator.access_token) }));
    expect(list.body.tests).toEqual([]);

    const kept = await createTest({ tieBreaks: ["fewer-wrong", { subjectOrder: ["Mathematics", "Physics"] }] });
    expect(kept.status).toBe(201);
    expect(kept.body.test.tieBreaks).toEqual(["fewer-wrong", { subjectOrder: ["Mathematics", "Physics"] }]);
    expect(kept.body.test.sections.map((s: { subject: string | null }) => s.subject)).toEqual(["Physics", null]);
    const changed = await json(
      await put(`/api/tests/${kept.body.test._id}/tie-breaks`, creator.access_token, { tieBreaks: ["by-age"] }),
    );
    expect(changed.status).toBe(400);
    expect(changed.body.error).toMatch(/^Ranks cannot be tie-broken by "by-age"\. The tie-breaks are /);
  });

  it("are honoured in ranks, live and once ranked, while percentiles stay on the score alone", async () => {
    // Asha 4 with four wrong (8 in Physics, −3 in Mathematics); Bala 4 in Mathematics; Chitra 4 in Physics; Dev 0.
    const testId = await publishedTest({ tieBreaks: ["fewer-wrong", { subjectOrder: ["Mathematics", "Physics"] }] });
    const asha = await sit(students[0], testId, [0, 0, 1, 1, 1, 1]);
    const bala = await sit(students[1], testId, [null, null, null, 0, null, null]);
    const chitra = await sit(students[2], testId, [0, null, null, null, null, null]);
    const dev = await sit(students[3], testId, [null, null, null, null, null, null]);
    const ranks = async () =>
      Promise.all(
        [asha, bala, chitra, dev].map(async (id, i) => {
          const r = await resultOf(students[i], id);
          return [r.score, r.rank, r.percentile];
        }),
      );
    expect(await ranks()).toEqual([
      [4, 3, 100],
      [4, 1, 100],
      [4, 2, 100],
      [0, 4, 25],
    ]);
    const analysis = await json(
      await t.request(`/api/tests/${testId}/analysis`, { headers: bearer(creator.access_token) }),
    );
    expect(analysis.body.rankList.map((r: { name: string; rank: number }) => [r.name, r.rank])).toEqual([
      ["Bala", 1],
      ["Chitra", 2],
      ["Asha", 3],
      ["Dev", 4],
    ]);

    // The paper's own order (Physics first) and, once the window and its grace period for late
    // answers (10 minutes) have passed, ranks stored for everyone.
    expect(
      (await put(`/api/tests/${testId}/tie-breaks`, creator.access_token, { tieBreaks: ["subject-order"] })).status,
    ).toBe(200);
    await t.database.db.execute(
      sql`update mock_tests set closes_at = now() - interval '11 minutes' where content_id = ${testId}`,
    );
    await t.services.attempts.submitDue();
    expect(await ranks()).toEqual([
      [4, 1, 100],
      [4, 3, 100],
      [4, 2, 100],
      [0, 4, 25],
    ]);
    const [stored] = await t.database.db.select({ rank: attempts.rank }).from(attempts).where(eq(attempts.id, asha));
    expect(stored.rank).toBe(1);

    // Less time taken: the server's own start and submission times decide.
    await t.database.db.execute(
      sql`update attempts set started_at = submitted_at - (case when id = ${chitra} then interval '5 minutes' else interval '20 minutes' end) where test_id = ${testId}`,
    );
    expect(
      (await put(`/api/tests/${testId}/tie-breaks`, creator.access_token, { tieBreaks: ["less-time"] })).status,
    ).toBe(200);
    const after = await ranks();
    expect(after.map((r) => r[1])).toEqual([2, 2, 1, 4]);

    // No tie-breaks: the three share rank 1.
    expect((await put(`/api/tests/${testId}/tie-breaks`, creator.access_token, { tieBreaks: [] })).status).toBe(200);
    expect((await ranks()).map((r) => r[1])).toEqual([1, 1, 1, 4]);
  });
});

describe("a result by subject", () => {
  it("adds sections of one subject together, splits a mixed one by its questions' subjects, and times each", async () => {
    const created = await json(
      await postJson(
        t,
        "/api/tests",
        {
          title: "Subjects mock",
          businessId: centerId(),
          pattern: "custom",
          durationMinutes: 30,
          price: 0,
          sections: [
            { name: "Physics Section A", subject: "Physics", questions: physics.slice(0, 2) },
            { name: "Physics Section B", subject: "Physics", questions: [physics[2]] },
            // A section of both subjects: each question counts for its own subject.
            { name: "Mixed", questions: maths },
          ],
        },
        { headers: bearer(creator.access_token) },
      ),
    );
    expect(created.status).toBe(201);
    const testId = created.body.test._id as string;
    await postJson(t, `/api/tests/${testId}/publish`, {}, { headers: bearer(creator.access_token) });
    const student = students[0];
    const attempt = await paperOf(student, testId);
    const ids = attempt.sections.flatMap((s) => s.questions.map((q) => q._id));
    let seq = 0;
    const answer = (i: number, value: number) =>
      put(
        `/api/attempts/${attempt._id}/responses/${ids[i]}`,
        student.access_token,
        { answer: value, seq: ++seq },
        host,
      );
    const visit = (i: number) =>
      postJson(
        t,
        `/api/attempts/${attempt._id}/events`,
        { type: "visited", questionId: ids[i], seq: ++seq },
        { headers: bearer(student.access_token), host },
      );
    await visit(0);
    await answer(0, 0); // Physics right
    await visit(2);
    await answer(2, 1); // Physics wrong
    await visit(3);
    await answer(3, 0); // Mathematics right
    // Server times of the visits, set as they would have been: 60 s on P1, 120 s on P3, the rest on M1.
    const now = Date.now();
    const at = (msAgo: number) => new Date(now - msAgo);
    const visits = await t.database.db
      .select({ id: attemptEvents.id, questionId: attemptEvents.questionId })
      .from(attemptEvents)
      .where(and(eq(attemptEvents.attemptId, attempt._id), eq(attemptEvents.type, "visited")));
    for (const [questionIndex, msAgo] of [
      [0, 300_000],
      [2, 240_000],
      [3, 120_000],
    ] as const)
      for (const v of visits.filter((e) => e.questionId === ids[questionIndex]))
        await t.database.db
          .update(attemptEvents)
          .set({ at: at(msAgo) })
          .where(eq(attemptEvents.id, v.id));
    await t.database.db
      .update(attemptEvents)
      .set({ at: at(300_000) })
      .where(and(eq(attemptEvents.attemptId, attempt._id), eq(attemptEvents.type, "opened")));
    await postJson(t, `/api/attempts/${attempt._id}/submit`, {}, { headers: bearer(student.access_token), host });

    const result = await resultOf(student, attempt._id);
    expect(result.score).toBe(7);
    expect(result.subjects).toEqual([
      {
        name: "Physics",
        score: 3,
        maxScore: 12,
        correct: 1,
        partial: 0,
        incorrect: 1,
        unattempted: 1,
        negative: 1,
        seconds: 180,
        sections: ["Physics Section A", "Physics Section B"],
      },
      {
        name: "Mathematics",
        score: 4,
        maxScore: 12,
        correct: 1,
        partial: 0,
        incorrect: 0,
        unattempted: 2,
        negative: 0,
        seconds: 120,
        sections: ["Mixed"],
      },
    ]);
    expect(
      result.sections.map((s: { name: string; score: number; seconds: number }) => [s.name, s.score, s.seconds]),
    ).toEqual([
      ["Physics Section A", 4, 60],
      ["Physics Section B", -1, 120],
      ["Mixed", 4, 120],
    ]);
    // The subject totals add up to the score.
    expect(result.subjects.reduce((sum: number, s: { score: number }) => sum + s.score, 0)).toBe(result.score);
  });
});

describe("a sitting resumed", () => {
  it("returns to the question last shown and the language last chosen, on any device", async () => {
    const testId = await publishedTest();
    const student = students[1];
    const first = await paperOf(student, testId);
    expect(first.resume).toEqual({ questionId: null, language: null });
    const ids = first.sections.flatMap((s) => s.questions.map((q) => q._id));
    const events = await postJson(
      t,
      `/api/attempts/${first._id}/events`,
      {
        events: [
          { type: "language", language: "hi", seq: 1 },
          { type: "visited", questionId: ids[1], seq: 2 },
          { type: "section-changed", section: "Mathematics Section A", seq: 3 },
          { type: "visited", questionId: ids[4], seq: 4 },
        ],
      },
      { headers: bearer(student.access_token), host },
    );
    expect(events.status).toBe(204);
    // Starting again (a reload, or another device) gives the same sitting, where it was left.
    const again = await paperOf(student, testId);
    expect(again._id).toBe(first._id);
    expect(again.resume).toEqual({ questionId: ids[4], language: "hi" });

    const english = await postJson(
      t,
      `/api/attempts/${first._id}/events`,
      { type: "language", language: "en", seq: 5 },
      { headers: bearer(student.access_token), host },
    );
    expect(english.status).toBe(204);
    expect((await paperOf(student, testId)).resume).toEqual({ questionId: ids[4], language: "en" });

    const bad = await json(
      await postJson(
        t,
        `/api/attempts/${first._id}/events`,
        { type: "language", seq: 6 },
        { headers: bearer(student.access_token), host },
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('A "language" event names the language: "en" or "hi"');
    const tamil = await json(
      await postJson(
        t,
        `/api/attempts/${first._id}/events`,
        { type: "language", language: "ta", seq: 6 },
        { headers: bearer(student.access_token), host },
      ),
    );
    expect(tamil.status).toBe(400);
    expect(tamil.body.error).toBe('Language must be "en" or "hi"');
  });
});
