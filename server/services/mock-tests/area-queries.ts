import { and, asc, eq, sql } from "drizzle-orm";
import { attempts, contents, mockTests, questions, users } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import type { Reader } from "../content-access.ts";
import { isUuid } from "#common/validation/ids.ts";
import { banksOf, examRowsFor } from "./exam-access.ts";
import { questionsIn, type BankScope } from "./question-bank.ts";

/** A sitting still under way, for the institute's "Grant extra time". */
export interface RunningAttemptJson {
  attemptId: string;
  name: string;
  email: string;
  startedAt: string;
  deadline: string;
  extraMinutes: number;
}

/** The subjects and chapters a bank holds, for its filters and the builder's draw rules. */
export interface BankFacets {
  subjects: string[];
  chapters: { subject: string | null; chapter: string }[];
}

/**
 * Reads the institute's Tests area needs beside the mock-test services: what the bank's questions
 * are tagged with, which banks the person may open, and which sittings of a test are still
 * running. The same access rule as the bank and the tests (exam-access.ts).
 */
export class TestsAreaQueries {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async facets(viewer: Reader, scope: BankScope = {}): Promise<BankFacets> {
    const rows = await this.db
      .selectDistinct({ subject: questions.subject, chapter: questions.chapter })
      .from(questions)
      .where(questionsIn(viewer, scope))
      .orderBy(asc(questions.subject), asc(questions.chapter));
    const subjects = [...new Set(rows.map((r) => r.subject).filter((s): s is string => Boolean(s)))];
    const chapters = rows
      .filter((r): r is { subject: string | null; chapter: string } => Boolean(r.chapter))
      .map((r) => ({ subject: r.subject, chapter: r.chapter }));
    return { subjects, chapters };
  }

  /** The banks the person may open: their own and their institutes' (on an institute's domain, its own). */
  banks(viewer: Reader) {
    return banksOf(this.db, viewer);
  }

  /** The test's attempts not yet submitted, soonest deadline first (empty when the viewer may not run the test). */
  async running(viewer: Reader, testId: string): Promise<RunningAttemptJson[]> {
    if (!isUuid(testId)) return [];
    const rows = await this.db
      .select({ attempt: attempts, name: users.name, email: users.email })
      .from(attempts)
      .innerJoin(mockTests, eq(mockTests.contentId, attempts.testId))
      .innerJoin(contents, eq(contents.id, attempts.testId))
      .innerJoin(users, eq(users.id, attempts.studentId))
      .where(
        and(
          eq(attempts.testId, testId),
          sql`${attempts.submittedAt} is null`,
          examRowsFor(viewer, "run", { institute: mockTests.centerId, author: contents.creatorId }),
        ),
      )
      .orderBy(asc(attempts.deadline));
    return rows.map(({ attempt, name, email }) => ({
      attemptId: attempt.id,
      name,
      email,
      startedAt: attempt.startedAt.toISOString(),
      deadline: attempt.deadline.toISOString(),
      extraMinutes: attempt.extraMinutes,
    }));
  }
}
