import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { attempts, contents, questions, users } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import type { Reader } from "../content-access.ts";
import { visibleToTeamOf } from "./team-scope.ts";

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
 * are tagged with, and which sittings of a test are still running. Same team rule as the bank.
 */
export class TestsAreaQueries {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async facets(viewerId: string): Promise<BankFacets> {
    const rows = await this.db
      .selectDistinct({ subject: questions.subject, chapter: questions.chapter })
      .from(questions)
      .where(and(visibleToTeamOf(questions.authorId, viewerId), isNull(questions.archivedAt)))
      .orderBy(asc(questions.subject), asc(questions.chapter));
    const subjects = [...new Set(rows.map((r) => r.subject).filter((s): s is string => Boolean(s)))];
    const chapters = rows
      .filter((r): r is { subject: string | null; chapter: string } => Boolean(r.chapter))
      .map((r) => ({ subject: r.subject, chapter: r.chapter }));
    return { subjects, chapters };
  }

  /** The test's attempts not yet submitted, soonest deadline first (empty when the test is not the viewer's team's). */
  async running(viewer: Reader, testId: string): Promise<RunningAttemptJson[]> {
    const rows = await this.db
      .select({ attempt: attempts, name: users.name, email: users.email })
      .from(attempts)
      .innerJoin(contents, eq(contents.id, attempts.testId))
      .innerJoin(users, eq(users.id, attempts.studentId))
      .where(
        and(
          eq(attempts.testId, testId),
          sql`${attempts.submittedAt} is null`,
          viewer.role === "admin" ? undefined : visibleToTeamOf(contents.creatorId, viewer.id),
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
