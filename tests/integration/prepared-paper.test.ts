import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { mockTestQuestions, mockTests } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { publishTest, writeQuestions } from "../helpers/sittings.ts";
import { joinTeam } from "../helpers/team.ts";

/**
 * Issue 43 §3: the paper every candidate receives is the same bytes, served from one prepared
 * copy of the test's version, not made again for each start; a new version of the test (its
 * updated_at, on whichever instance it changed) gives a new copy.
 */

let t: TestApp;
let creator: Awaited<ReturnType<typeof register>>;
let center: { id: string; customDomain: string | null };
let testId: string;
const host = () => center.customDomain!;

/** A student's start as the API sent it: the raw body, and the paper's bytes within it. */
async function start(name: string) {
  const s = await register(t, "student", { name, host: host() });
  const res = await postJson(t, `/api/tests/${testId}/attempts`, {}, { headers: bearer(s.access_token), host: host() });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const text = await res.text();
  const { attempt } = JSON.parse(text);
  // The sections array, as sent: from its opening bracket to the one before the attempt's own fields.
  const from = text.indexOf('"sections":') + '"sections":'.length;
  const to = text.indexOf(`],"_id":"${attempt._id}"`) + 1;
  expect(from).toBeGreaterThan(10);
  expect(to).toBeGreaterThan(from);
  return { token: s.access_token, attempt, paper: text.slice(from, to) };
}

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  creator = await register(t, "creator", { name: "Rahul Verma" });
  const owner = await register(t, "business", { name: "Meera Owner" });
  center = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy" });
  await joinTeam(t, center.id, creator.user._id);
  const ids = await writeQuestions(
    t,
    creator.access_token,
    [0, 1, 2].map((answer, i) => ({
      type: "single",
      text: `Q${i + 1}: which?`,
      options: ["$1$", "$2$", "$3$", "$4$"],
      answer,
      tags: { subject: "Physics", chapter: "Kinematics", difficulty: "easy" },
    })),
    { bank: center.id },
  );
  testId = (
    await publishTest(t, creator.access_token, {
      title: "Prepared paper",
      businessId: center.id,
      pattern: "custom",
      durationMinutes: 30,
      price: 0,
      sections: [{ name: "Physics", questions: ids }],
    })
  )._id;
});
afterAll(() => t.close());

describe("one prepared paper (issue 43 §3)", () => {
  it("two candidates' starts carry the identical paper bytes, without keys, and their own parts apart", async () => {
    const a = await start("Asha");
    const b = await start("Bilal");
    expect(a.paper).toBe(b.paper);
    expect(JSON.parse(a.paper)).toEqual(a.attempt.sections);
    expect(a.paper).toContain("Q1: which?");
    expect(a.paper).not.toMatch(/"answer"|"solution"/);
    expect(a.attempt._id).not.toBe(b.attempt._id);
    expect(a.attempt.candidate).toEqual({ name: "Asha" });
    expect(b.attempt.candidate).toEqual({ name: "Bilal" });
    expect(a.attempt).toMatchObject({ status: "in-progress", responses: {}, lastSeq: 0 });

    // Resuming sends the same bytes with the saved answer.
    const question = a.attempt.sections[0].questions[0]._id;
    const saved = await postJson(
      t,
      `/api/attempts/${a.attempt._id}/responses/${question}`,
      { answer: 2, seq: 1 },
      { method: "PUT", headers: bearer(a.token), host: host() },
    );
    expect(saved.status).toBe(200);
    const resumed = await t.request(`/api/attempts/${a.attempt._id}`, { headers: bearer(a.token), host: host() });
    const text = await resumed.text();
    expect(text).toContain(a.paper);
    expect(JSON.parse(text).attempt).toMatchObject({
      _id: a.attempt._id,
      lastSeq: 1,
      responses: { [question]: { answer: 2 } },
    });
  });

  it("is prepared once per version of the test: a new version, from any instance, gives a new copy", async () => {
    const before = await start("Chitra");
    // The paper's rows changed behind this instance's back, the test's version unchanged: the copy stands.
    await t.database.db
      .update(mockTestQuestions)
      .set({ question: sql`jsonb_set(${mockTestQuestions.question}, '{text}', '"Q1 (corrected): which?"')` })
      .where(eq(mockTestQuestions.testId, testId));
    const same = await start("Dev");
    expect(same.paper).toBe(before.paper);
    // Another instance's edit moves the test's updated_at: the next start reads the paper afresh.
    await t.database.db.update(mockTests).set({ updatedAt: new Date() }).where(eq(mockTests.contentId, testId));
    const after = await start("Esha");
    expect(after.paper).not.toBe(before.paper);
    expect(after.paper).toContain("Q1 (corrected): which?");
    // And that new copy is again the one every candidate gets.
    expect((await start("Farhan")).paper).toBe(after.paper);
  });
});
