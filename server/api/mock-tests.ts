import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { idParam, requireRole } from "./guards.ts";
import { CreateTestSchema, KeyPolicySchema, SetTieBreaksSchema } from "#common/mock-tests/test-input.ts";
import { LateReviewSchema } from "#common/mock-tests/late-answers.ts";
import { TEST_TEXTS } from "../services/mock-tests/tests.ts";
import { ATTEMPT_TEXTS } from "../services/mock-tests/attempts.ts";
import { rankListCsv } from "../services/mock-tests/rank-list-csv.ts";
import { builders, TEAM_ONLY, teamOrSite } from "./mock-test-team.ts";
import { deskReader } from "./creator-desk.ts";

const TEST_NOT_FOUND = { ...TEAM_ONLY, 404: TEST_TEXTS.notFound };

/** /api/tests: the test builder, the lists of tests, and starting a sitting (issue 29). */
export function testsRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const guardBuilders = builders(services, database.db);
  const { mockTests, attempts } = services;

  api.get(
    "/",
    operation({
      tag: "tests",
      auth: "public",
      summary:
        "Tests: a creator's or owner's own and their teams' (drafts too); anyone else's: the published tests of this site (on an institute's domain, that institute's), a student's with their attempts",
      responses: { 200: "{tests: Test[]} (for students and visitors each with entitled and attempts)" },
    }),
    async (c) =>
      c.json({
        tests: await teamOrSite(
          c,
          services,
          (user) => mockTests.listForTeam(user),
          (user, site) => attempts.listForStudent(user, site),
        ),
      }),
  );

  api.post(
    "/",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "Draft a test from a pattern (jee-main-2025, neet-2025, jee-advanced, custom): sections with questions picked from the bank or drawn by rule; price in rupees",
      body: CreateTestSchema,
      responses: {
        201: "{success, test}",
        400: "Invalid input, questions not in the bank, too few to draw",
        ...TEAM_ONLY,
      },
    }),
    guardBuilders,
    async (c) => c.json({ success: true, test: await mockTests.create(deskReader(c), await jsonBody(c)) }, 201),
  );

  api.get(
    "/:id",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary: "One test of the caller's team",
      responses: { 200: "{test}", ...TEST_NOT_FOUND },
    }),
    guardBuilders,
    async (c) => c.json({ test: await mockTests.get(deskReader(c), idParam(c, TEST_TEXTS.notFound)) }),
  );

  api.put(
    "/:id",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "Change a draft: the same body as drafting it, which replaces its settings, sections and questions (questions it holds keep their copy)",
      body: CreateTestSchema,
      responses: {
        200: "{success, test}",
        400: "Invalid input, questions not in the bank, too few to draw",
        409: "Published already, or in a series of another institute",
        ...TEST_NOT_FOUND,
      },
    }),
    guardBuilders,
    async (c) => {
      const testId = idParam(c, TEST_TEXTS.notFound);
      return c.json({ success: true, test: await mockTests.update(deskReader(c), testId, await jsonBody(c)) });
    },
  );

  api.delete(
    "/:id",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary: "Discard a draft (a published test is closed instead: its sittings and results stay)",
      responses: { 200: "{success}", 409: TEST_TEXTS.notDraft, ...TEST_NOT_FOUND },
    }),
    guardBuilders,
    async (c) => {
      await mockTests.discard(deskReader(c), idParam(c, TEST_TEXTS.notFound));
      return c.json({ success: true });
    },
  );

  api.get(
    "/:id/paper",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary: "The test's questions in order, with keys, solutions and key decisions",
      responses: { 200: "{questions}", ...TEST_NOT_FOUND },
    }),
    guardBuilders,
    async (c) => c.json({ questions: await mockTests.paper(deskReader(c), idParam(c, TEST_TEXTS.notFound)) }),
  );

  for (const [path, summary, act] of [
    [
      "publish",
      "Publish a draft: every section must have questions; it is then sold and shown like content",
      "publish",
    ],
    ["close", "Close a published test to new sittings (those under way finish on their clock)", "close"],
    ["results/publish", "Release the results of a test whose results wait for the institute", "publishResults"],
  ] as const) {
    api.post(
      `/:id/${path}`,
      operation({
        tag: "tests",
        auth: "signed-in",
        summary,
        responses: { 200: "{success, test}", 409: "Not in a state for this", ...TEST_NOT_FOUND },
      }),
      guardBuilders,
      async (c) =>
        c.json({ success: true, test: await mockTests[act](deskReader(c), idParam(c, TEST_TEXTS.notFound)) }),
    );
  }

  api.put(
    "/:id/questions/:questionId/policy",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "Decide a question's key after the test (dropped, several correct, key changed, or none): every attempt is scored and ranked again",
      body: KeyPolicySchema,
      responses: { 200: "{success, questionId, policy}", 400: "Invalid policy", ...TEST_NOT_FOUND },
    }),
    guardBuilders,
    async (c) => {
      const testId = idParam(c, TEST_TEXTS.notFound);
      const questionId = idParam(c, TEST_TEXTS.notInTest, "questionId");
      return c.json({
        success: true,
        ...(await mockTests.setPolicy(deskReader(c), testId, questionId, await jsonBody(c))),
      });
    },
  );

  api.put(
    "/:id/tie-breaks",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "How takers with the same score are ranked, first to last: fewer-wrong, fewer-negative, more-correct, subject-order (the paper's subjects in order) or {subjectOrder: [subjects]}, less-time, earlier-submission. Ranked sittings are ranked again at once; a tie-break the product does not have is refused",
      body: SetTieBreaksSchema,
      responses: {
        200: "{success, test}",
        400: "A tie-break the product does not have, listed twice, or a subject not in the test",
        ...TEST_NOT_FOUND,
      },
    }),
    guardBuilders,
    async (c) => {
      const testId = idParam(c, TEST_TEXTS.notFound);
      return c.json({
        success: true,
        test: await mockTests.setTieBreaks(deskReader(c), testId, await jsonBody(c)),
      });
    },
  );

  api.get(
    "/:id/analysis",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "For the institute: the rank list, per-question figures (percentage correct, option choices, average time) and the answers that arrived after their sitting's deadline",
      responses: { 200: "{takers, lateAnswers, rankList, questions}", ...TEST_NOT_FOUND },
    }),
    guardBuilders,
    async (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(await attempts.analysis(deskReader(c), idParam(c, TEST_TEXTS.notFound)));
    },
  );

  api.put(
    "/:id/late-answers/:lateId",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "Decide a late answer held for review: count it (the sitting is scored and ranked again) or not; the student's result says which",
      body: LateReviewSchema,
      responses: {
        200: "{success, lateAnswer}",
        400: "Invalid decision",
        ...TEAM_ONLY,
        404: ATTEMPT_TEXTS.lateNotFound,
        409: ATTEMPT_TEXTS.lateDecided,
      },
    }),
    guardBuilders,
    async (c) => {
      const testId = idParam(c, ATTEMPT_TEXTS.lateNotFound);
      const lateId = idParam(c, ATTEMPT_TEXTS.lateNotFound, "lateId");
      const lateAnswer = await attempts.reviewLate(deskReader(c), testId, lateId, await jsonBody(c));
      return c.json({ success: true, lateAnswer });
    },
  );

  api.get(
    "/:id/rank-list.csv",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary: "The rank list as CSV",
      responses: { 200: { description: "The CSV file", content: ["text/csv"] }, ...TEST_NOT_FOUND },
    }),
    guardBuilders,
    async (c) => {
      const { rankList } = await attempts.analysis(deskReader(c), idParam(c, TEST_TEXTS.notFound));
      c.header("Content-Type", "text/csv; charset=utf-8");
      c.header("Content-Disposition", 'attachment; filename="rank-list.csv"');
      c.header("Cache-Control", "no-store");
      return c.body(rankListCsv(rankList));
    },
  );

  api.post(
    "/:id/attempts",
    operation({
      tag: "tests",
      auth: "student",
      summary:
        "Start a sitting (or resume the one under way, on any device, with the time left): the paper without keys or solutions, the server's deadline and clock",
      responses: {
        200: "{attempt: {_id, deadline, serverNow, sections: [{name, questions: [{_id, type, text, options?}]}], responses, lastSeq, …}}",
        402: `${ATTEMPT_TEXTS.paymentRequired}: {order: {method, path, body}} is the call that buys it`,
        404: ATTEMPT_TEXTS.testUnavailable,
        409: "Not open yet, closed, or no attempts left",
      },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      // The paper's prepared bytes, the same for every candidate, with this candidate's own parts.
      const body = await attempts.startBody(user, idParam(c, ATTEMPT_TEXTS.testUnavailable), c.get("site"));
      return c.body(body, 200, { "content-type": "application/json" });
    },
  );

  return api;
}
