import type { TestApp } from "./app.ts";
import { bearer, postJson } from "./http.ts";

/**
 * Mock tests through the API, for integration tests: a creator writes questions and publishes a
 * test, and a student sits it on the institute's domain (sessions hold on the host they were made
 * on). Each step fails with the server's own words when it is refused.
 */

async function expectStatus(res: Response, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what} failed: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Writes questions (bodies as POST /api/questions takes them) as `token`: into `bank` (an
 * institute's id) when given, else the bank the request's host or the creator's default gives.
 * Returns their ids, in order.
 */
export async function writeQuestions(
  t: TestApp,
  token: string,
  list: unknown[],
  options: { bank?: string; host?: string } = {},
): Promise<string[]> {
  const path = options.bank ? `/api/questions?bank=${options.bank}` : "/api/questions";
  const ids: string[] = [];
  for (const question of list) {
    const res = await postJson(t, path, question, { headers: bearer(token), host: options.host });
    ids.push((await expectStatus(res, 201, "writing a question")).questions[0]._id);
  }
  return ids;
}

/**
 * Creates a test as `token` (the body as POST /api/tests takes it) and publishes it. Returns the
 * test as its creation answered (its id, counts, hasHindi…).
 */
export async function publishTest(
  t: TestApp,
  token: string,
  body: object,
): Promise<{ _id: string; [field: string]: unknown }> {
  const created = await postJson(t, "/api/tests", body, { headers: bearer(token) });
  const { test } = await expectStatus(created, 201, "creating a test");
  await expectStatus(
    await postJson(t, `/api/tests/${test._id}/publish`, {}, { headers: bearer(token) }),
    200,
    "publishing a test",
  );
  return test;
}

/** A sitting as its start answers it: no keys, the server's deadline and clock, and the paper. */
export interface Sitting {
  _id: string;
  deadline: string;
  serverNow: string;
  sections: { questions: { _id: string; type: string }[] }[];
}

/** Starts (or resumes) `token`'s sitting of a test on the institute's `host`. */
export async function startSitting(t: TestApp, token: string, testId: string, host: string): Promise<Sitting> {
  const res = await postJson(t, `/api/tests/${testId}/attempts`, {}, { headers: bearer(token), host });
  return (await expectStatus(res, 200, "starting a sitting")).attempt;
}

/**
 * A student sits a test on the institute's `host`: starts the sitting, saves `answers` in order,
 * one for each question of `paper` (the sitting's own unless given; null leaves a question
 * unanswered) numbered 1, 2, … as the exam screen numbers its saves, and submits it unless
 * `submit` is false. Returns the sitting as it started.
 */
export async function sit(
  t: TestApp,
  token: string,
  testId: string,
  answers: unknown[],
  options: { host: string; paper?: { _id: string }[]; submit?: boolean },
): Promise<Sitting> {
  const { host, submit = true } = options;
  const sitting = await startSitting(t, token, testId, host);
  const paper = options.paper ?? sitting.sections.flatMap((s) => s.questions);
  let seq = 0;
  for (const [i, answer] of answers.entries()) {
    if (answer === null) continue;
    const res = await postJson(
      t,
      `/api/attempts/${sitting._id}/responses/${paper[i]._id}`,
      { answer, seq: ++seq },
      { method: "PUT", headers: bearer(token), host },
    );
    await expectStatus(res, 200, "saving an answer");
  }
  if (submit)
    await expectStatus(
      await postJson(t, `/api/attempts/${sitting._id}/submit`, {}, { headers: bearer(token), host }),
      200,
      "submitting",
    );
  return sitting;
}
