import { LRUCache } from "lru-cache";
import { and, asc, count, desc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import {
  attemptEvents,
  attemptResponses,
  attempts,
  centers,
  lateAnswers,
  contents,
  enrollments,
  mockTests,
  seriesTests,
  users,
} from "../../db/schema/index.ts";
import type { Db, DbOrTx } from "../../db/types.ts";
import { HttpError, conflict, notFound, parseWith } from "../../http/errors.ts";
import type { Logger } from "../../runtime/logger.ts";
import type { AttemptAnswer, AttemptView, ResponseSaveResult, SavedResponse } from "#common/mock-tests/attempt.ts";
import type { AnswerKey, QuestionJson } from "#common/mock-tests/question.ts";
import type { KeyPolicy } from "#common/mock-tests/policies.ts";
import type { Outcome, StoredResult } from "#common/mock-tests/score.ts";
import { resultsReleased } from "#common/mock-tests/test-availability.ts";
import { EventsSchema, ExtraTimeSchema, ResponseSaveSchema, SubmitSchema } from "#common/mock-tests/test-input.ts";
import {
  CLOCK_SUBMIT_TOLERANCE_MS,
  LATE_ANSWER_DEFAULTS,
  LateAnswerSettingsSchema,
  LateReviewSchema,
  STAMP_SKEW_MS,
  type LateAnswerSettings,
  lateAnswerText,
  type LateAnswerJson,
  type LateDecision,
  type LateReason,
  type LateSaveJson,
} from "#common/mock-tests/late-answers.ts";
import { heldThroughBatch, type Reader } from "../content-access.ts";
import { isUuid } from "#common/validation/ids.ts";
import type { Site } from "../tenants.ts";
import { availableOn } from "../catalog.ts";
import { keysNow, layoutOf, scorableSections, type CandidatePaper, type Paper, type PaperCache } from "./papers.ts";
import { ruleFor, scoreAttempt, scoreQuestion, type Response } from "./scoring.ts";
import { resolveTieBreaks, standings, type Taker } from "./ranking.ts";
import {
  paperSubjects,
  sectionSeconds,
  subjectTotals,
  type PaperLayoutSection,
  type SubjectTotal,
} from "#common/mock-tests/subjects.ts";
import { secondsPerQuestion } from "./timing.ts";
import { EVENT_LOG_LIMITS, checkRoomInLog } from "./event-log.ts";
import { EXAM_ACCESS_TEXTS, instituteRole, mayDo } from "./exam-access.ts";
import { currentTenantScope } from "../../db/tenant-scope.ts";
import { TEST_TEXTS, testListColumns, testsFor, toTestJson, type TestJson } from "./tests.ts";

export const ATTEMPT_TEXTS = {
  notFound: "Attempt not found",
  testUnavailable: "This test is not available",
  notOpenYet: "This test has not opened yet",
  closed: "This test has closed",
  noAttemptsLeft: "You have used all your attempts at this test",
  paymentRequired: "Buy this test to take it",
  timeUp: "Time is up: this attempt has been submitted",
  notInPaper: "That question is not in this test",
  badAnswer: "That answer does not fit the question",
  notReleased: "Your result will be shown when the institute releases it",
  notReleasedUntil: (when: string) => `Your result will be shown after the test closes (${when})`,
  practiceOnly: "Solutions are shown during practice tests only",
  notSaved: "Save an answer to this question first",
  notYetTimeUp: "Time is not up yet: the test goes on until its deadline",
  lateDecided: "This late answer has already been decided",
  lateNotFound: "Late answer not found",
} as const;

/** Why a late save is refused as a time that cannot be true (422), rather than as late (409). */
const IMPLAUSIBLE: ReadonlySet<LateReason> = new Set(["before-start", "in-future", "out-of-order"]);

type AttemptRow = typeof attempts.$inferSelect;
type MockTestRow = typeof mockTests.$inferSelect;

export interface ResultJson extends Omit<StoredResult, "questions" | "sections"> {
  /** Each section's totals with the seconds spent on it. */
  sections: (StoredResult["sections"][number] & { seconds: number })[];
  /** Totals by subject (Physics, Chemistry, Mathematics; Botany, Zoology…) with the seconds spent on each. */
  subjects: SubjectTotal[];
  attemptId: string;
  /** Answers that reached the server after the deadline, each with what was decided and why. */
  lateAnswers: (LateAnswerJson & { text: string })[];
  testId: string;
  title: string;
  submittedAt: string;
  submittedBy: "student" | "clock";
  seconds: number;
  rank: number | null;
  percentile: number | null;
  takers: number | null;
  questions: {
    _id: string;
    section: string;
    type: QuestionJson["type"];
    text: string;
    options?: string[];
    answer: AttemptAnswer;
    correctAnswer: AnswerKey;
    policy: KeyPolicy | null;
    marks: number;
    outcome: Outcome;
    seconds: number;
    solution: string | null;
  }[];
}

export interface AttemptServiceDeps {
  db: Db;
  papers: PaperCache;
  logger: Logger;
  /** Tells the test's takers their results are out (in the transaction that ranks them when the window closes). */
  resultsReleased: (tx: DbOrTx, testId: string) => Promise<void>;
}

/** A sitting's view with the prepared paper it shows. */
interface Viewed {
  view: AttemptView;
  paper: CandidatePaper;
}

const BODY_HEAD = Buffer.from('{"attempt":{"sections":');

/** Sittings whose student and test a process keeps (about 150 bytes each): a 20,000-candidate test. */
export const SITTINGS_KEPT = 20_000;

/**
 * `{attempt: view}` as JSON bytes: the paper's prepared bytes as they are, then the candidate's
 * own parts (answers, deadline, clock) serialized for this answer alone.
 */
function attemptBody({ view, paper }: Viewed): Buffer<ArrayBuffer> {
  const { sections: _paper, ...own } = view;
  return Buffer.concat([BODY_HEAD, paper.json, Buffer.from(`,${JSON.stringify(own).slice(1)}}`)]);
}

/** When the first attempts of a test are ranked: only a student's first sitting counts. */
const FIRST_SITTING = 1;

/**
 * Sittings of a test (mock-tests.md §3). The server owns the clock; a save carries a sequence
 * number so a late or repeated save never overwrites a newer one; submitting twice gives the
 * same result; an attempt past its deadline is submitted by the server (`submitDue`).
 */
export class AttemptService {
  private readonly deps: AttemptServiceDeps;
  /**
   * Whose sitting of which test each attempt is: facts that never change, kept so that a save
   * (every 20–40 s of every candidate's test) is one statement, not a read of the attempt first.
   */
  private readonly sittings = new LRUCache<string, { studentId: string; testId: string }>({ max: SITTINGS_KEPT });

  constructor(deps: AttemptServiceDeps) {
    this.deps = deps;
  }

  private get db() {
    return this.deps.db;
  }

  /** Whether the student may sit the test: bought, in a series they bought, or given by a batch they are admitted to. */
  private async entitled(studentId: string, testId: string, db: DbOrTx = this.db): Promise<boolean> {
    // A test is never withheld from a defaulter: the tests' rule, which reads no ledger.
    if ((await heldThroughBatch(db, studentId, [testId], "tests")).has(testId)) return true;
    const [row] = await db
      .select({ id: enrollments.id })
      .from(enrollments)
      .where(
        and(
          eq(enrollments.studentId, studentId),
          sql`(${enrollments.contentId} = ${testId} or ${enrollments.contentId} in (select ${seriesTests.seriesId} from ${seriesTests} where ${seriesTests.testId} = ${testId}))`,
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  /**
   * Starts a sitting, or resumes the one under way (on this device or another) with the time
   * that is left. Refused before the window opens, after it closes, without payment for a paid
   * test (402, with how to buy it), and when the attempts allowed are used.
   */
  async start(student: Reader & { name: string }, testId: string, site: Site, now = new Date()): Promise<AttemptView> {
    return (await this.starting(student, testId, site, now)).view;
  }

  /** `start` as the API answers it, `{attempt}` in JSON, with the paper's prepared bytes (`attemptBody`). */
  async startBody(
    student: Reader & { name: string },
    testId: string,
    site: Site,
    now = new Date(),
  ): Promise<Buffer<ArrayBuffer>> {
    return attemptBody(await this.starting(student, testId, site, now));
  }

  private async starting(
    student: Reader & { name: string },
    testId: string,
    site: Site,
    now: Date,
    retried = false,
  ): Promise<Viewed> {
    // One transaction: since the scope is set per transaction, each statement alone would cost three round trips.
    const begun = await this.db.transaction(async (tx) => {
      const [found] = await tx
        .select({ test: mockTests, price: contents.price })
        .from(mockTests)
        .innerJoin(contents, eq(contents.id, mockTests.contentId))
        .leftJoin(centers, eq(centers.id, contents.centerId))
        .where(and(eq(mockTests.contentId, testId), eq(mockTests.status, "published"), availableOn(site)));
      if (!found) throw notFound(ATTEMPT_TEXTS.testUnavailable);
      const { test } = found;
      // The student's sittings of this test (a few at most): the one under way, and how many were used.
      const theirs = await tx
        .select()
        .from(attempts)
        .where(and(eq(attempts.testId, testId), eq(attempts.studentId, student.id)))
        .orderBy(desc(attempts.number));
      const open = theirs.find((a) => a.submittedAt === null);
      if (open) return { test, open };

      if (test.opensAt && now < test.opensAt) throw conflict(ATTEMPT_TEXTS.notOpenYet);
      if (test.closesAt && now >= test.closesAt) throw conflict(ATTEMPT_TEXTS.closed);
      if (found.price > 0 && !(await this.entitled(student.id, testId, tx))) {
        throw new HttpError(402, ATTEMPT_TEXTS.paymentRequired, {
          order: { method: "POST", path: "/api/student/enroll", body: { contentId: testId } },
        });
      }
      const used = theirs.length;
      if (used >= test.attemptsAllowed) throw conflict(ATTEMPT_TEXTS.noAttemptsLeft);
      const end = now.getTime() + test.durationMinutes * 60_000;
      const deadline = new Date(test.closesAt ? Math.min(end, test.closesAt.getTime()) : end);
      const [created] = await tx
        .insert(attempts)
        .values({
          testId,
          studentId: student.id,
          centerId: test.centerId,
          number: used + 1,
          startedAt: now,
          deadline,
          // Its log's first entry, "opened", written below.
          loggedEvents: 1,
        })
        // Two devices starting at once: one sitting, the other resumes it.
        .onConflictDoNothing()
        .returning();
      if (created) await tx.insert(attemptEvents).values({ attemptId: created.id, type: "opened" });
      return { test, created };
    });
    const { test, open, created } = begun as typeof begun & { open?: AttemptRow; created?: AttemptRow };
    if (open && open.deadline > now) return this.viewing(student, open.id, now);
    if (open) {
      // The sitting under way ran out of time: the clock's submission first, then a new one, once:
      // a sitting that cannot be submitted (its paper gone) would be found again and again.
      if (retried) throw notFound(ATTEMPT_TEXTS.testUnavailable);
      await this.finish(open.id, "clock");
      return this.starting(student, testId, site, now, true);
    }
    // The paper of the version of the test just read: one prepared copy for every candidate.
    const paper = await this.deps.papers.get(testId, this.db, test.updatedAt);
    if (!paper) throw notFound(ATTEMPT_TEXTS.testUnavailable);
    // A new sitting has no answers yet: its view is made from the row just written.
    if (created) {
      this.sittings.set(created.id, { studentId: created.studentId, testId: created.testId });
      return { view: this.viewOf(student, created, paper, {}, now), paper: this.deps.papers.candidate(paper) };
    }
    const id = (await this.openAttempt(student.id, testId))?.id;
    if (!id) throw conflict(ATTEMPT_TEXTS.noAttemptsLeft);
    return this.viewing(student, id, now);
  }

  private async openAttempt(studentId: string, testId: string, db: DbOrTx = this.db): Promise<AttemptRow | undefined> {
    const [row] = await db
      .select()
      .from(attempts)
      .where(and(eq(attempts.testId, testId), eq(attempts.studentId, studentId), isNull(attempts.submittedAt)))
      .orderBy(desc(attempts.number))
      .limit(1);
    return row;
  }

  /** The student and test of the student's own attempt, kept once read; 404 as `own`. */
  private async sittingOf(studentId: string, attemptId: string): Promise<{ studentId: string; testId: string }> {
    let sitting = this.sittings.get(attemptId);
    if (!sitting) {
      const row = await this.own(studentId, attemptId);
      sitting = { studentId: row.studentId, testId: row.testId };
      this.sittings.set(attemptId, sitting);
    }
    if (sitting.studentId !== studentId) throw notFound(ATTEMPT_TEXTS.notFound);
    return sitting;
  }

  /** The student's own attempt, or 404 (another's is not found, never forbidden). */
  private async own(studentId: string, attemptId: string, db: DbOrTx = this.db): Promise<AttemptRow> {
    const [row] = await db
      .select()
      .from(attempts)
      .where(and(eq(attempts.id, attemptId), eq(attempts.studentId, studentId)));
    if (!row) throw notFound(ATTEMPT_TEXTS.notFound);
    return row;
  }

  private async paperOf(testId: string): Promise<Paper> {
    const paper = await this.deps.papers.get(testId);
    if (!paper) throw notFound(ATTEMPT_TEXTS.testUnavailable);
    return paper;
  }

  /** What the screen needs to show the attempt (again): the paper without keys, the saved state, the clock. */
  async view(student: Reader & { name: string }, attemptId: string, now = new Date()): Promise<AttemptView> {
    return (await this.viewing(student, attemptId, now)).view;
  }

  /** `view` as the API answers it, `{attempt}` in JSON, with the paper's prepared bytes (`attemptBody`). */
  async viewBody(
    student: Reader & { name: string },
    attemptId: string,
    now = new Date(),
  ): Promise<Buffer<ArrayBuffer>> {
    return attemptBody(await this.viewing(student, attemptId, now));
  }

  private async viewing(student: Reader & { name: string }, attemptId: string, now: Date): Promise<Viewed> {
    const { attempt, saved } = await this.db.transaction(async (tx) => ({
      attempt: await this.own(student.id, attemptId, tx),
      saved: await tx.select().from(attemptResponses).where(eq(attemptResponses.attemptId, attemptId)),
    }));
    const paper = await this.paperOf(attempt.testId);
    const responses: Record<string, SavedResponse> = {};
    for (const row of saved)
      responses[row.questionId] = {
        answer: readAnswer(row.answer),
        markedForReview: row.markedForReview,
        visited: true,
      };
    return { view: this.viewOf(student, attempt, paper, responses, now), paper: this.deps.papers.candidate(paper) };
  }

  private viewOf(
    student: { name: string },
    attempt: AttemptRow,
    paper: Paper,
    responses: Record<string, SavedResponse>,
    now: Date,
  ): AttemptView {
    return {
      _id: attempt.id,
      testId: attempt.testId,
      title: paper.title,
      mode: paper.test.practice ? "practice" : paper.test.mode,
      durationMinutes: paper.test.durationMinutes,
      deadline: attempt.deadline.toISOString(),
      serverNow: now.toISOString(),
      status: attempt.submittedAt ? "submitted" : "in-progress",
      // The prepared copy: the same objects for every candidate, never changed here.
      sections: this.deps.papers.candidate(paper).sections,
      responses,
      lastSeq: attempt.lastSeq,
      resume: {
        questionId:
          attempt.currentQuestionId && paper.byId.has(attempt.currentQuestionId) ? attempt.currentQuestionId : null,
        language: attempt.language,
      },
      alertMinutes: paper.test.alertMinutes,
      candidate: { name: student.name },
    };
  }

  /**
   * Saves one question's answer. A save older than the newest saved for that question is ignored
   * (`saved: false`). The attempt row is locked (for no key update: a share lock would deadlock two
   * saves that both go on to raise last_seq) so a save and the clock's submission never interleave.
   * The answer carries the deadline and the server's clock, so an open screen follows extra time.
   * After the deadline (or once the clock has submitted) a save is a late answer (`lateSave`).
   */
  async save(
    student: Reader,
    attemptId: string,
    questionId: string,
    input: unknown,
  ): Promise<ResponseSaveResult & { late?: LateSaveJson }> {
    const body = parseWith(ResponseSaveSchema, input);
    const attempt = await this.sittingOf(student.id, attemptId);
    const paper = await this.paperOf(attempt.testId);
    const entry = paper.byId.get(questionId);
    if (!entry) throw notFound(ATTEMPT_TEXTS.notInPaper);
    if (!fits(entry.question, body.answer)) throw new HttpError(400, ATTEMPT_TEXTS.badAnswer);
    const answer = body.answer === null ? null : body.answer;
    const eventType =
      answer === null || (Array.isArray(answer) && answer.length === 0)
        ? "cleared"
        : body.markedForReview
          ? "marked"
          : "answered";
    // A stamp ahead of the server's clock is not kept on an answer in time: the server's time stands in.
    const stamp = body.answeredAt?.toISOString() ?? null;
    // Both drivers (node-postgres, PGlite) answer a raw statement with its rows.
    // The save's log entry is written while the sitting's log has room (event-log.ts); the answer always is.
    const { rows } = (await this.db.execute(sql`
      with live as (
        select id, logged_events from ${attempts}
        where id = ${attemptId} and submitted_at is null and deadline > now()
        for no key update
      ), saved as (
        insert into ${attemptResponses} (attempt_id, question_id, answer, marked_for_review, seq, saved_at, answered_at)
        select id, ${questionId}::uuid, ${JSON.stringify(answer)}::text, ${body.markedForReview}::boolean, ${body.seq}::int, now(),
          least(${stamp}::timestamptz, now()) from live
        on conflict (attempt_id, question_id) do update
          set answer = excluded.answer, marked_for_review = excluded.marked_for_review, seq = excluded.seq,
            saved_at = excluded.saved_at, answered_at = excluded.answered_at
          where ${attemptResponses}.seq < excluded.seq
        returning seq
      ), logged as (
        insert into ${attemptEvents} (attempt_id, type, question_id, seq)
        select ${attemptId}::uuid, ${eventType}::text, ${questionId}::uuid, saved.seq from saved, live
        where live.logged_events < ${EVENT_LOG_LIMITS.perSitting}::int
        returning 1
      ), bumped as (
        update ${attempts} set last_seq = greatest(last_seq, ${body.seq}::int), logged_events = logged_events + (select count(*) from logged)
        where id in (select id from live) and exists (select 1 from saved)
      )
      select case when exists (select 1 from saved) then 'saved' when exists (select 1 from live) then 'older' else 'closed' end as outcome,
        (select seq from ${attemptResponses} where attempt_id = ${attemptId} and question_id = ${questionId}) as seq,
        (select deadline from ${attempts} where id = ${attemptId}) as deadline, now() as server_now
    `)) as unknown as {
      rows: { outcome: string; seq: number | null; deadline: Date | string; server_now: Date | string }[];
    };
    const { outcome } = rows[0];
    if (outcome === "closed") return this.lateSave(attemptId, questionId, body);
    let { seq } = rows[0];
    // Refused as older after waiting for another save of this sitting: the statement's own snapshot
    // predates that save, so the newer seq is read again.
    if (outcome === "older")
      [{ seq }] = await this.db
        .select({ seq: attemptResponses.seq })
        .from(attemptResponses)
        .where(and(eq(attemptResponses.attemptId, attemptId), eq(attemptResponses.questionId, questionId)));
    return {
      saved: outcome === "saved",
      seq: outcome === "saved" ? body.seq : (seq ?? body.seq),
      deadline: new Date(rows[0].deadline).toISOString(),
      serverNow: new Date(rows[0].server_now).toISOString(),
    };
  }

  /**
   * A save that reached the server after the sitting's deadline (issue 38 §2, decision 0034). It is
   * judged by when the screen says it was made, against the server's clock: made before the
   * deadline, arrived within the institute's grace period, and a time that can be true (not before
   * the sitting began, not later than it arrived, not earlier than an answer made before it). One
   * that passes counts, waits for the institute's review or does not count, as the institute
   * chose; a counted one re-scores a sitting the clock already closed. Every late answer is
   * recorded with the decision and the reason, whatever it is; a refused one is answered 409 (late)
   * or 422 (a time that cannot be true) with the same `late` explanation.
   */
  private async lateSave(
    attemptId: string,
    questionId: string,
    body: { answer: AttemptAnswer; markedForReview: boolean; seq: number; answeredAt?: Date },
  ): Promise<ResponseSaveResult & { late?: LateSaveJson }> {
    const outcome = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({
          attempt: attempts,
          graceMinutes: centers.lateAnswerGraceMinutes,
          policy: centers.lateAnswerPolicy,
        })
        .from(attempts)
        .leftJoin(centers, eq(centers.id, attempts.centerId))
        .where(eq(attempts.id, attemptId))
        .for("update", { of: attempts });
      const attempt = row.attempt;
      const now = new Date();
      // The student's own submit before the deadline ends the sitting: nothing after it is theirs to add.
      if (
        (attempt.submittedAt && attempt.submittedBy === "student") ||
        (!attempt.submittedAt && now < attempt.deadline)
      )
        throw conflict(ATTEMPT_TEXTS.timeUp);
      const graceMinutes = row.graceMinutes ?? LATE_ANSWER_DEFAULTS.graceMinutes;
      const policy = row.policy ?? LATE_ANSWER_DEFAULTS.policy;
      const made = body.answeredAt ?? null;
      // The newest time the server holds for an answer made before this one (by the screen's numbering).
      const [before] = await tx
        .select({
          at: sql<Date | string | null>`max(coalesce(${attemptResponses.answeredAt}, ${attemptResponses.savedAt}))`,
        })
        .from(attemptResponses)
        .where(
          and(
            eq(attemptResponses.attemptId, attemptId),
            sql`${attemptResponses.seq} > 0 and ${attemptResponses.seq} < ${body.seq}`,
          ),
        );
      const madeBefore = before?.at ? new Date(before.at).getTime() : null;
      const reason: LateReason = !made
        ? "unstamped"
        : made.getTime() > now.getTime() + STAMP_SKEW_MS
          ? "in-future"
          : made.getTime() < attempt.startedAt.getTime() - STAMP_SKEW_MS
            ? "before-start"
            : madeBefore !== null && made.getTime() < madeBefore - STAMP_SKEW_MS
              ? "out-of-order"
              : made > attempt.deadline
                ? "made-late"
                : now.getTime() > attempt.deadline.getTime() + graceMinutes * 60_000
                  ? "after-grace"
                  : policy === "ignore"
                    ? "policy"
                    : "in-time";
      const decision: LateDecision =
        reason !== "in-time"
          ? reason === "policy"
            ? "not-counted"
            : "refused"
          : policy === "review"
            ? "held"
            : "counted";
      const recorded = await tx
        .insert(lateAnswers)
        .values({
          attemptId,
          questionId,
          answer: JSON.stringify(body.answer),
          markedForReview: body.markedForReview,
          seq: body.seq,
          answeredAt: made,
          arrivedAt: now,
          decision,
          reason,
          graceMinutes,
        })
        .onConflictDoUpdate({
          target: [lateAnswers.attemptId, lateAnswers.questionId],
          set: {
            answer: sql`excluded.answer`,
            markedForReview: sql`excluded.marked_for_review`,
            seq: sql`excluded.seq`,
            answeredAt: sql`excluded.answered_at`,
            arrivedAt: sql`excluded.arrived_at`,
            decision: sql`excluded.decision`,
            reason: sql`excluded.reason`,
            graceMinutes: sql`excluded.grace_minutes`,
            reviewedBy: null,
            reviewedAt: null,
          },
          setWhere: sql`${lateAnswers.seq} < excluded.seq`,
        })
        .returning({ id: lateAnswers.id });
      const late: LateSaveJson = {
        decision,
        reason,
        message: lateAnswerText({
          decision,
          reason,
          answeredAt: made?.toISOString() ?? null,
          arrivedAt: now.toISOString(),
          graceMinutes,
        }),
      };
      const counted = recorded.length > 0 && decision === "counted";
      const saved = counted && (await this.takeLate(tx, attempt, questionId, body, made));
      return { late, saved, recorded: recorded.length > 0, attempt, now };
    });
    const { late, attempt, now } = outcome;
    if (outcome.saved) await this.rankAgainIfRanked(attempt.testId);
    if (late.decision === "refused")
      throw IMPLAUSIBLE.has(late.reason)
        ? new HttpError(422, late.message, { late })
        : new HttpError(409, ATTEMPT_TEXTS.timeUp, { late });
    return {
      saved: outcome.saved,
      seq: body.seq,
      deadline: attempt.deadline.toISOString(),
      serverNow: now.toISOString(),
      late,
    };
  }

  /**
   * A late answer that counts: saved as the sitting's answer (when newer than what it holds) and, if
   * the clock has closed the sitting, the sitting scored again as it closed, time per question included.
   */
  private async takeLate(
    tx: DbOrTx,
    attempt: AttemptRow,
    questionId: string,
    body: { answer: AttemptAnswer; markedForReview: boolean; seq: number },
    made: Date | null,
  ): Promise<boolean> {
    const saved = await tx
      .insert(attemptResponses)
      .values({
        attemptId: attempt.id,
        questionId,
        answer: JSON.stringify(body.answer),
        markedForReview: body.markedForReview,
        seq: body.seq,
        answeredAt: made,
      })
      .onConflictDoUpdate({
        target: [attemptResponses.attemptId, attemptResponses.questionId],
        set: {
          answer: sql`excluded.answer`,
          markedForReview: sql`excluded.marked_for_review`,
          seq: sql`excluded.seq`,
          savedAt: sql`now()`,
          answeredAt: sql`excluded.answered_at`,
        },
        setWhere: sql`${attemptResponses.seq} < excluded.seq`,
      })
      .returning({ seq: attemptResponses.seq });
    if (!saved.length) return false;
    await tx
      .update(attempts)
      .set({ lastSeq: sql`greatest(${attempts.lastSeq}, ${body.seq})` })
      .where(eq(attempts.id, attempt.id));
    if (!attempt.submittedAt) return true;
    const paper = await this.deps.papers.get(attempt.testId, tx);
    if (!paper) return true;
    const result = await scoreOne(tx, paper, attempt.id, await keysNow(tx, attempt.testId), attempt.submittedAt);
    await tx
      .update(attempts)
      .set({ score: Math.round(result.score * 100), result })
      .where(eq(attempts.id, attempt.id));
    return true;
  }

  /** Ranks stored before a late answer counted are stored again. */
  private async rankAgainIfRanked(testId: string): Promise<void> {
    const [test] = await this.db
      .select({ rankedAt: mockTests.rankedAt })
      .from(mockTests)
      .where(eq(mockTests.contentId, testId));
    if (test?.rankedAt) await this.rankAll(testId);
  }

  /**
   * The institute's review of a late answer held for it: counted (saved and the sitting scored
   * again) or not. Only an answer still held can be decided.
   */
  async reviewLate(viewer: Reader, testId: string, lateId: string, input: unknown): Promise<LateAnswerJson> {
    const { decision } = parseWith(LateReviewSchema, input);
    if (!isUuid(testId) || !isUuid(lateId)) throw notFound(ATTEMPT_TEXTS.lateNotFound);
    const done = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ late: lateAnswers, attempt: attempts })
        .from(lateAnswers)
        .innerJoin(attempts, eq(attempts.id, lateAnswers.attemptId))
        .innerJoin(mockTests, eq(mockTests.contentId, attempts.testId))
        .innerJoin(contents, eq(contents.id, attempts.testId))
        .where(and(eq(lateAnswers.id, lateId), eq(attempts.testId, testId), testsFor(viewer, "run")))
        .for("update", { of: attempts });
      if (!row) throw notFound(ATTEMPT_TEXTS.lateNotFound);
      if (row.late.decision !== "held") throw conflict(ATTEMPT_TEXTS.lateDecided);
      const counted = decision === "count";
      await tx
        .update(lateAnswers)
        .set({
          decision: counted ? "counted" : "not-counted",
          reason: "reviewed",
          reviewedBy: viewer.id,
          reviewedAt: new Date(),
        })
        .where(eq(lateAnswers.id, lateId));
      const saved =
        counted &&
        (await this.takeLate(
          tx,
          row.attempt,
          row.late.questionId,
          {
            answer: readAnswer(row.late.answer),
            markedForReview: row.late.markedForReview,
            seq: row.late.seq,
          },
          row.late.answeredAt,
        ));
      return { saved };
    });
    if (done.saved) await this.rankAgainIfRanked(testId);
    const [listed] = (await this.lateAnswersOf(testId)).filter((l) => l._id === lateId);
    return listed;
  }

  /** The student's own sitting's late answers (told with the result, and while it is withheld). */
  async lateAnswersForStudent(student: Reader, attemptId: string): Promise<(LateAnswerJson & { text: string })[]> {
    const attempt = await this.own(student.id, attemptId);
    return (await this.lateAnswersOf(attempt.testId, attemptId)).map(({ attemptId: _, ...rest }) => rest);
  }

  /** The late answers of a sitting, or of every sitting of a test, in paper order. */
  private async lateAnswersOf(
    testId: string,
    attemptId?: string,
  ): Promise<(LateAnswerJson & { attemptId: string; text: string })[]> {
    const paper = await this.paperOf(testId);
    const numbers = new Map(
      paper.sections.flatMap((s) => s.questions).map(({ id }, index) => [id, index + 1] as const),
    );
    const rows = await this.db
      .select({ late: lateAnswers, deadline: attempts.deadline })
      .from(lateAnswers)
      .innerJoin(attempts, eq(attempts.id, lateAnswers.attemptId))
      .where(and(eq(attempts.testId, testId), attemptId ? eq(attempts.id, attemptId) : undefined))
      .orderBy(asc(lateAnswers.arrivedAt));
    return rows
      .map(({ late, deadline }) => {
        const json: LateAnswerJson = {
          _id: late.id,
          questionId: late.questionId,
          questionNumber: numbers.get(late.questionId) ?? 0,
          decision: late.decision,
          reason: late.reason,
          answeredAt: late.answeredAt?.toISOString() ?? null,
          arrivedAt: late.arrivedAt.toISOString(),
          deadline: deadline.toISOString(),
          graceMinutes: late.graceMinutes,
        };
        return { ...json, attemptId: late.attemptId, text: lateAnswerText(json) };
      })
      .sort((a, b) => a.questionNumber - b.questionNumber);
  }

  /** The institute's grace period for late answers and what they do; its owner or team (`run`), or an admin. */
  async lateAnswerSettings(viewer: Reader, centerId: string): Promise<LateAnswerSettings> {
    await this.mayRun(viewer, centerId);
    const [row] = await this.db
      .select({ graceMinutes: centers.lateAnswerGraceMinutes, policy: centers.lateAnswerPolicy })
      .from(centers)
      .where(eq(centers.id, centerId));
    if (!row) throw notFound(EXAM_ACCESS_TEXTS.notYourBusiness);
    return row;
  }

  async setLateAnswerSettings(viewer: Reader, centerId: string, input: unknown): Promise<LateAnswerSettings> {
    const settings = parseWith(LateAnswerSettingsSchema, input);
    await this.mayRun(viewer, centerId);
    const [row] = await this.db
      .update(centers)
      .set({ lateAnswerGraceMinutes: settings.graceMinutes, lateAnswerPolicy: settings.policy, updatedAt: new Date() })
      .where(eq(centers.id, centerId))
      .returning({ graceMinutes: centers.lateAnswerGraceMinutes, policy: centers.lateAnswerPolicy });
    if (!row) throw notFound(EXAM_ACCESS_TEXTS.notYourBusiness);
    return row;
  }

  private async mayRun(viewer: Reader, centerId: string): Promise<void> {
    if (!isUuid(centerId)) throw notFound(EXAM_ACCESS_TEXTS.notYourBusiness);
    const site = currentTenantScope();
    if (site && site !== centerId) throw notFound(EXAM_ACCESS_TEXTS.notYourBusiness);
    if (viewer.role === "admin") return;
    if (viewer.desk && viewer.desk !== centerId) throw notFound(EXAM_ACCESS_TEXTS.notYourBusiness);
    const role = await instituteRole(this.db, viewer.id, centerId);
    if (!role || !mayDo(role, "run")) throw notFound(EXAM_ACCESS_TEXTS.notYourBusiness);
  }

  /** What an open screen asks every few seconds: the deadline (extra time shows) and the server's clock. */
  async clock(student: Reader, attemptId: string): Promise<{ deadline: string; serverNow: string; status: string }> {
    const attempt = await this.own(student.id, attemptId);
    return {
      deadline: attempt.deadline.toISOString(),
      serverNow: new Date().toISOString(),
      status: attempt.submittedAt ? "submitted" : "in-progress",
    };
  }

  /**
   * Records what the screen did, in server time; a visited question is Not Answered from then on.
   * The sitting's log is capped in all and per minute (event-log.ts): past either, the events are
   * refused (413, 429) and nothing is written.
   */
  async events(student: Reader, attemptId: string, input: unknown): Promise<void> {
    const parsed = parseWith(EventsSchema, input);
    const list = parsed.events ?? [
      {
        type: parsed.type!,
        questionId: parsed.questionId,
        section: parsed.section,
        language: parsed.language,
        seq: parsed.seq!,
      },
    ];
    const attempt = await this.own(student.id, attemptId);
    if (attempt.submittedAt || attempt.deadline.getTime() <= Date.now()) throw conflict(ATTEMPT_TEXTS.timeUp);
    const paper = await this.paperOf(attempt.testId);
    const known = list.filter((e) => !e.questionId || paper.byId.has(e.questionId));
    if (!known.length) return;
    await this.db.transaction(async (tx) => {
      // The row lock decides one request of the sitting at a time against its log's limits.
      const [open] = await tx
        .select({ id: attempts.id, loggedEvents: attempts.loggedEvents })
        .from(attempts)
        .where(and(eq(attempts.id, attemptId), isNull(attempts.submittedAt), sql`${attempts.deadline} > now()`))
        .for("no key update");
      if (!open) throw conflict(ATTEMPT_TEXTS.timeUp);
      await checkRoomInLog(tx, open, known.length);
      await tx.insert(attemptEvents).values(
        known.map((e) => ({
          attemptId,
          type: e.type,
          questionId: e.questionId ?? null,
          // A language event's detail is the language, as an extra-time event's is its minutes.
          section: e.type === "language" ? (e.language ?? null) : (e.section ?? null),
          seq: e.seq,
        })),
      );
      // Where the screen is and its language, so that a resume (a reload, another device) returns there.
      const place = known.findLast((e) => e.type === "visited" && e.questionId)?.questionId;
      const language = known.findLast((e) => e.type === "language")?.language;
      await tx
        .update(attempts)
        .set({
          loggedEvents: sql`${attempts.loggedEvents} + ${known.length}`,
          ...(place ? { currentQuestionId: place } : {}),
          ...(language ? { language } : {}),
        })
        .where(eq(attempts.id, attemptId));
      const visited = known.filter((e) => e.type === "visited" && e.questionId).map((e) => e.questionId!);
      if (visited.length)
        await tx
          .insert(attemptResponses)
          .values([...new Set(visited)].map((questionId) => ({ attemptId, questionId, answer: null, seq: 0 })))
          .onConflictDoNothing();
    });
  }

  /**
   * The student's submission: the result, the same one however often it is asked for. A submit by
   * the screen's clock ("time up") that comes before the server's deadline, less a small tolerance,
   * is refused with the deadline and the server's clock (extra time was granted, or the screen's
   * clock ran fast): the screen goes on counting. The student's own submit is always taken.
   */
  async submit(
    student: Reader,
    attemptId: string,
    input: unknown = {},
  ): Promise<{ submitted: true; released: boolean; lateAnswers: (LateAnswerJson & { text: string })[] }> {
    const { by } = parseWith(SubmitSchema, input);
    const attempt = await this.own(student.id, attemptId);
    const now = new Date();
    if (
      by === "clock" &&
      !attempt.submittedAt &&
      now.getTime() < attempt.deadline.getTime() - CLOCK_SUBMIT_TOLERANCE_MS
    )
      throw new HttpError(409, ATTEMPT_TEXTS.notYetTimeUp, {
        deadline: attempt.deadline.toISOString(),
        serverNow: now.toISOString(),
      });
    await this.finish(attemptId, "student");
    // Read afresh: a release made on another instance is not in a kept paper.
    const [test] = await this.db.select().from(mockTests).where(eq(mockTests.contentId, attempt.testId));
    return {
      submitted: true,
      released: resultsReleased(test),
      lateAnswers: await this.lateAnswersOf(attempt.testId, attemptId),
    };
  }

  /**
   * Scores and closes an attempt once: whoever comes first (the student, the clock on any
   * instance) does it; the others find it done. `skipLocked`: the clock passes over an attempt
   * another instance is closing.
   */
  async finish(attemptId: string, by: "student" | "clock", skipLocked = false): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const locking = tx.select().from(attempts).where(eq(attempts.id, attemptId));
      const [attempt] = skipLocked ? await locking.for("update", { skipLocked: true }) : await locking.for("update");
      if (!attempt || attempt.submittedAt) return false;
      const paper = await this.deps.papers.get(attempt.testId, tx);
      if (!paper) return false;
      const now = new Date();
      // Past the deadline the clock has closed the sitting, whoever asks (the sweep may run up to
      // 5 s late, a student's submit may arrive after it): it ends at the deadline.
      const timeUp = now >= attempt.deadline;
      const submittedAt = timeUp ? attempt.deadline : now;
      const closedBy = timeUp ? "clock" : by;
      const result = await scoreOne(tx, paper, attempt.id, await keysNow(tx, attempt.testId), submittedAt);
      await tx
        .update(attempts)
        .set({
          submittedAt,
          submittedBy: closedBy,
          score: Math.round(result.score * 100),
          result,
          loggedEvents: attempt.loggedEvents + 1,
        })
        .where(eq(attempts.id, attempt.id));
      await tx
        .insert(attemptEvents)
        .values({ attemptId: attempt.id, type: `submitted-by-${closedBy}`, at: submittedAt });
      return true;
    });
  }

  /** Every attempt past its deadline, submitted by the clock; then tests whose window closed are ranked. */
  async submitDue(now = new Date()): Promise<{ submitted: number; ranked: number }> {
    let submitted = 0;
    for (;;) {
      const due = await this.db
        .select({ id: attempts.id })
        .from(attempts)
        .where(and(isNull(attempts.submittedAt), lte(attempts.deadline, now)))
        .orderBy(asc(attempts.deadline))
        .limit(500);
      for (const { id } of due) if (await this.finish(id, "clock", true)) submitted++;
      if (due.length < 500) break;
    }
    const closed = await this.db
      .select({ id: mockTests.contentId })
      .from(mockTests)
      .where(
        and(
          isNull(mockTests.rankedAt),
          // Answers made in time may still arrive within the institute's grace period: ranks (and
          // results that wait for the window) wait for it too.
          sql`${mockTests.closesAt} + make_interval(mins => coalesce((select ${centers.lateAnswerGraceMinutes} from ${centers} where ${centers.id} = ${mockTests.centerId}), ${LATE_ANSWER_DEFAULTS.graceMinutes}::int)) <= ${now.toISOString()}::timestamptz`,
          sql`not exists (select 1 from ${attempts} where ${attempts.testId} = ${mockTests.contentId} and ${attempts.submittedAt} is null)`,
        ),
      );
    for (const { id } of closed) await this.rankAll(id, now);
    return { submitted, ranked: closed.length };
  }

  /** Ranks and percentiles of every first sitting of a test, stored (after the window; after a key change). */
  async rankAll(testId: string, now = new Date()): Promise<void> {
    const [test] = await this.db.select().from(mockTests).where(eq(mockTests.contentId, testId));
    if (!test || test.practice) return;
    const placed = await this.placeFirstSittings(testId, test.tieBreaks);
    const ids = [...placed.keys()];
    await this.db.transaction(async (tx) => {
      if (ids.length) {
        await tx.execute(sql`
          update ${attempts} set rank = v.rank, percentile = v.percentile, takers = v.takers
          from unnest(${`{${ids.join(",")}}`}::uuid[], ${`{${ids.map((id) => placed.get(id)!.rank).join(",")}}`}::int[],
            ${`{${ids.map((id) => placed.get(id)!.percentile).join(",")}}`}::real[], ${`{${ids.map(() => ids.length).join(",")}}`}::int[])
            as v(id, rank, percentile, takers)
          where ${attempts.id} = v.id`);
      }
      await tx.update(mockTests).set({ rankedAt: now }).where(eq(mockTests.contentId, testId));
      // Results that wait for the window come out with its first ranking (not again after a key change).
      if (test.rankedAt === null && test.resultRelease === "after-window" && !test.resultsPublishedAt)
        await this.deps.resultsReleased(tx, testId);
    });
  }

  /** Every first sitting of a test placed by score and the test's tie-breaks. */
  private async placeFirstSittings(testId: string, tieBreaks: MockTestRow["tieBreaks"]) {
    const takers = await this.db
      .select({
        id: attempts.id,
        score: attempts.score,
        result: attempts.result,
        startedAt: attempts.startedAt,
        submittedAt: attempts.submittedAt,
      })
      .from(attempts)
      .where(
        and(eq(attempts.testId, testId), eq(attempts.number, FIRST_SITTING), sql`${attempts.submittedAt} is not null`),
      );
    // The paper's subjects are read only when a tie-break needs them.
    const bySubject = tieBreaks.some((t) => t === "subject-order" || typeof t === "object");
    const layout = bySubject ? layoutOf(await this.paperOf(testId)) : [];
    return standings(
      takers.map((t) => takerOf(t, layout)),
      resolveTieBreaks(tieBreaks, paperSubjects(layout)),
    );
  }

  /**
   * After a key decision: every submitted attempt scored again against the keys now, then ranked
   * again. Only the key changed, so each keeps the time per question it was scored with; the
   * answers are read in one query and the scores written a thousand to a statement.
   */
  async rescore(testId: string): Promise<void> {
    const paper = await this.paperOf(testId);
    const sections = scorableSections(paper, await keysNow(this.db, testId));
    const isSubmitted = and(eq(attempts.testId, testId), sql`${attempts.submittedAt} is not null`);
    const [submitted, saved] = await Promise.all([
      this.db.select({ id: attempts.id, result: attempts.result }).from(attempts).where(isSubmitted),
      this.db
        .select({
          attemptId: attemptResponses.attemptId,
          questionId: attemptResponses.questionId,
          answer: attemptResponses.answer,
        })
        .from(attemptResponses)
        .innerJoin(attempts, eq(attempts.id, attemptResponses.attemptId))
        .where(isSubmitted),
    ]);
    const answersOf = Map.groupBy(saved, (r) => r.attemptId);
    const rescored = submitted.map((attempt) => {
      const responses = new Map<string, Response>(
        (answersOf.get(attempt.id) ?? []).map((r) => [r.questionId, readAnswer(r.answer)]),
      );
      const seconds = new Map(attempt.result?.questions.map((q) => [q.id, q.seconds]) ?? []);
      const score = scoreAttempt(sections, responses);
      const result: StoredResult = {
        ...score,
        questions: score.questions.map((q) => ({ ...q, seconds: seconds.get(q.id) ?? 0 })),
      };
      return { id: attempt.id, score: Math.round(result.score * 100), result };
    });
    for (let at = 0; at < rescored.length; at += 1000) {
      const rows = JSON.stringify(rescored.slice(at, at + 1000));
      await this.db.execute(sql`
        update ${attempts} set score = v.score, result = v.result
        from jsonb_to_recordset(${rows}::jsonb) as v(id uuid, score int, result jsonb)
        where ${attempts.id} = v.id`);
    }
    const [test] = await this.db.select().from(mockTests).where(eq(mockTests.contentId, testId));
    if (test?.rankedAt || (test?.closesAt && test.closesAt <= new Date())) await this.rankAll(testId);
  }

  /** Extra minutes for one student (a machine failure, an accommodation), capped by the test's window. */
  async grantExtraTime(viewer: Reader, attemptId: string, input: unknown): Promise<{ deadline: string }> {
    const { minutes } = parseWith(ExtraTimeSchema, input);
    if (!isUuid(attemptId)) throw notFound(ATTEMPT_TEXTS.notFound);
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ attempt: attempts, closesAt: mockTests.closesAt })
        .from(attempts)
        .innerJoin(mockTests, eq(mockTests.contentId, attempts.testId))
        .innerJoin(contents, eq(contents.id, attempts.testId))
        .where(and(eq(attempts.id, attemptId), testsFor(viewer, "run")))
        .for("update", { of: attempts });
      if (!row) throw notFound(ATTEMPT_TEXTS.notFound);
      if (row.attempt.submittedAt) throw conflict("This attempt has been submitted");
      const wanted = row.attempt.deadline.getTime() + minutes * 60_000;
      const deadline = new Date(row.closesAt ? Math.min(wanted, row.closesAt.getTime()) : wanted);
      await tx
        .update(attempts)
        .set({ deadline, extraMinutes: row.attempt.extraMinutes + minutes, loggedEvents: row.attempt.loggedEvents + 1 })
        .where(eq(attempts.id, attemptId));
      await tx.insert(attemptEvents).values({ attemptId, type: "extra-time", section: String(minutes) });
      return { deadline: deadline.toISOString() };
    });
  }

  /** The student's result with rank and review, once released (mock-tests.md §4). */
  async result(student: Reader, attemptId: string): Promise<ResultJson> {
    const attempt = await this.own(student.id, attemptId);
    if (!attempt.submittedAt || !attempt.result) throw conflict("Submit the test to see your result");
    const paper = await this.paperOf(attempt.testId);
    const [test] = await this.db.select().from(mockTests).where(eq(mockTests.contentId, attempt.testId));
    if (!resultsReleased(test)) {
      throw new HttpError(
        409,
        test.resultRelease === "after-window" && test.closesAt
          ? ATTEMPT_TEXTS.notReleasedUntil(test.closesAt.toISOString())
          : ATTEMPT_TEXTS.notReleased,
      );
    }
    const standing = test.practice ? null : await this.standing(attempt, test);
    const answers = new Map(
      (
        await this.db
          .select({ questionId: attemptResponses.questionId, answer: attemptResponses.answer })
          .from(attemptResponses)
          .where(eq(attemptResponses.attemptId, attemptId))
      ).map((r) => [r.questionId, readAnswer(r.answer)]),
    );
    const keys = await keysNow(this.db, attempt.testId);
    const { questions: scored, ...totals } = attempt.result;
    const outcomes = new Map(scored.map((q) => [q.id, q]));
    const layout = layoutOf(paper);
    const perSection = sectionSeconds(layout, attempt.result);
    const late = await this.lateAnswersOf(attempt.testId, attemptId);
    return {
      ...totals,
      sections: totals.sections.map((section, index) => ({ ...section, seconds: perSection[index] ?? 0 })),
      subjects: subjectTotals(layout, attempt.result),
      attemptId: attempt.id,
      lateAnswers: late.map(({ attemptId: _, ...rest }) => rest),
      testId: attempt.testId,
      title: paper.title,
      submittedAt: attempt.submittedAt.toISOString(),
      submittedBy: attempt.submittedBy ?? "student",
      seconds: Math.round((attempt.submittedAt.getTime() - attempt.startedAt.getTime()) / 1000),
      rank: standing?.rank ?? null,
      percentile: standing?.percentile ?? null,
      takers: standing?.takers ?? null,
      questions: paper.sections.flatMap((section) =>
        section.questions.map(({ id, question }) => {
          const policy = keys.get(id) ?? null;
          const outcome = outcomes.get(id);
          return {
            _id: id,
            section: section.name,
            type: question.type,
            text: question.text,
            ...(question.options ? { options: question.options } : {}),
            answer: answers.get(id) ?? null,
            correctAnswer: policy?.kind === "changed" ? policy.answer : question.answer,
            policy,
            marks: outcome?.marks ?? 0,
            outcome: outcome?.outcome ?? "unanswered",
            seconds: outcome?.seconds ?? 0,
            solution: question.solution ?? null,
          };
        }),
      ),
    };
  }

  /** Rank among the test's takers: stored once ranked, counted live before (ties share a rank). */
  private async standing(attempt: AttemptRow, test: MockTestRow) {
    if (attempt.number !== FIRST_SITTING) return null;
    if (test.rankedAt !== null && attempt.rank !== null)
      return { rank: attempt.rank, percentile: attempt.percentile ?? 0, takers: attempt.takers ?? 0 };
    // Tie-breaks need every taker's figures, not only a count of higher scores.
    if (test.tieBreaks.length)
      return (await this.placeFirstSittings(test.contentId, test.tieBreaks)).get(attempt.id) ?? null;
    const [row] = await this.db
      .select({
        ahead: sql<number>`count(*) filter (where ${attempts.score} > ${attempt.score})`.mapWith(Number),
        atOrBelow: sql<number>`count(*) filter (where ${attempts.score} <= ${attempt.score})`.mapWith(Number),
        takers: count(),
      })
      .from(attempts)
      .where(
        and(
          eq(attempts.testId, attempt.testId),
          eq(attempts.number, FIRST_SITTING),
          sql`${attempts.submittedAt} is not null`,
        ),
      );
    return {
      rank: row.ahead + 1,
      percentile: Math.round(((100 * row.atOrBelow) / row.takers) * 1e7) / 1e7,
      takers: row.takers,
    };
  }

  /** Practice mode: the key and the solution of a question the student has saved an answer to. */
  async practiceSolution(student: Reader, attemptId: string, questionId: string) {
    const attempt = await this.own(student.id, attemptId);
    const paper = await this.paperOf(attempt.testId);
    if (!paper.test.practice) throw new HttpError(403, ATTEMPT_TEXTS.practiceOnly);
    const entry = paper.byId.get(questionId);
    if (!entry) throw notFound(ATTEMPT_TEXTS.notInPaper);
    const [saved] = await this.db
      .select({ answer: attemptResponses.answer })
      .from(attemptResponses)
      .where(and(eq(attemptResponses.attemptId, attemptId), eq(attemptResponses.questionId, questionId)));
    if (!saved || readAnswer(saved.answer) === null) throw conflict(ATTEMPT_TEXTS.notSaved);
    const policy = (await keysNow(this.db, attempt.testId)).get(questionId);
    const { question } = entry;
    const answer = readAnswer(saved.answer);
    // Judged as the result will judge it (decimal rules, key decisions), so the screen can mark a wrong choice.
    const { outcome } = scoreQuestion(
      { id: questionId, type: question.type, answer: question.answer, decimals: question.decimals, policy },
      answer,
      ruleFor(paper.sections[entry.section], question.type),
    );
    return {
      correctAnswer: policy?.kind === "changed" ? policy.answer : question.answer,
      solution: question.solution ?? null,
      answer,
      outcome,
    };
  }

  /** The tests a student can take on this site, with their attempts: free, bought, in a bought series. */
  async listForStudent(student: Reader | null, site: Site) {
    const rows = await this.db
      .select(testListColumns)
      .from(mockTests)
      .innerJoin(contents, eq(contents.id, mockTests.contentId))
      .leftJoin(centers, eq(centers.id, mockTests.centerId))
      .where(and(eq(mockTests.status, "published"), availableOn(site)))
      .orderBy(sql`${mockTests.opensAt} asc nulls first`, desc(mockTests.publishedAt))
      .limit(200);
    const tests = rows.map(toTestJson);
    if (!student || !tests.length) return tests.map((test) => ({ ...test, entitled: test.price === 0, attempts: [] }));
    const ids = tests.map((t) => t._id);
    const [mine, bought, inBatch] = await Promise.all([
      this.db
        .select()
        .from(attempts)
        .where(and(eq(attempts.studentId, student.id), inArray(attempts.testId, ids)))
        .orderBy(asc(attempts.number)),
      this.db
        .select({ contentId: enrollments.contentId, testId: seriesTests.testId })
        .from(enrollments)
        .leftJoin(seriesTests, eq(seriesTests.seriesId, enrollments.contentId))
        .where(eq(enrollments.studentId, student.id)),
      heldThroughBatch(this.db, student.id, ids, "tests"),
    ]);
    const owned = new Set([
      ...bought.flatMap((b) => [b.contentId, b.testId].filter((x): x is string => Boolean(x))),
      ...inBatch,
    ]);
    return tests.map((test: TestJson) => {
      // A score before its release would tell what the result page may not yet show.
      const shown = resultsReleased(test);
      return {
        ...test,
        entitled: test.price === 0 || owned.has(test._id),
        attempts: mine
          .filter((a) => a.testId === test._id)
          .map((a) => ({
            _id: a.id,
            number: a.number,
            startedAt: a.startedAt.toISOString(),
            deadline: a.deadline.toISOString(),
            submittedAt: a.submittedAt?.toISOString() ?? null,
            score: shown && a.submittedAt && a.score !== null ? a.score / 100 : null,
          })),
      };
    });
  }

  /** For the institute: the rank list, per-question figures (correct %, option choices, average time). */
  async analysis(viewer: Reader, testId: string) {
    if (!isUuid(testId)) throw notFound(TEST_TEXTS.notFound);
    const [owned] = await this.db
      .select({ id: contents.id })
      .from(mockTests)
      .innerJoin(contents, eq(contents.id, mockTests.contentId))
      .where(and(eq(mockTests.contentId, testId), isNull(contents.archivedAt), testsFor(viewer, "read")));
    if (!owned) throw notFound(TEST_TEXTS.notFound);
    const paper = await this.paperOf(testId);
    const taken = await this.db
      .select({ attempt: attempts, name: users.name, email: users.email })
      .from(attempts)
      .innerJoin(users, eq(users.id, attempts.studentId))
      .where(and(eq(attempts.testId, testId), sql`${attempts.submittedAt} is not null`))
      .orderBy(desc(attempts.score), asc(attempts.submittedAt));
    const responses = await this.db
      .select({ questionId: attemptResponses.questionId, answer: attemptResponses.answer })
      .from(attemptResponses)
      .innerJoin(attempts, eq(attempts.id, attemptResponses.attemptId))
      .where(and(eq(attempts.testId, testId), sql`${attempts.submittedAt} is not null`));
    const answersTo = Map.groupBy(
      responses.map((r) => ({ questionId: r.questionId, answer: readAnswer(r.answer) })),
      (r) => r.questionId,
    );
    const scoresOf = Map.groupBy(
      taken.flatMap((t) => t.attempt.result?.questions ?? []),
      (q) => q.id,
    );
    const firsts = taken.filter((t) => t.attempt.number === FIRST_SITTING);
    // The test's tie-breaks as they stand now (a kept paper may predate a change).
    const [{ tieBreaks }] = await this.db
      .select({ tieBreaks: mockTests.tieBreaks })
      .from(mockTests)
      .where(eq(mockTests.contentId, testId));
    const layout = layoutOf(paper);
    const placed = standings(
      firsts.map((t) => takerOf(t.attempt, layout)),
      resolveTieBreaks(tieBreaks, paperSubjects(layout)),
    );
    const questions = paper.sections.flatMap((section) =>
      section.questions.map(({ id, question }) => {
        const outcomes = scoresOf.get(id) ?? [];
        const chosen = (answersTo.get(id) ?? []).filter((r) => r.answer !== null);
        const options = (question.options ?? []).map(
          (_, index) =>
            chosen.filter((r) => r.answer === index || (Array.isArray(r.answer) && r.answer.includes(index))).length,
        );
        const seconds = outcomes.map((o) => o.seconds);
        return {
          _id: id,
          section: section.name,
          type: question.type,
          text: question.text,
          attempted: chosen.length,
          correctPercent: taken.length
            ? Math.round((1000 * outcomes.filter((o) => o.outcome === "correct").length) / taken.length) / 10
            : 0,
          options,
          averageSeconds: taken.length ? Math.round(seconds.reduce((a, b) => a + b, 0) / taken.length) : 0,
        };
      }),
    );
    const names = new Map(taken.map((t) => [t.attempt.id, { name: t.name, email: t.email }]));
    const late = await this.lateAnswersOf(testId);
    return {
      takers: firsts.length,
      // Answers that arrived after their sitting's deadline, with what was decided: those held wait for a review.
      lateAnswers: late.map((l) => ({ ...l, ...(names.get(l.attemptId) ?? { name: null, email: null }) })),
      rankList: firsts
        .toSorted((a, b) => (placed.get(a.attempt.id)?.rank ?? 0) - (placed.get(b.attempt.id)?.rank ?? 0))
        .map((t) => ({
          attemptId: t.attempt.id,
          name: t.name,
          email: t.email,
          score: (t.attempt.score ?? 0) / 100,
          rank: placed.get(t.attempt.id)?.rank ?? null,
          percentile: placed.get(t.attempt.id)?.percentile ?? null,
          submittedAt: t.attempt.submittedAt!.toISOString(),
          submittedBy: t.attempt.submittedBy,
        })),
      questions,
    };
  }
}

/** A submitted sitting as ranking compares it: score, then the figures the tie-breaks read. */
function takerOf(
  row: Pick<AttemptRow, "id" | "score" | "result" | "startedAt" | "submittedAt">,
  layout: PaperLayoutSection[],
): Taker {
  return {
    id: row.id,
    score: (row.score ?? 0) / 100,
    negative: row.result?.negative ?? 0,
    correct: row.result?.correct ?? 0,
    incorrect: row.result?.incorrect ?? 0,
    seconds: row.submittedAt ? (row.submittedAt.getTime() - row.startedAt.getTime()) / 1000 : undefined,
    submittedAt: row.submittedAt?.getTime(),
    subjects:
      row.result && layout.length
        ? Object.fromEntries(subjectTotals(layout, row.result).map((s) => [s.name, s.score]))
        : undefined,
  };
}

/** A stored answer (JSON text, or null for a question only visited) as the screen sent it. */
export function readAnswer(stored: string | null): AttemptAnswer {
  return stored === null ? null : (JSON.parse(stored) as AttemptAnswer);
}

/** Whether a saved answer has the question's shape (an option that exists, a number as typed). */
function fits(question: QuestionJson, answer: AttemptAnswer): boolean {
  if (answer === null) return true;
  const options = question.options?.length ?? 0;
  switch (question.type) {
    case "single":
      return typeof answer === "number" && answer < options;
    case "multiple":
      return Array.isArray(answer) && new Set(answer).size === answer.length && answer.every((a) => a < options);
    case "numerical":
      return typeof answer === "string" && /^[-−]?\d*\.?\d*$/.test(answer.trim());
  }
}

/** One attempt scored against the paper and the keys now, with time per question from its events. */
async function scoreOne(
  db: DbOrTx,
  paper: Paper,
  attemptId: string,
  keys: Map<string, KeyPolicy>,
  endedAt: Date,
): Promise<StoredResult> {
  const [saved, events] = await Promise.all([
    db
      .select({ questionId: attemptResponses.questionId, answer: attemptResponses.answer })
      .from(attemptResponses)
      .where(eq(attemptResponses.attemptId, attemptId)),
    db
      .select({ type: attemptEvents.type, questionId: attemptEvents.questionId, at: attemptEvents.at })
      .from(attemptEvents)
      .where(eq(attemptEvents.attemptId, attemptId))
      .orderBy(asc(attemptEvents.id)),
  ]);
  const responses = new Map<string, Response>(saved.map((r) => [r.questionId, readAnswer(r.answer)]));
  const score = scoreAttempt(scorableSections(paper, keys), responses);
  const seconds = secondsPerQuestion(events, endedAt);
  return {
    ...score,
    questions: score.questions.map((q) => ({ ...q, seconds: seconds.get(q.id) ?? 0 })),
  };
}
