import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { QuestionJson } from "#common/mock-tests/question.ts";
import type { SectionMarking } from "#common/mock-tests/marking.ts";
import type { KeyPolicy, TieBreak } from "#common/mock-tests/policies.ts";
import type { PatternId } from "#common/mock-tests/patterns.ts";
import type { StoredResult } from "#common/mock-tests/score.ts";
import type { LateDecision, LateReason } from "#common/mock-tests/late-answers.ts";
import { attemptSubmitterEnum, mockTestStatusEnum, questionTypeEnum, resultReleaseEnum } from "./enums.ts";
import { centers, users } from "./users-and-centers.ts";
import { contents } from "./content.ts";
import { tenantIsolation } from "./tenant-policy.ts";

/**
 * A question in a bank: an institute's (`centerId`), which everyone with a role in that institute
 * sees and builds its tests from, or its author's own (`centerId` null), which only they see.
 * `data` is the API's question JSON as written; the tag columns beside it are what lists filter
 * and the builder draws by.
 */
export const questions = pgTable(
  "questions",
  {
    id: uuid().primaryKey().defaultRandom(),
    authorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The institute whose bank holds it; null: its author's own bank. An institute's bank goes with it. */
    centerId: uuid().references(() => centers.id, { onDelete: "cascade" }),
    type: questionTypeEnum().notNull(),
    data: jsonb().$type<QuestionJson>().notNull(),
    subject: text(),
    chapter: text(),
    topic: text(),
    difficulty: text(),
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("questions_author_created_idx").on(t.authorId, t.createdAt.desc()),
    index("questions_author_chapter_idx").on(t.authorId, t.subject, t.chapter, t.difficulty),
    index("questions_center_created_idx").on(t.centerId, t.createdAt.desc()),
    index("questions_center_chapter_idx").on(t.centerId, t.subject, t.chapter, t.difficulty),
    tenantIsolation(t.centerId),
  ],
);

export interface MockTestSection {
  name: string;
  /** The subject the section is part of ("Physics" for "Physics Section A"); subject totals add by it. */
  subject?: string;
  marking: SectionMarking;
  /** "Attempt any N of M" (custom tests). */
  attemptAny?: number;
}

/**
 * A mock test: the settings beside its content row (type "test"), which holds its title, price,
 * institute, creator and on/off switch, so that buying, enrolment, sales and the site work as for
 * any content.
 */
export const mockTests = pgTable(
  "mock_tests",
  {
    contentId: uuid()
      .primaryKey()
      .references(() => contents.id, { onDelete: "cascade" }),
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    pattern: text().$type<PatternId>().notNull(),
    /** "cbt": the NTA screen; "omr": the NEET booklet and bubble sheet. */
    mode: text().$type<"cbt" | "omr">().notNull().default("cbt"),
    /** Practice: solutions after each saved answer, the keyboard on, no rank. */
    practice: boolean().notNull().default(false),
    durationMinutes: integer().notNull(),
    sections: jsonb().$type<MockTestSection[]>().notNull(),
    opensAt: timestamp({ withTimezone: true }),
    closesAt: timestamp({ withTimezone: true }),
    attemptsAllowed: smallint().notNull().default(1),
    resultRelease: resultReleaseEnum().notNull().default("immediate"),
    resultsPublishedAt: timestamp({ withTimezone: true }),
    tieBreaks: jsonb().$type<TieBreak[]>().notNull().default([]),
    alertMinutes: jsonb().$type<number[]>().notNull().default([30, 15, 5]),
    status: mockTestStatusEnum().notNull().default("draft"),
    publishedAt: timestamp({ withTimezone: true }),
    /** Set when ranks were last computed for every attempt (after the window, a key change). */
    rankedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("mock_tests_closes_idx")
      .on(t.closesAt)
      .where(sql`${t.status} = 'published'`),
    tenantIsolation(t.centerId),
  ],
);

/**
 * A test's questions in paper order, each a copy of the bank question as it was when added (an
 * edit in the bank does not change a published paper), with the key policy set after the test.
 */
export const mockTestQuestions = pgTable(
  "mock_test_questions",
  {
    id: uuid().primaryKey().defaultRandom(),
    testId: uuid()
      .notNull()
      .references(() => mockTests.contentId, { onDelete: "cascade" }),
    section: smallint().notNull(),
    position: smallint().notNull(),
    sourceId: uuid().references(() => questions.id, { onDelete: "set null" }),
    question: jsonb().$type<QuestionJson>().notNull(),
    policy: jsonb().$type<KeyPolicy>(),
  },
  (t) => [uniqueIndex("mock_test_questions_order_key").on(t.testId, t.section, t.position)],
);

/** A test series: an ordered bundle of tests sold as one content (type "series"). */
export const seriesTests = pgTable(
  "series_tests",
  {
    seriesId: uuid()
      .notNull()
      .references(() => contents.id, { onDelete: "cascade" }),
    testId: uuid()
      .notNull()
      .references(() => mockTests.contentId, { onDelete: "cascade" }),
    position: smallint().notNull(),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.testId] }), index("series_tests_test_idx").on(t.testId)],
);

/**
 * One sitting of a test. The server owns the clock: `deadline` is start + duration + extra time,
 * capped by the test's window, and an attempt past it is submitted by the server.
 */
export const attempts = pgTable(
  "attempts",
  {
    id: uuid().primaryKey().defaultRandom(),
    testId: uuid()
      .notNull()
      .references(() => mockTests.contentId, { onDelete: "cascade" }),
    studentId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    number: smallint().notNull().default(1),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deadline: timestamp({ withTimezone: true }).notNull(),
    extraMinutes: integer().notNull().default(0),
    lastSeq: integer().notNull().default(0),
    /** Where the screen was (its last "visited" question) and the language it showed: a resume returns to both. */
    currentQuestionId: uuid(),
    language: text().$type<"en" | "hi">(),
    /** Entries in its event log, which is capped (server/services/mock-tests/event-log.ts). */
    loggedEvents: integer().notNull().default(0),
    submittedAt: timestamp({ withTimezone: true }),
    submittedBy: attemptSubmitterEnum(),
    /** Hundredths of a mark, for ordering; the whole result is in `result`. */
    score: integer(),
    result: jsonb().$type<StoredResult>(),
    rank: integer(),
    percentile: real(),
    takers: integer(),
  },
  (t) => [
    uniqueIndex("attempts_test_student_number_key").on(t.testId, t.studentId, t.number),
    index("attempts_student_idx").on(t.studentId, t.startedAt.desc()),
    // What the clock sweeps: open attempts by deadline.
    index("attempts_open_deadline_idx")
      .on(t.deadline)
      .where(sql`${t.submittedAt} is null`),
    index("attempts_test_score_idx")
      .on(t.testId, t.score)
      .where(sql`${t.submittedAt} is not null`),
    tenantIsolation(t.centerId),
  ],
);

/** The saved state of each question of an attempt; a newer `seq` always wins. */
export const attemptResponses = pgTable(
  "attempt_responses",
  {
    attemptId: uuid()
      .notNull()
      .references(() => attempts.id, { onDelete: "cascade" }),
    questionId: uuid()
      .notNull()
      .references(() => mockTestQuestions.id, { onDelete: "cascade" }),
    /**
     * The answer as JSON text: a typed numerical answer is a JSON string ("2.50"), which a jsonb
     * column would hand back as a number on drivers that parse it first.
     */
    answer: text(),
    markedForReview: boolean().notNull().default(false),
    seq: integer().notNull(),
    savedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When the screen says the answer was made, in the server's clock (null from a screen that did not say). */
    answeredAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionId] })],
);

/**
 * Saves that reached the server after the sitting's deadline (issue 38 §2, decision 0034), one per
 * question (the newest), with what was decided and why: counted, held for the institute's review,
 * not counted, or refused. A counted one is also in `attempt_responses`; the others are kept here
 * only, so the student is told of each and the institute can review them.
 */
export const lateAnswers = pgTable(
  "late_answers",
  {
    id: uuid().primaryKey().defaultRandom(),
    attemptId: uuid()
      .notNull()
      .references(() => attempts.id, { onDelete: "cascade" }),
    questionId: uuid()
      .notNull()
      .references(() => mockTestQuestions.id, { onDelete: "cascade" }),
    answer: text(),
    markedForReview: boolean().notNull().default(false),
    seq: integer().notNull(),
    answeredAt: timestamp({ withTimezone: true }),
    arrivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    decision: text().$type<LateDecision>().notNull(),
    reason: text().$type<LateReason>().notNull(),
    /** The grace period in force when it arrived (the institute may change it later). */
    graceMinutes: integer().notNull(),
    reviewedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    reviewedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex("late_answers_attempt_question_key").on(t.attemptId, t.questionId)],
);

/** An attempt's journey with server times: opened, visited, answered, cleared, marked, section changed, resumed, submitted. */
export const attemptEvents = pgTable(
  "attempt_events",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    attemptId: uuid()
      .notNull()
      .references(() => attempts.id, { onDelete: "cascade" }),
    type: text().notNull(),
    questionId: uuid(),
    section: text(),
    seq: integer(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("attempt_events_attempt_idx").on(t.attemptId, t.id)],
);
