import { beforeAll, describe, expect, it } from "vitest";
import { and, inArray, like } from "drizzle-orm";
import { attemptEvents, attemptResponses, attempts } from "../../server/db/schema/index.ts";
import { call, launch, runningServer } from "./server.ts";
import {
  candidate,
  readStore,
  registerAccount,
  serverClock,
  signInAgain,
  untilSubmitted,
  type Account,
  type Sitting,
} from "./exam.ts";

/**
 * A sitting under the faults an exam meets (issue 29, mock-tests.md §3): the network cut, the tab
 * closed, the server killed, two devices, a late save, a submit repeated while the clock closes it.
 * A real server process of the production build, tests whose windows close seconds after a sitting
 * starts (a sitting ends with its test's window), the server's own clock (every 5 s); what the
 * server stored is read back through the API and, where it matters, the database.
 */

const f = runningServer();
const TIME_UP = "Time is up: this attempt has been submitted";
/** Single-correct keys of Q1–Q4 (options 0–3), then a numerical answer. */
const KEYS = [0, 1, 2, 3];
const NUMERICAL_KEY = 9.81;

let creator: Account;
let questionIds: string[];
const server = () => f.server;
let windows = 0;

beforeAll(async () => {
  creator = await registerAccount(f.server.base, "creator", "Rahul Verma");
  questionIds = [];
  for (const [i, answer] of KEYS.entries()) {
    const res = await call(f.server.base, "/api/questions", {
      token: creator.token,
      body: {
        type: "single",
        text: `Q${i + 1}`,
        options: ["$1$", "$2$", "$3$", "$4$"],
        answer,
        tags: { subject: "Physics", chapter: "Kinematics", difficulty: "easy" },
      },
    });
    expect(res.status).toBe(201);
    questionIds.push(res.json.questions[0]._id);
  }
  const numerical = await call(f.server.base, "/api/questions", {
    token: creator.token,
    body: {
      type: "numerical",
      text: "Q5: $g$ to two decimals",
      answer: { value: NUMERICAL_KEY, tolerance: 0.01 },
      tags: { subject: "Physics", chapter: "Kinematics", difficulty: "medium" },
    },
  });
  expect(numerical.status).toBe(201);
  questionIds.push(numerical.json.questions[0]._id);
}, 120_000);

/**
 * A published free test of the five questions whose window closes `closesInMs` from now: a
 * sitting ends when its test's window does, so its deadline comes in seconds, not a minute.
 */
async function windowedTest(closesInMs: number): Promise<string> {
  windows += 1;
  // No institute: the creator's own test, sold on the platform.
  const created = await call(f.server.base, "/api/tests", {
    token: creator.token,
    body: {
      title: `Kinematics window ${windows}`,
      pattern: "custom",
      durationMinutes: 30,
      price: 0,
      closesAt: new Date(Date.now() + closesInMs).toISOString(),
      sections: [{ name: "Physics", questions: questionIds }],
    },
  });
  expect(created.status).toBe(201);
  const testId = created.json.test._id as string;
  const published = await call(f.server.base, `/api/tests/${testId}/publish`, { token: creator.token, body: {} });
  expect(published.json.test.status).toBe("published");
  return testId;
}

/** A new student with a sitting of `testId` started: its paper's question ids, in order, and when it started. */
async function sit(name: string, testId: string) {
  const account = await registerAccount(f.server.base, "student", name);
  const student = candidate(server, account.token);
  const sitting = await student.start(testId);
  const paper = sitting.sections.flatMap((s) => s.questions.map((q) => q._id));
  expect(paper).toHaveLength(5);
  const listed = await call(f.server.base, "/api/tests", { token: account.token });
  const mine = listed.json.tests.find((t: { _id: string }) => t._id === testId);
  const startedAt = Date.parse(mine.attempts.find((a: { _id: string }) => a._id === sitting._id).startedAt);
  return { account, student, sitting, paper, testId, startedAt, clock: serverClock(sitting) };
}

/** The seconds a result gives a sitting closed at its deadline. */
const secondsToDeadline = (s: { sitting: Sitting; startedAt: number }) =>
  Math.round((Date.parse(s.sitting.deadline) - s.startedAt) / 1000);

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const answersOf = (sitting: Sitting) =>
  Object.fromEntries(Object.entries(sitting.responses).map(([id, r]) => [id, r.answer]));

describe("the network cut mid-test", () => {
  it("takes the saves queued while offline, in seq order, once it is back: none lost, the deadline unchanged", async () => {
    const { student, sitting, paper, clock } = await sit("Asha", await windowedTest(20_000));
    const id = sitting._id;
    expect((await student.save(id, paper[0], { answer: 0, seq: 1 })).json).toMatchObject({ saved: true, seq: 1 });
    // This save reached the server, but its answer never came back: the queue still holds it.
    await student.save(id, paper[1], { answer: 1, seq: 2 });

    // Offline until 12 s before the deadline: nothing is sent while the server's clock runs on.
    const queued = [
      { q: 1, body: { answer: 1, seq: 2 } },
      { q: 2, body: { answer: 0, seq: 3 } },
      { q: 0, body: { answer: 3, seq: 4 } },
      { q: 4, body: { answer: "9.81", seq: 5 } },
      { q: 3, body: { answer: 3, markedForReview: true, seq: 6 } },
      { q: 2, body: { answer: 2, seq: 7 } },
    ];
    await clock.until(Date.parse(sitting.deadline) - 12_000);

    const back = await student.view(id);
    expect(back.status).toBe("in-progress");
    expect(back.deadline).toBe(sitting.deadline);
    const answered = [];
    for (const { q, body } of queued) answered.push((await student.save(id, paper[q], body)).json);
    // The one already stored is acknowledged with its own seq; every other lands (each answer also
    // carries the deadline and the server's clock, for extra time).
    expect(answered).toMatchObject([
      { saved: false, seq: 2 },
      { saved: true, seq: 3 },
      { saved: true, seq: 4 },
      { saved: true, seq: 5 },
      { saved: true, seq: 6 },
      { saved: true, seq: 7 },
    ]);

    const stored = await student.view(id);
    expect(stored.deadline).toBe(sitting.deadline);
    expect(stored.lastSeq).toBe(7);
    expect(answersOf(stored)).toEqual({
      [paper[0]]: 3,
      [paper[1]]: 1,
      [paper[2]]: 2,
      [paper[3]]: 3,
      [paper[4]]: "9.81",
    });
    expect(stored.responses[paper[3]].markedForReview).toBe(true);

    const submitted = await student.submit(id);
    expect(submitted.status).toBe(200);
    expect(submitted.json.result.submittedBy).toBe("student");
    expect(submitted.json.result.questions.map((q: { outcome: string }) => q.outcome)).toEqual([
      "incorrect",
      "correct",
      "correct",
      "correct",
      "correct",
    ]);
    expect(submitted.json.result.score).toBe(15);
  });
});

describe("the tab killed", () => {
  it("submits the attempt at its deadline with no client, and the result holds the saved answers", async () => {
    const seated = await sit("Bala", await windowedTest(8_000));
    const { student, sitting, paper, testId } = seated;
    const id = sitting._id;
    await student.save(id, paper[0], { answer: 0, seq: 1 });
    await student.save(id, paper[1], { answer: 2, seq: 2 });
    await student.save(id, paper[4], { answer: "9.81", seq: 3 });
    // The tab is gone: only the institute looks, until the attempt is on its rank list.
    const closed = await untilSubmitted(f.server.base, creator.token, testId, id);
    expect(closed.submittedBy).toBe("clock");
    // Closed at the deadline itself, however late the clock's turn came.
    expect(closed.submittedAt).toBe(sitting.deadline);
    // The clock runs every 5 s: it came within one turn (and some slack for a busy machine).
    expect(closed.seenAt - Date.parse(sitting.deadline)).toBeLessThan(15_000);

    const result = await student.result(id);
    expect(result.status).toBe(200);
    expect(result.json).toMatchObject({ submittedBy: "clock", submittedAt: sitting.deadline, score: 7 });
    expect(result.json.seconds).toBe(secondsToDeadline(seated));
    expect(result.json.questions.map((q: { answer: unknown }) => q.answer)).toEqual([0, 2, null, null, "9.81"]);
    expect(result.json.questions.map((q: { outcome: string }) => q.outcome)).toEqual([
      "correct",
      "incorrect",
      "unanswered",
      "unanswered",
      "correct",
    ]);
  });
});

describe("the server killed mid-test", () => {
  it("resumes the attempt with the same deadline and answers after kill -9 and a restart; saves go on; the clock still submits it", async () => {
    // Long enough for a restart on a busy machine before the saves that follow it.
    const { student, sitting, paper, testId } = await sit("Chitra", await windowedTest(25_000));
    const id = sitting._id;
    expect((await student.save(id, paper[0], { answer: 0, seq: 1 })).json).toMatchObject({ saved: true, seq: 1 });
    expect((await student.save(id, paper[1], { answer: 1, seq: 2 })).json).toMatchObject({ saved: true, seq: 2 });

    f.server.child.kill("SIGKILL");
    await f.server.exited;
    f.server = await launch(f.store, {}, f.server.port);

    const resumed = await student.view(id);
    expect(resumed).toMatchObject({ _id: id, status: "in-progress", deadline: sitting.deadline, lastSeq: 2 });
    expect(answersOf(resumed)).toEqual({ [paper[0]]: 0, [paper[1]]: 1 });
    // Starting again (the screen reopened) resumes the same sitting, not a new one.
    const again = await student.start(testId);
    expect(again._id).toBe(id);
    expect(again.deadline).toBe(sitting.deadline);

    expect((await student.save(id, paper[2], { answer: 2, seq: 3 })).json).toMatchObject({ saved: true, seq: 3 });
    expect((await student.save(id, paper[0], { answer: 1, seq: 4 })).json).toMatchObject({ saved: true, seq: 4 });

    const closed = await untilSubmitted(f.server.base, creator.token, testId, id);
    expect(closed).toMatchObject({ submittedBy: "clock", submittedAt: sitting.deadline });
    const result = await student.result(id);
    expect(result.json.questions.map((q: { answer: unknown }) => q.answer)).toEqual([1, 1, 2, null, null]);
    expect(result.json.score).toBe(7);
  });
});

describe("two devices saving at once", () => {
  it("keeps the newest seq of one question whatever order the saves arrive in; saves to different questions all land", async () => {
    const { account, student, sitting, paper } = await sit("Dev", await windowedTest(10 * 60_000));
    const id = sitting._id;
    const phone = candidate(server, await signInAgain(f.server.base, account));

    // Seqs 1–24 for Q1 from both devices, all at once, in random order; the answer encodes the seq.
    const seqs = shuffled(Array.from({ length: 24 }, (_, i) => i + 1));
    const answers = await Promise.all(
      seqs.map((seq, i) => (i % 2 ? phone : student).save(id, paper[0], { answer: seq % 4, seq })),
    );
    expect(answers.map((a) => a.status)).toEqual(seqs.map(() => 200));
    const newest = answers[seqs.indexOf(24)].json;
    expect(newest).toMatchObject({ saved: true, seq: 24 });
    for (const [i, a] of answers.entries()) {
      // A save refused as older names a newer seq that was already stored.
      if (!a.json.saved) expect(a.json.seq).toBeGreaterThan(seqs[i]);
    }
    expect(answers.filter((a) => !a.json.saved).length).toBeGreaterThan(0);

    // Different questions, both devices, at once: every one lands.
    const spread = await Promise.all(
      [1, 2, 3, 4].map((q, i) =>
        (i % 2 ? phone : student).save(id, paper[q], { answer: q === 4 ? "9.81" : q, seq: 30 + q }),
      ),
    );
    expect(spread.map((a) => a.json)).toMatchObject([1, 2, 3, 4].map((q) => ({ saved: true, seq: 30 + q })));

    // A late save from the slower device, older than what is stored: ignored.
    expect((await phone.save(id, paper[0], { answer: 3, seq: 7 })).json).toMatchObject({ saved: false, seq: 24 });
    const stored = await phone.view(id);
    expect(stored.lastSeq).toBe(34);
    expect(answersOf(stored)).toEqual({
      [paper[0]]: 24 % 4,
      [paper[1]]: 1,
      [paper[2]]: 2,
      [paper[3]]: 3,
      [paper[4]]: "9.81",
    });
    const submitted = await student.submit(id);
    expect(submitted.json.result.score).toBe(20);
  });
});

describe("a save after the deadline", () => {
  it("is refused with 409 before and after the clock submits the attempt, and nothing changes", async () => {
    const { student, sitting, paper, clock, testId } = await sit("Esha", await windowedTest(8_000));
    const id = sitting._id;
    await student.save(id, paper[0], { answer: 0, seq: 1 });
    await student.save(id, paper[1], { answer: 1, seq: 2 });

    // Just past the deadline, most likely before the clock's next turn.
    await clock.until(Date.parse(sitting.deadline) + 50);
    const late = await student.save(id, paper[2], { answer: 2, seq: 3 });
    expect(late.status).toBe(409);
    expect(late.json.message).toBe(TIME_UP);
    const overwrite = await student.save(id, paper[0], { answer: 3, seq: 4 });
    expect(overwrite.status).toBe(409);
    expect(overwrite.json.message).toBe(TIME_UP);

    await untilSubmitted(f.server.base, creator.token, testId, id);
    const after = await student.save(id, paper[3], { answer: 3, seq: 5 });
    expect(after.status).toBe(409);
    expect(after.json.message).toBe(TIME_UP);

    const stored = await student.view(id);
    expect(stored).toMatchObject({ status: "submitted", lastSeq: 2, deadline: sitting.deadline });
    expect(answersOf(stored)).toEqual({ [paper[0]]: 0, [paper[1]]: 1 });
    const result = await student.result(id);
    expect(result.json.questions.map((q: { answer: unknown }) => q.answer)).toEqual([0, 1, null, null, null]);
    expect(result.json.score).toBe(8);
  });
});

describe("submit under concurrency", () => {
  type Seated = Awaited<ReturnType<typeof sit>>;
  let early: Seated;
  let probe: Seated;
  let late: Seated;
  let racers: Seated[];
  const answered = new Map<string, Awaited<ReturnType<Seated["student"]["submit"]>>[]>();
  const submitAll = async (s: Seated, times: number) => {
    const answers = await Promise.all(Array.from({ length: times }, () => s.student.submit(s.sitting._id)));
    answered.set(s.sitting._id, [...(answered.get(s.sitting._id) ?? []), ...answers]);
    return answers;
  };

  it("gives one result and one submitted event whether ten submits arrive at once or race the clock", async () => {
    // `early` and `probe` end together; the racers together 6 s later, after the clock's turn
    // that takes `probe`, and so between the same two turns; `late` just after the racers.
    const opened = Date.now();
    const [first, racing, last] = [
      await windowedTest(14_000 - (Date.now() - opened)),
      await windowedTest(20_000 - (Date.now() - opened)),
      await windowedTest(20_400 - (Date.now() - opened)),
    ];
    early = await sit("Farah", first);
    probe = await sit("Gopal", first);
    racers = await Promise.all(["Hari", "Indu", "Jaya", "Kiran"].map((name) => sit(name, racing)));
    late = await sit("Lata", last);
    for (const s of [early, probe, ...racers, late]) {
      await s.student.save(s.sitting._id, s.paper[0], { answer: 0, seq: 1 });
      await s.student.save(s.sitting._id, s.paper[4], { answer: "7.5", seq: 2 });
    }

    await early.clock.until(Date.parse(early.sitting.deadline) - 1500);
    await submitAll(early, 10);

    // When the clock takes `probe` (polled every 20 ms) tells when its turns come: every 5 s from then.
    await probe.clock.until(probe.sitting.deadline);
    let turn = 0;
    while (!turn) {
      if ((await probe.student.view(probe.sitting._id)).status === "submitted") turn = probe.clock.now();
      else await new Promise((r) => setTimeout(r, 20));
    }
    let next = turn + 5000;
    while (next < Math.max(...racers.map((s) => Date.parse(s.sitting.deadline))) + 20) next += 5000;

    await Promise.all([
      (async () => {
        // Just past its deadline, almost surely before the clock's turn: the student's submit closes it.
        await late.clock.until(Date.parse(late.sitting.deadline) + 50);
        await submitAll(late, 3);
      })(),
      (async () => {
        // The racers, all due at the clock's next turn, get eight submits each around that instant.
        // The poll sees a turn some milliseconds after it came, so the bursts start before it.
        await Promise.all(
          racers.map(async (s, i) => {
            await s.clock.until(next - 60 + 20 * i);
            await submitAll(s, 8);
          }),
        );
      })(),
    ]);
    // And once more after the clock: the same answer.
    for (const s of [early, probe, ...racers, late]) await submitAll(s, 2);

    const winners: string[] = [];
    for (const s of [early, probe, ...racers, late]) {
      const answers = answered.get(s.sitting._id)!;
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      // Rank, percentile and takers are counted live until the test is ranked: others submit meanwhile.
      const settled = ({ rank: _r, percentile: _p, takers: _t, ...rest }: Record<string, unknown>) => rest;
      const first = settled(answers[0].json.result);
      expect(first).toMatchObject({ score: 4, attemptId: s.sitting._id });
      for (const a of answers) expect(settled(a.json.result)).toEqual(first);
      winners.push(String(first.submittedBy));
    }
    expect(winners[0]).toBe("student");
    expect(winners[1]).toBe("clock");
    console.log(`who closed the racing attempts: ${winners.slice(2, 6).join(", ")}`);

    const ids = [early, probe, ...racers, late].map((s) => s.sitting._id);
    const stored = await readStore(f, async ({ db }) => ({
      events: await db
        .select({ attemptId: attemptEvents.attemptId, type: attemptEvents.type })
        .from(attemptEvents)
        .where(and(inArray(attemptEvents.attemptId, ids), like(attemptEvents.type, "submitted%"))),
      rows: await db
        .select({ id: attempts.id, submittedBy: attempts.submittedBy })
        .from(attempts)
        .where(inArray(attempts.id, ids)),
      responses: await db
        .select({ attemptId: attemptResponses.attemptId })
        .from(attemptResponses)
        .where(inArray(attemptResponses.attemptId, ids)),
    }));
    for (const id of ids) {
      const row = stored.rows.find((r) => r.id === id)!;
      expect(stored.events.filter((e) => e.attemptId === id)).toEqual([
        { attemptId: id, type: `submitted-by-${row.submittedBy}` },
      ]);
      expect(stored.responses.filter((r) => r.attemptId === id)).toHaveLength(2);
    }
  }, 150_000);

  it("closes an attempt at its deadline when the student's submit arrives after it, as the clock would", () => {
    // The server owns the clock (mock-tests.md §3): time spent and tie-breaks by submission time
    // come from its records, so a submit 50 ms late must not stretch the sitting.
    for (const s of [late, ...racers]) {
      const result = answered.get(s.sitting._id)![0].json.result;
      expect(result.submittedAt).toBe(s.sitting.deadline);
      expect(result.seconds).toBe(secondsToDeadline(s));
    }
  });
});
