import { data, type RouterContextProvider } from "react-router";
import { HttpError } from "../../../server/http/errors.ts";
import { getRequestContext } from "../context.server";
import { getViewer } from "../session.server";
import { checkoutConfig } from "../learning.server";
import { orRespond } from "../creator.server";
import { testSummary } from "#common/mock-tests/test-summary.ts";
import { attemptInProgress, testAvailability } from "#common/mock-tests/test-availability.ts";
import { isUuid } from "#common/validation/ids.ts";

type Ctx = Readonly<RouterContextProvider>;

/** The signed-in student (these pages sit behind the student guard). */
function student(context: Ctx) {
  const viewer = getViewer(context)!;
  return { id: viewer.id, role: viewer.role, name: viewer.name };
}

/** The tests this student can take on this site (free, bought, in a bought series), with their attempts. */
export async function loadStudentTests(context: Ctx) {
  const { tests, series, now } = await loadSiteTests(context);
  return { tests, series, checkout: checkoutConfig(context), now };
}

/**
 * The tests and series on sale on this site (the catalog's Mock Tests), as the viewer stands with
 * each: a visitor sees prices, a student also what they bought, took, and may still take.
 */
export async function loadSiteTests(context: Ctx) {
  const { services, site } = getRequestContext(context);
  const viewer = getViewer(context);
  const reader = viewer ? { id: viewer.id, role: viewer.role } : null;
  const [tests, series] = await Promise.all([
    services.attempts.listForStudent(reader, site),
    services.series.listForSite(reader, site),
  ]);
  const listed = new Set(tests.map((t) => t._id));
  // An institute that has not connected its payment account sells nothing paid yet (decision 0040).
  const selling = site.kind !== "tenant" || site.center.merchantAccountId !== null;
  return {
    tests: tests.map((t) => ({ ...t, onSale: selling || t.price === 0 })),
    // Of a series, only its tests on sale here; a series with none sells nothing.
    series: series
      .map((s) => ({ ...s, onSale: selling || s.price === 0, tests: s.tests.filter((t) => listed.has(t._id)) }))
      .filter((s) => s.tests.length > 0),
    now: new Date().toISOString(),
  };
}

/**
 * A test's start page: the instructions' summary from the test's record (no attempt, so no clock,
 * before 'I am ready to begin'), or the sitting under way to resume with the time left.
 */
export async function loadTestStart(context: Ctx, testId: string) {
  const { services, site } = getRequestContext(context);
  const me = student(context);
  const viewer = getViewer(context)!;
  const tests = await services.attempts.listForStudent(me, site);
  const test = tests.find((t) => t._id === testId);
  if (!test) throw data({ message: "This test is not available" }, { status: 404 });
  const now = new Date();
  const open = attemptInProgress(test, now);
  const attempt = open ? await orRespond(() => services.attempts.view(me, open._id)) : null;
  const { kind } = testAvailability(test, now);
  return {
    test: { _id: test._id, title: test.title, price: test.price, entitled: test.entitled },
    paper: testSummary(test),
    candidate: { name: viewer.name, avatarUrl: viewer.avatarKey ? `/media/${viewer.avatarKey}` : null },
    attempt: attempt?.status === "in-progress" ? attempt : null,
    /** A test that has closed, or whose attempts this student has used, is not offered again. */
    over: kind === "closed" || kind === "used-up" ? kind : null,
    /** The last submitted sitting, for a link to its result when no attempts are left. */
    lastSubmitted: test.attempts.findLast((a) => a.submittedAt)?._id ?? null,
    checkout: checkoutConfig(context),
  };
}

/** 'I am ready to begin': the sitting starts now (or the one under way resumes); refusals keep their status and words. */
export async function startAttempt(context: Ctx, testId: string) {
  const { services, site } = getRequestContext(context);
  if (!isUuid(testId)) throw data({ message: "This test is not available" }, { status: 404 });
  try {
    return { ok: true as const, attempt: await services.attempts.start(student(context), testId, site) };
  } catch (error) {
    if (error instanceof HttpError)
      return data({ ok: false as const, status: error.status, error: error.message }, { status: error.status });
    throw error;
  }
}

/** The result of one of the student's attempts, or the server's reason it is not shown yet (not released, not submitted). */
export async function loadAttemptResult(context: Ctx, attemptId: string) {
  const { services } = getRequestContext(context);
  if (!isUuid(attemptId)) throw data({ message: "Attempt not found" }, { status: 404 });
  try {
    const result = await services.attempts.result(student(context), attemptId);
    return { result, withheld: null, lateAnswers: result.lateAnswers };
  } catch (error) {
    if (error instanceof HttpError && error.status === 409)
      return {
        result: null,
        withheld: error.message,
        // Answers that arrived after time was up are told even while the result waits.
        lateAnswers: await services.attempts.lateAnswersForStudent(student(context), attemptId),
      };
    if (error instanceof HttpError) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}
