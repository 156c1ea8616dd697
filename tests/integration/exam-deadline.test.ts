import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import {
  attemptEvents,
  attemptResponses,
  attempts,
  centers,
  lateAnswers,
  mockTests,
} from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { publishTest, sit, startSitting, writeQuestions } from "../helpers/sittings.ts";
import { joinTeam } from "../helpers/team.ts";

/**
 * Issue 38 §2 and §3: answers made before the deadline that arrive after it, and extra time that
 * reaches an open screen. A sitting is moved back in time (its start, deadline, saves and events
 * together) instead of waiting for a real deadline.
 */

let t: TestApp;
let creator: Awaited<ReturnType<typeof register>>;
let owner: Awaited<ReturnType<typeof register>>;
let center: { id: string; customDomain: string | null };
let testId: string;
let paper: { _id: string }[];
const host = () => center.customDomain!;
const TIME_UP = "Time is up: this attempt has been submitted";

const json = async (res: Response) => ({ status: res.status, body: await res.json() });
const single = (text: string, answer: number) => ({
  type: "single",
  text,
  options: ["$1$", "$2$", "$3$", "$4$"],
  answer,
  tags: { subject: "Physics", chapter: "Kinematics", difficulty: "easy" },
});

async function student(name: string) {
  return register(t, "student", { name, host: host() });
}

const start = (token: string) => startSitting(t, token, testId, host());

const save = (token: string, attemptId: string, questionId: string, body: object) =>
  postJson(t, `/api/attempts/${attemptId}/responses/${questionId}`, body, {
    method: "PUT",
    headers: bearer(token),
    host: host(),
  });

const submit = (token: string, attemptId: string, body?: object) =>
  postJson(t, `/api/attempts/${attemptId}/submit`, body ?? {}, { headers: bearer(token), host: host() });

const result = async (token: string, attemptId: string) =>
  json(await t.request(`/api/attempts/${attemptId}/result`, { headers: bearer(token), host: host() }));

/** Moves a whole sitting `ms` into the past: its start, deadline, saves and events. */
async function shiftBack(attemptId: string, ms: number) {
  const by = sql`make_interval(secs => ${ms / 1000})`;
  const db = t.database.db;
  await db
    .update(attempts)
    .set({ startedAt: sql`${attempts.startedAt} - ${by}`, deadline: sql`${attempts.deadline} - ${by}` })
    .where(eq(attempts.id, attemptId));
  await db
    .update(attemptResponses)
    .set({
      savedAt: sql`${attemptResponses.savedAt} - ${by}`,
      answeredAt: sql`${attemptResponses.answeredAt} - ${by}`,
    })
    .where(eq(attemptResponses.attemptId, attemptId));
  await db
    .update(attemptEvents)
    .set({ at: sql`${attemptEvents.at} - ${by}` })
    .where(eq(attemptEvents.attemptId, attemptId));
}

/** A sitting with question 1 answered right in time, whose deadline passed `ago` ms ago, closed by the clock. */
async function closedSitting(name: string, ago: number) {
  const s = await student(name);
  const attempt = await sit(t, s.access_token, testId, [0], { host: host(), paper, submit: false });
  await shiftBack(attempt._id, 30 * 60_000 + ago);
  await t.services.attempts.submitDue();
  const [row] = await t.database.db.select().from(attempts).where(eq(attempts.id, attempt._id));
  expect(row.submittedBy).toBe("clock");
  return { token: s.access_token, id: attempt._id, deadline: row.deadline, startedAt: row.startedAt };
}

const setPolicy = (graceMinutes: number, policy: string, token = owner.access_token) =>
  postJson(
    t,
    `/api/businesses/${center.id}/late-answers`,
    { graceMinutes, policy },
    {
      method: "PUT",
      headers: bearer(token),
    },
  );

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  creator = await register(t, "creator", { name: "Rahul Verma" });
  owner = await register(t, "business", { name: "Meera Owner" });
  center = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy" });
  await joinTeam(t, center.id, creator.user._id);
  const ids = await writeQuestions(
    t,
    creator.access_token,
    [0, 1, 2, 3].map((answer, i) => single(`Q${i + 1}`, answer)),
    { bank: center.id },
  );
  testId = (
    await publishTest(t, creator.access_token, {
      title: "Deadline test",
      businessId: center.id,
      pattern: "custom",
      durationMinutes: 30,
      price: 0,
      attemptsAllowed: 20,
      sections: [{ name: "Physics", questions: ids }],
    })
  )._id;
  const s = await student("Probe");
  const attempt = await start(s.access_token);
  paper = (
    await json(await t.request(`/api/attempts/${attempt._id}`, { headers: bearer(s.access_token), host: host() }))
  ).body.attempt.sections[0].questions;
});
afterAll(() => t.close());

describe("extra time reaches the open screen (issue 38 §3)", () => {
  it("the next save's answer and the clock carry the deadline with the minutes granted", async () => {
    const s = await student("Asha");
    const attempt = await start(s.access_token);
    const first = await json(await save(s.access_token, attempt._id, paper[0]._id, { answer: 0, seq: 1 }));
    expect(first.body).toMatchObject({ saved: true, seq: 1, deadline: attempt.deadline });
    expect(Date.parse(first.body.serverNow)).toBeGreaterThanOrEqual(Date.parse(attempt.serverNow));

    const granted = await json(
      await postJson(
        t,
        `/api/attempts/${attempt._id}/extra-time`,
        { minutes: 3 },
        {
          headers: bearer(creator.access_token),
        },
      ),
    );
    expect(granted.status).toBe(200);
    const later = new Date(Date.parse(attempt.deadline) + 3 * 60_000).toISOString();
    expect(granted.body.deadline).toBe(later);

    const next = await json(await save(s.access_token, attempt._id, paper[1]._id, { answer: 1, seq: 2 }));
    expect(next.body).toMatchObject({ saved: true, seq: 2, deadline: later });
    const clock = await json(
      await t.request(`/api/attempts/${attempt._id}/clock`, { headers: bearer(s.access_token), host: host() }),
    );
    expect(clock.status).toBe(200);
    expect(clock.body).toMatchObject({ deadline: later, status: "in-progress" });
    expect(Math.abs(Date.parse(clock.body.serverNow) - Date.now())).toBeLessThan(5_000);
    // Another student's sitting is not found, never shown.
    const other = await student("Nosy");
    expect(
      (await t.request(`/api/attempts/${attempt._id}/clock`, { headers: bearer(other.access_token), host: host() }))
        .status,
    ).toBe(404);
  });

  it("refuses a clock submit before the server's deadline with the deadline, takes the student's own", async () => {
    const s = await student("Bala");
    const attempt = await start(s.access_token);
    // The screen's clock thought 3 minutes were left 3 minutes ago: it submits at its zero.
    const early = await json(await submit(s.access_token, attempt._id, { by: "clock" }));
    expect(early.status).toBe(409);
    expect(early.body.message).toBe("Time is not up yet: the test goes on until its deadline");
    expect(early.body.deadline).toBe(attempt.deadline);
    expect(Date.parse(early.body.serverNow)).toBeLessThanOrEqual(Date.now());
    const [open] = await t.database.db.select().from(attempts).where(eq(attempts.id, attempt._id));
    expect(open.submittedAt).toBeNull();
    // Within the tolerance (a screen's clock a second fast), the clock's submit is taken.
    await t.database.db
      .update(attempts)
      .set({ deadline: new Date(Date.now() + 1_000) })
      .where(eq(attempts.id, attempt._id));
    expect((await submit(s.access_token, attempt._id, { by: "clock" })).status).toBe(200);

    const own = await student("Chitra");
    const sitting = await start(own.access_token);
    const yes = await json(await submit(own.access_token, sitting._id, { by: "student" }));
    expect(yes.status).toBe(200);
    expect(yes.body.success).toBe(true);
    const bad = await json(await submit(own.access_token, sitting._id, { by: "browser" }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Submitted by must be "student" or "clock"');
  });
});

describe("answers made in time that arrive late (issue 38 §2)", () => {
  it("counts an answer made before the deadline that arrives within the grace period, and re-scores the closed sitting", async () => {
    const sitting = await closedSitting("Dev", 60_000);
    const before = await result(sitting.token, sitting.id);
    expect(before.body.score).toBe(4);
    const made = new Date(sitting.deadline.getTime() - 20_000).toISOString();
    const late = await json(
      await save(sitting.token, sitting.id, paper[1]._id, { answer: 1, seq: 2, answeredAt: made }),
    );
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ saved: true, late: { decision: "counted", reason: "in-time" } });
    expect(late.body.late.message).toMatch(
      /^Made at .+, before time was up; reached the server at .+, after time was up: counted\.$/,
    );

    const after = await result(sitting.token, sitting.id);
    expect(after.body.score).toBe(8);
    expect(after.body.lateAnswers).toEqual([
      expect.objectContaining({ questionNumber: 2, decision: "counted", reason: "in-time", answeredAt: made }),
    ]);
    expect(after.body.lateAnswers[0].text).toBe(late.body.late.message);
    // Submitting again (the screen's own submit after it reconnects) gives the same result and the note.
    const again = await json(await submit(sitting.token, sitting.id, { by: "clock" }));
    expect(again.body.result.score).toBe(8);
    expect(again.body.lateAnswers).toHaveLength(1);

    const analysis = await json(
      await t.request(`/api/tests/${testId}/analysis`, { headers: bearer(creator.access_token) }),
    );
    expect(analysis.body.lateAnswers).toContainEqual(
      expect.objectContaining({ attemptId: sitting.id, name: "Dev", questionNumber: 2, decision: "counted" }),
    );
  });

  it("holds it for review when the institute says so, and counts it once the institute decides", async () => {
    expect((await json(await setPolicy(10, "review"))).body).toEqual({
      success: true,
      graceMinutes: 10,
      policy: "review",
    });
    const sitting = await closedSitting("Esha", 2 * 60_000);
    const made = new Date(sitting.deadline.getTime() - 5_000).toISOString();
    const late = await json(
      await save(sitting.token, sitting.id, paper[2]._id, { answer: 2, seq: 2, answeredAt: made }),
    );
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ saved: false, late: { decision: "held", reason: "in-time" } });
    let shown = await result(sitting.token, sitting.id);
    expect(shown.body.score).toBe(4);
    expect(shown.body.lateAnswers[0].text).toMatch(
      /: held for the institute's review, not counted until it decides\.$/,
    );
    const held = shown.body.lateAnswers[0]._id;

    const review = (decision: string, token = creator.access_token, on?: string) =>
      postJson(
        t,
        `/api/tests/${testId}/late-answers/${held}`,
        { decision },
        { method: "PUT", headers: bearer(token), host: on },
      );
    // The student cannot decide it.
    expect((await review("count", sitting.token, host())).status).toBe(403);
    expect((await json(await review("maybe"))).body.message).toBe('The decision must be "count" or "not-count"');
    const decided = await json(await review("count"));
    expect(decided.body.lateAnswer).toMatchObject({ decision: "counted", reason: "reviewed", questionNumber: 3 });
    shown = await result(sitting.token, sitting.id);
    expect(shown.body.score).toBe(8);
    expect(shown.body.lateAnswers[0].text).toMatch(/: counted after the institute's review\.$/);
    const twice = await json(await review("not-count"));
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe("This late answer has already been decided");
  });

  it("does not count it when the institute says so, and says why", async () => {
    await setPolicy(10, "ignore");
    const sitting = await closedSitting("Farah", 60_000);
    const made = new Date(sitting.deadline.getTime() - 5_000).toISOString();
    const late = await json(
      await save(sitting.token, sitting.id, paper[1]._id, { answer: 1, seq: 2, answeredAt: made }),
    );
    expect(late.body).toMatchObject({ saved: false, late: { decision: "not-counted", reason: "policy" } });
    const shown = await result(sitting.token, sitting.id);
    expect(shown.body.score).toBe(4);
    expect(shown.body.lateAnswers[0].text).toMatch(
      /: not counted, as this institute does not count answers that arrive after time is up\.$/,
    );
    await setPolicy(10, "count");
  });

  it("refuses times that cannot be true (422), an answer made after the deadline and one without a time (409), recording each", async () => {
    const sitting = await closedSitting("Gita", 60_000);
    const at = (ms: number) => new Date(ms).toISOString();
    const future = await json(
      await save(sitting.token, sitting.id, paper[1]._id, { answer: 1, seq: 2, answeredAt: at(Date.now() + 60_000) }),
    );
    expect(future.status).toBe(422);
    expect(future.body.late).toMatchObject({ decision: "refused", reason: "in-future" });
    expect(future.body.message).toMatch(
      /which is later than it reached the server: the time cannot be right, so it was not counted\.$/,
    );

    const early = await json(
      await save(sitting.token, sitting.id, paper[1]._id, {
        answer: 1,
        seq: 3,
        answeredAt: at(sitting.startedAt.getTime() - 60_000),
      }),
    );
    expect(early.status).toBe(422);
    expect(early.body.late.reason).toBe("before-start");

    // Question 1 was saved (seq 1) about 31 minutes ago at the start; an answer numbered after it cannot be older.
    await t.database.db
      .update(attemptResponses)
      .set({ answeredAt: new Date(sitting.deadline.getTime() - 60_000) })
      .where(eq(attemptResponses.attemptId, sitting.id));
    const backwards = await json(
      await save(sitting.token, sitting.id, paper[2]._id, {
        answer: 2,
        seq: 4,
        answeredAt: at(sitting.deadline.getTime() - 10 * 60_000),
      }),
    );
    expect(backwards.status).toBe(422);
    expect(backwards.body.late.reason).toBe("out-of-order");

    const afterDeadline = await json(
      await save(sitting.token, sitting.id, paper[3]._id, {
        answer: 3,
        seq: 5,
        answeredAt: at(sitting.deadline.getTime() + 10_000),
      }),
    );
    expect(afterDeadline.status).toBe(409);
    expect(afterDeadline.body.message).toBe(TIME_UP);
    expect(afterDeadline.body.late).toMatchObject({ decision: "refused", reason: "made-late" });
    expect(afterDeadline.body.late.message).toMatch(/^Made at .+, after time was up: not counted\.$/);

    const garbled = await json(
      await save(sitting.token, sitting.id, paper[2]._id, { answer: 2, seq: 6, answeredAt: "soon" }),
    );
    expect(garbled.status).toBe(400);
    expect(garbled.body.message).toContain("answeredAt must be an ISO date and time, e.g. 2026-12-01T09:00:00.000Z");
    const unstamped = await json(await save(sitting.token, sitting.id, paper[2]._id, { answer: 2, seq: 6 }));
    expect(unstamped.status).toBe(409);
    expect(unstamped.body.late.reason).toBe("unstamped");

    const shown = await result(sitting.token, sitting.id);
    expect(shown.body.score).toBe(4);
    expect(
      shown.body.lateAnswers.map((l: { questionNumber: number; reason: string; decision: string }) => [
        l.questionNumber,
        l.decision,
        l.reason,
      ]),
    ).toEqual([
      [2, "refused", "before-start"],
      [3, "refused", "unstamped"],
      [4, "refused", "made-late"],
    ]);
  });

  it("refuses an answer made in time that arrives after the grace period, with the reason recorded", async () => {
    const sitting = await closedSitting("Hari", 11 * 60_000);
    const made = new Date(sitting.deadline.getTime() - 30_000).toISOString();
    const late = await json(
      await save(sitting.token, sitting.id, paper[1]._id, { answer: 1, seq: 2, answeredAt: made }),
    );
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(TIME_UP);
    expect(late.body.late).toMatchObject({ decision: "refused", reason: "after-grace" });
    expect(late.body.late.message).toMatch(
      /^Made at .+, reached the server at .+, after time was up and after the 10 minutes allowed for answers made offline: not counted\.$/,
    );
    const [recorded] = await t.database.db.select().from(lateAnswers).where(eq(lateAnswers.attemptId, sitting.id));
    expect(recorded).toMatchObject({ decision: "refused", reason: "after-grace", graceMinutes: 10, seq: 2 });
    expect(recorded.answeredAt?.toISOString()).toBe(made);
    expect((await result(sitting.token, sitting.id)).body.score).toBe(4);
    // A longer grace period set by the institute takes the next one.
    await setPolicy(15, "count");
    const next = await json(
      await save(sitting.token, sitting.id, paper[2]._id, { answer: 2, seq: 3, answeredAt: made }),
    );
    expect(next.body.late).toMatchObject({ decision: "counted" });
    await setPolicy(10, "count");
  });

  it("takes the institute's settings only from its team, in its words", async () => {
    const current = await json(
      await t.request(`/api/businesses/${center.id}/late-answers`, { headers: bearer(creator.access_token) }),
    );
    expect(current.body).toEqual({ graceMinutes: 10, policy: "count" });
    const bad = await json(await setPolicy(90, "count"));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("The grace period can be at most 60 minutes");
    const badPolicy = await json(await setPolicy(5, "sometimes"));
    expect(badPolicy.body.message).toContain(
      'What late answers do must be "count", "review" (held for review) or "ignore"',
    );
    const stranger = await register(t, "creator", { name: "Stranger" });
    const refused = await json(await setPolicy(5, "ignore", stranger.access_token));
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe("Please choose an institute whose team you are on");
    const [row] = await t.database.db.select().from(centers).where(eq(centers.id, center.id));
    expect(row).toMatchObject({ lateAnswerGraceMinutes: 10, lateAnswerPolicy: "count" });
  });

  it("ranks a closed window only after its grace period, so late answers are in the stored ranks", async () => {
    // Every sitting still open ends first (ranks wait for those too).
    await t.database.db
      .update(attempts)
      .set({ deadline: new Date(Date.now() - 20 * 60_000) })
      .where(sql`${attempts.submittedAt} is null`);
    await t.database.db
      .update(mockTests)
      .set({ closesAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(mockTests.contentId, testId));
    await t.services.attempts.submitDue();
    let [test] = await t.database.db.select().from(mockTests).where(eq(mockTests.contentId, testId));
    expect(test.rankedAt).toBeNull();
    await t.database.db
      .update(mockTests)
      .set({ closesAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(mockTests.contentId, testId));
    await t.services.attempts.submitDue();
    [test] = await t.database.db.select().from(mockTests).where(eq(mockTests.contentId, testId));
    expect(test.rankedAt).not.toBeNull();
  });
});
