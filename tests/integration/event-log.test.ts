import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { attemptEvents, attempts } from "../../server/db/schema/index.ts";
import { EVENT_LOG_LIMITS } from "../../server/services/mock-tests/event-log.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { joinTeam } from "../helpers/team.ts";

/**
 * Issue 37 §8: a sitting's event log is capped in all and per minute; past either, events are
 * refused in the product's words and nothing is written, while answers are still saved.
 */

let t: TestApp;
let host: string;
let testId: string;
const students: Awaited<ReturnType<typeof register>>[] = [];

const json = async (res: Response) => ({ status: res.status, body: await res.json().catch(() => null) });

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  const creator = await register(t, "creator");
  const center = await createCenter(t, null);
  host = center.customDomain!;
  await joinTeam(t, center.id, creator.user._id);
  const written = await postJson(
    t,
    `/api/questions?bank=${center.id}`,
    { type: "single", text: "Q", options: ["a", "b"], answer: 0 },
    { headers: bearer(creator.access_token) },
  );
  const questionId = (await written.json()).questions[0]._id;
  const made = await postJson(
    t,
    "/api/tests",
    { title: "Logged", pattern: "custom", businessId: center.id, sections: [{ name: "All", questions: [questionId] }] },
    { headers: bearer(creator.access_token) },
  );
  testId = (await made.json()).test._id;
  await postJson(t, `/api/tests/${testId}/publish`, {}, { headers: bearer(creator.access_token) });
  for (let i = 0; i < 2; i++) students.push(await register(t, "student", { host }));
});
afterAll(() => t.close());

async function sit(student: (typeof students)[number]) {
  const started = await json(
    await postJson(t, `/api/tests/${testId}/attempts`, {}, { headers: bearer(student.access_token), host }),
  );
  const attempt = started.body.attempt;
  return { id: attempt._id as string, questionId: attempt.sections[0].questions[0]._id as string };
}

const post = (student: (typeof students)[number], attemptId: string, body: unknown) =>
  postJson(t, `/api/attempts/${attemptId}/events`, body, { headers: bearer(student.access_token), host });
const save = (student: (typeof students)[number], attemptId: string, questionId: string, seq: number) =>
  postJson(
    t,
    `/api/attempts/${attemptId}/responses/${questionId}`,
    { answer: seq % 2, seq },
    { method: "PUT", headers: bearer(student.access_token), host },
  );
const logged = async (attemptId: string) =>
  (await t.database.db.select({ n: count() }).from(attemptEvents).where(eq(attemptEvents.attemptId, attemptId)))[0].n;

describe("a sitting's event log", () => {
  it("takes at most the per-minute figure in a minute (429 with Retry-After), and answers are still saved", async () => {
    const student = students[0];
    const { id, questionId } = await sit(student);
    const visits = (n: number, from: number) => ({
      events: Array.from({ length: n }, (_, i) => ({ type: "visited", questionId, seq: from + i })),
    });
    // "opened" is its first entry; fill the minute to the limit exactly.
    expect((await post(student, id, visits(500, 1))).status).toBe(204);
    expect((await post(student, id, visits(EVENT_LOG_LIMITS.perMinute - 501, 501))).status).toBe(204);
    expect(await logged(id)).toBe(EVENT_LOG_LIMITS.perMinute);

    const refused = await post(student, id, { type: "visited", questionId, seq: 9_000 });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect((await refused.json()).message).toBe(
      "Too much activity for this attempt in one minute; your answers are still being saved",
    );
    expect(await logged(id)).toBe(EVENT_LOG_LIMITS.perMinute);

    // An answer is not an event: it is saved (and logged, the total has room).
    expect(await json(await save(student, id, questionId, 9_001))).toEqual({
      status: 200,
      body: expect.objectContaining({ saved: true, seq: 9_001 }),
    });
    const [row] = await t.database.db.select().from(attempts).where(eq(attempts.id, id));
    expect(row.loggedEvents).toBe(EVENT_LOG_LIMITS.perMinute + 1);
    expect(await logged(id)).toBe(row.loggedEvents);
    // Submitting logs its entry too; the count stays the log's.
    await postJson(t, `/api/attempts/${id}/submit`, {}, { headers: bearer(student.access_token), host });
    const [done] = await t.database.db.select().from(attempts).where(eq(attempts.id, id));
    expect(await logged(id)).toBe(done.loggedEvents);
    expect(done.loggedEvents).toBe(EVENT_LOG_LIMITS.perMinute + 2);
  });

  it("holds at most the per-sitting figure (413), and a full log still takes answers without growing", async () => {
    const student = students[1];
    const { id, questionId } = await sit(student);
    // A sitting long under way: its log is one short of full (its entries older than a minute).
    await t.database.db
      .update(attempts)
      .set({ loggedEvents: EVENT_LOG_LIMITS.perSitting - 1 })
      .where(eq(attempts.id, id));
    const two = {
      events: [
        { type: "visited", questionId, seq: 1 },
        { type: "resumed", seq: 2 },
      ],
    };
    const full = await json(await post(student, id, two));
    expect(full.status).toBe(413);
    expect(full.body.message).toBe("This attempt's activity log is full; your answers are still being saved");
    expect(await logged(id)).toBe(1);

    expect((await post(student, id, { type: "visited", questionId, seq: 3 })).status).toBe(204);
    expect((await json(await post(student, id, { type: "resumed", seq: 4 }))).status).toBe(413);
    expect(await logged(id)).toBe(2);

    expect((await json(await save(student, id, questionId, 5))).body).toMatchObject({ saved: true, seq: 5 });
    expect((await json(await save(student, id, questionId, 6))).body).toMatchObject({ saved: true, seq: 6 });
    expect(await logged(id)).toBe(2);
    const [row] = await t.database.db.select().from(attempts).where(eq(attempts.id, id));
    expect(row).toMatchObject({ loggedEvents: EVENT_LOG_LIMITS.perSitting, lastSeq: 6 });
    const resumed = await json(await t.request(`/api/attempts/${id}`, { headers: bearer(student.access_token), host }));
    expect(resumed.body.attempt.responses[questionId]).toMatchObject({ answer: 0 });
  });
});
