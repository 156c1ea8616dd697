import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { SectionMarking } from "#common/mock-tests/marking.ts";
import type { PatternId } from "#common/mock-tests/patterns.ts";
import type { QuestionJson } from "#common/mock-tests/question.ts";
import type { KeyPolicy, TieBreak } from "#common/mock-tests/policies.ts";
import { users } from "./users.ts";
import { centers } from "./centers.ts";
import { contents } from "./content.ts";
import { tenantIsolation } from "./tenant-policy.ts";

export const questionTypeEnum = pgEnum("question_type", ["single", "multiple", "numerical"]);
export const testStatusEnum = pgEnum("test_status", ["draft", "published", "closed"]);
export const resultReleaseEnum = pgEnum("result_release", ["immediate", "after-window", "manual"]);
export const attemptEndEnum = pgEnum("attempt_end", ["student", "clock"]);

/**
 * The question bank. A question belongs to its author; with an institute it is visible to that
 * institute's team. `body` is the API's question JSON (answer and solution included: never sent to
 * a student before results); the tags are columns as well, for filtering and drawing by rule.
 */
export const questions = pgTable(
  "questions",
  {
    id: uuid().primaryKey().defaultRandom(),
    authorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    type: questionTypeEnum().notNull(),
    body: jsonb().$type<QuestionJson>().notNull(),
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
    index("questions_center_tags_idx")
      .on(t.centerId, t.subject, t.chapter, t.difficulty)
      .where(sql`${t.archivedAt} is null`),
    tenantIsolation(t.centerId),
  ],
);

/**
 * A mock test is sold as a content (type "test"): price, purchase, enrolment, sales, the team's
 * assignment and the site's visibility are the content's. This row holds what makes it a test.
 */
export const mockTests = pgTable(
  "mock_tests",
  {
    contentId: uuid()
      .primaryKey()
      .references(() => contents.id, { onDelete: "cascade" }),
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    pattern: text().$type<PatternId>().notNull(),
    mode: text().$type<"cbt" | "omr">().notNull().default("cbt"),
    durationMinutes: integer().notNull(),
    /** Null: taken any time. */
    opensAt: timestamp({ withTimezone: true }),
    closesAt: timestamp({ withTimezone: true }),
    attemptsAllowed: integer().notNull().default(1),
    resultRelease: resultReleaseEnum().notNull().default("immediate"),
    resultsPublishedAt: timestamp({ withTimezone: true }),
    status: testStatusEnum().notNull().default("draft"),
    tieBreaks: jsonb().$type<TieBreak[]>().notNull().default([]),
    /** Minutes left at which the screen warns. */
    alertMinutes: jsonb().$type<number[]>().notNull().default([30, 15, 5]),
    /** Solutions after each question, keyboard on, not ranked. */
    practice: boolean().notNull().default(false),
    publishedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mock_tests_center_status_idx").on(t.centerId, t.status), tenantIsolation(t.centerId)],
);

export const mockTestSections = pgTable(
  "mock_test_sections",
  {
    id: uuid().primaryKey().defaultRandom(),
    testId: uuid()
      .notNull()
      .references(() => mockTests.contentId, { onDelete: "cascade" }),
    position: smallint().notNull(),
    name: text().notNull(),
    marking: jsonb().$type<SectionMarking>().notNull(),
    attemptAny: smallint(),
  },
  (t) => [uniqueIndex("mock_test_sections_position_key").on(t.testId, t.position)],
);

/**
 * A test's questions, frozen when the test is published (`snapshot`): editing the bank later does
 * not change a paper students have taken. A key decided after the test is a `policy`, and every
 * attempt is scored again.
 */
export const mockTestQuestions = pgTable(
  "mock_test_questions",
  {
    testId: uuid()
      .notNull()
      .references(() => mockTests.contentId, { onDelete: "cascade" }),
    sectionId: uuid()
      .notNull()
      .references(() => mockTestSections.id, { onDelete: "cascade" }),
    position: smallint().notNull(),
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "restrict" }),
    snapshot: jsonb().$type<QuestionJson>(),
    policy: jsonb().$type<KeyPolicy>(),
  },
  (t) => [
    primaryKey({ columns: [t.testId, t.questionId] }),
    uniqueIndex("mock_test_questions_position_key").on(t.sectionId, t.position),
  ],
);

/** An ordered bundle of tests sold as one (the series is a content of type "series"). */
export const mockTestSeriesItems = pgTable(
  "mock_test_series_items",
  {
    seriesId: uuid()
      .notNull()
      .references(() => contents.id, { onDelete: "cascade" }),
    testId: uuid()
      .notNull()
      .references(() => mockTests.contentId, { onDelete: "cascade" }),
    position: smallint().notNull(),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.testId] }), index("mock_test_series_items_test_idx").on(t.testId)],
);

/**
 * One sitting. The server owns the clock: `deadline` is start + duration + extra time, capped by
 * the window's close, and an attempt past it is submitted by the server.
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
    number: smallint().notNull(),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    extraMinutes: integer().notNull().default(0),
    deadline: timestamp({ withTimezone: true }).notNull(),
    /** The newest save's sequence number; an older one is ignored. */
    lastSeq: integer().notNull().default(0),
    submittedAt: timestamp({ withTimezone: true }),
    endedBy: attemptEndEnum(),
    /** The scored result (AttemptScore) once submitted; re-written when a key changes. */
    result: jsonb(),
    score: numeric({ precision: 8, scale: 2, mode: "number" }),
    negative: numeric({ precision: 8, scale: 2, mode: "number" }),
    correct: integer(),
    rank: integer(),
    percentile: numeric({ precision: 10, scale: 7, mode: "number" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("attempts_student_number_key").on(t.testId, t.studentId, t.number),
    index("attempts_student_idx").on(t.studentId, t.startedAt.desc()),
    // The clock's sweep: unsubmitted attempts by deadline.
    index("attempts_open_deadline_idx")
      .on(t.deadline)
      .where(sql`${t.submittedAt} is null`),
    index("attempts_test_score_idx")
      .on(t.testId, t.score.desc())
      .where(sql`${t.submittedAt} is not null`),
    tenantIsolation(t.centerId),
  ],
);

/** A saved answer: only the save buttons write here (mock-tests.md §2.4). */
export const attemptResponses = pgTable(
  "attempt_responses",
  {
    attemptId: uuid()
      .notNull()
      .references(() => attempts.id, { onDelete: "cascade" }),
    questionId: uuid().notNull(),
    answer: jsonb().$type<number | number[] | string | null>(),
    markedForReview: boolean().notNull().default(false),
    seq: integer().notNull(),
    savedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionId] })],
);

/** What happened in an attempt, with the server's times: time per question and the attempt's journey. */
export const attemptEvents = pgTable(
  "attempt_events",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    attemptId: uuid()
      .notNull()
      .references(() => attempts.id, { onDelete: "cascade" }),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    kind: text().notNull(),
    questionId: uuid(),
    detail: jsonb(),
  },
  (t) => [index("attempt_events_attempt_idx").on(t.attemptId, t.id)],
);
