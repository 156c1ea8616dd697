import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { badRequest, jsonBody } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { idParam, requireRole } from "./guards.ts";
import { EventsSchema, ExtraTimeSchema, ResponseSaveSchema, SubmitSchema } from "#common/mock-tests/test-input.ts";
import { ATTEMPT_TEXTS } from "../services/mock-tests/attempts.ts";
import { builders, TEAM_ONLY } from "./mock-test-team.ts";
import { deskReader } from "./creator-desk.ts";

const NOT_FOUND = { 404: ATTEMPT_TEXTS.notFound };

/** /api/attempts: a student's sitting: resume, saves, events, submit, result (issue 29, mock-tests.md §3). */
export function attemptsRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const guardBuilders = builders(services, database.db);
  const { attempts } = services;
  const attemptId = (c: Parameters<typeof idParam>[0]) => idParam(c, ATTEMPT_TEXTS.notFound);

  api.get(
    "/:id",
    operation({
      tag: "tests",
      auth: "student",
      summary:
        "The sitting as the screen shows it (to resume): paper, saved answers, deadline and the server's clock, and resume: {questionId, language}, where it was left",
      responses: { 200: "{attempt}", ...NOT_FOUND },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      c.header("Cache-Control", "no-store");
      const body = await attempts.viewBody(user, attemptId(c));
      return c.body(body, 200, { "content-type": "application/json" });
    },
  );

  api.put(
    "/:id/responses/:questionId",
    operation({
      tag: "tests",
      auth: "student",
      summary:
        "Save one question's answer with the attempt's sequence number: an older seq than the newest saved is ignored (saved: false)",
      body: ResponseSaveSchema,
      responses: {
        200: "{saved, seq, deadline, serverNow, late?: {decision, reason, message}}: the deadline moves with extra time; after the deadline an answer made in time (answeredAt) and arriving within the institute's grace period is counted, held for review or not counted, as the institute chose",
        400: "An answer that does not fit the question",
        404: "Attempt or question not found",
        409: `${ATTEMPT_TEXTS.timeUp}: {late?: {decision: "refused", reason, message}} for an answer made after the deadline, arriving after the grace period, or without answeredAt`,
        422: '{late: {decision: "refused", reason, message}}: answeredAt cannot be true (before the sitting began, later than it arrived, earlier than an answer made before it)',
      },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      const id = attemptId(c);
      const questionId = idParam(c, ATTEMPT_TEXTS.notInPaper, "questionId");
      return c.json(await attempts.save(user, id, questionId, await jsonBody(c)));
    },
  );

  api.post(
    "/:id/events",
    operation({
      tag: "tests",
      auth: "student",
      summary:
        'Record what the screen did (visited a question, changed section, resumed, chose a language: {type: "language", language: "en" | "hi"}), in server time; the last question visited and language chosen are where a resume opens',
      body: EventsSchema,
      responses: { 204: { description: "Recorded", content: [] }, ...NOT_FOUND, 409: ATTEMPT_TEXTS.timeUp },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      await attempts.events(user, attemptId(c), await jsonBody(c));
      return c.body(null, 204);
    },
  );

  api.get(
    "/:id/clock",
    operation({
      tag: "tests",
      auth: "student",
      summary:
        "The sitting's deadline and the server's clock, which an open screen asks for every few seconds so that extra time shows",
      responses: { 200: '{deadline, serverNow, status: "in-progress" | "submitted"}', ...NOT_FOUND },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      c.header("Cache-Control", "no-store");
      return c.json(await attempts.clock(user, attemptId(c)));
    },
  );

  api.post(
    "/:id/submit",
    operation({
      tag: "tests",
      auth: "student",
      summary:
        'Submit for final marking ({by: "student"}, the default, or "clock" when the screen\'s time is up); repeating it gives the same result',
      body: SubmitSchema,
      responses: {
        200: "{success, released, result: Result | null, lateAnswers: [{questionNumber, decision, reason, text}]}",
        ...NOT_FOUND,
        409: `${ATTEMPT_TEXTS.notYetTimeUp}: a clock submit before the server's deadline, with {deadline, serverNow}`,
      },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      const id = attemptId(c);
      const raw = await c.req.text();
      let input: unknown = {};
      try {
        if (raw.trim()) input = JSON.parse(raw);
      } catch {
        throw badRequest("The request body must be valid JSON.");
      }
      const { released, lateAnswers } = await attempts.submit(user, id, input);
      return c.json({
        success: true,
        released,
        result: released ? await attempts.result(user, id) : null,
        lateAnswers,
      });
    },
  );

  api.get(
    "/:id/result",
    operation({
      tag: "tests",
      auth: "student",
      summary:
        "The result once released: score, sections, rank and percentile among the test's takers, question-wise review with solutions",
      responses: {
        200: "{score, maxScore, sections: [{name, score, correct, incorrect, unattempted}], rank, percentile, takers, questions: [{_id, answer, correctAnswer, marks, seconds, solution}]}",
        ...NOT_FOUND,
        409: "Not submitted, or not released yet",
      },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      c.header("Cache-Control", "no-store");
      return c.json(await attempts.result(user, attemptId(c)));
    },
  );

  api.get(
    "/:id/questions/:questionId/solution",
    operation({
      tag: "tests",
      auth: "student",
      summary:
        "Practice tests: the key and solution of a question once an answer to it is saved, with the saved answer and its outcome (correct, partial, incorrect…)",
      responses: {
        200: "{correctAnswer, solution}",
        403: ATTEMPT_TEXTS.practiceOnly,
        404: "Attempt or question not found",
        409: ATTEMPT_TEXTS.notSaved,
      },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      const questionId = idParam(c, ATTEMPT_TEXTS.notInPaper, "questionId");
      return c.json(await attempts.practiceSolution(user, attemptId(c), questionId));
    },
  );

  api.post(
    "/:id/extra-time",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary: "Grant a student extra minutes (machine failure, accommodation), capped by the test's window",
      body: ExtraTimeSchema,
      responses: { 200: "{success, deadline}", ...TEAM_ONLY, ...NOT_FOUND, 409: "Already submitted" },
    }),
    guardBuilders,
    async (c) => {
      const granted = await attempts.grantExtraTime(deskReader(c), attemptId(c), await jsonBody(c));
      return c.json({ success: true, ...granted });
    },
  );

  return api;
}
