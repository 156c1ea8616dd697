import { and, asc, desc, eq, inArray, isNotNull, lte, ne, or, sql } from "drizzle-orm";
import {
  attempts,
  batchStudents,
  batches,
  centers,
  contents,
  guardians,
  memberships,
  mockTests,
  parentConsents,
  users,
} from "../../db/schema/index.ts";
import type { Db, Tx } from "../../db/types.ts";
import { childOfLink } from "../../db/families.ts";
import { can, membershipOf } from "../../auth/permissions.ts";
import { forbidden, notFound } from "../../http/errors.ts";
import type { AttendanceReportService, StudentAt } from "../attendance-reports.ts";
import type { FeeAccounts } from "../fees/accounts.ts";
import { instituteStudentCount, instituteStudents, type InstituteStudentRow } from "../institute-students.ts";
import {
  CONSENT_NOTICE_VERSION,
  FAMILY_TEXTS,
  consentNotice,
  type ChildJson,
  type ConsentJson,
  type GuardianJson,
} from "#common/family.ts";
import { resultsReleased } from "#common/mock-tests/test-availability.ts";
import { indiaDate } from "#common/india-dates.ts";
import { isUuid } from "#common/validation/ids.ts";
import { guardianJson, firstName } from "./rows.ts";

/** How many of a child's tests, newest first, their parent is shown. */
const RESULTS_SHOWN = 100;

/** A child as their parent reaches them: the link, and whose and where. */
export interface ChildLink {
  guardianId: string;
  studentId: string;
  centerId: string;
}

/** One of a child's tests, as their parent sees it: the score only once the institute releases results. */
export interface ChildResultJson {
  attemptId: string;
  testId: string;
  title: string;
  submittedAt: string;
  score: number | null;
  rank: number | null;
}

/**
 * Parents' links to their children (issue 41, decision 0047), once made: a parent's children and
 * what they may read of each (always through an active link, by the link's id, so no child's id
 * reaches a parent who is not theirs), the institute's view of a student's family, ending a link
 * (the institute removes it, or the parent withdraws consent, which is recorded), the consent
 * record, and the child's data on request.
 */
export class FamilyService {
  private readonly deps: {
    db: Db;
    attendanceReports: AttendanceReportService;
    feeAccounts: FeeAccounts;
    now?: () => number;
  };

  constructor(deps: FamilyService["deps"]) {
    this.deps = deps;
  }

  private now(): Date {
    return new Date(this.deps.now?.() ?? Date.now());
  }

  /** The parent's children, wherever they study (or at one institute, on its site). */
  async children(parentId: string, centerId: string | null = null): Promise<ChildJson[]> {
    const rows = await this.deps.db
      .select({
        id: guardians.id,
        studentId: guardians.studentId,
        name: users.name,
        centerId: guardians.centerId,
        institute: centers.instituteName,
        relation: guardians.relation,
        linkedAt: guardians.linkedAt,
      })
      .from(guardians)
      .innerJoin(users, eq(users.id, guardians.studentId))
      .innerJoin(centers, eq(centers.id, guardians.centerId))
      .where(
        and(
          eq(guardians.parentId, parentId),
          eq(guardians.status, "active"),
          centerId ? eq(guardians.centerId, centerId) : undefined,
        ),
      )
      .orderBy(asc(users.name), asc(centers.instituteName));
    return rows.map((r) => ({
      _id: r.id,
      studentId: r.studentId,
      name: r.name,
      centerId: r.centerId,
      institute: r.institute,
      relation: r.relation,
      linkedAt: r.linkedAt!.toISOString(),
    }));
  }

  /** The child an active link of the parent names; anything else (another family's, ended, made up) is a 404. */
  async child(parentId: string, guardianId: string): Promise<ChildLink> {
    const link = isUuid(guardianId) ? await childOfLink(this.deps.db, parentId, guardianId) : null;
    if (!link) throw notFound(FAMILY_TEXTS.childNotFound);
    return link;
  }

  /**
   * A student's parents and invitations at the institute, newest first: for the student themself,
   * and for those whose role there may link families.
   */
  async familyOf(viewerId: string, centerId: string, studentId: string): Promise<GuardianJson[]> {
    if (viewerId !== studentId) await this.mayManage(viewerId, centerId);
    const rows = await this.deps.db
      .select()
      .from(guardians)
      .where(and(eq(guardians.centerId, centerId), eq(guardians.studentId, studentId)))
      .orderBy(desc(guardians.invitedAt));
    const now = this.now();
    return rows.map((r) => guardianJson(r, now));
  }

  /**
   * A page of the institute's students by name, searched by name, e-mail or phone number, with how
   * many the search finds in all; each with every parent link but the removed ones (invited,
   * linked, declined, withdrawn), newest first: the Students page, for those who link families.
   */
  async studentsPage(
    viewerId: string,
    centerId: string,
    page: { q?: string; limit: number; offset: number },
  ): Promise<{ total: number; students: (InstituteStudentRow & { parents: GuardianJson[] })[] }> {
    await this.mayManage(viewerId, centerId);
    const { db } = this.deps;
    const [students, total] = await Promise.all([
      instituteStudents(db, centerId, page),
      instituteStudentCount(db, centerId, page.q),
    ]);
    const links = students.length
      ? await db
          .select()
          .from(guardians)
          .where(
            and(
              eq(guardians.centerId, centerId),
              inArray(
                guardians.studentId,
                students.map((s) => s._id),
              ),
              ne(guardians.status, "removed"),
            ),
          )
          .orderBy(desc(guardians.invitedAt))
      : [];
    const now = this.now();
    return {
      total,
      students: students.map((s) => ({
        ...s,
        parents: links.filter((l) => l.studentId === s._id).map((l) => guardianJson(l, now)),
      })),
    };
  }

  /** The institute ends a link (or withdraws an invitation): kept as history; the parent sees nothing more. */
  async remove(viewerId: string, centerId: string, guardianId: string): Promise<GuardianJson> {
    await this.mayManage(viewerId, centerId);
    if (!isUuid(guardianId)) throw notFound(FAMILY_TEXTS.linkNotFound);
    return this.end(centerId, guardianId, "removed", null);
  }

  /** The parent withdraws consent: recorded word for word, and the link ends at once. */
  async withdraw(parentId: string, guardianId: string): Promise<{ guardian: GuardianJson; message: string }> {
    const link = await this.child(parentId, guardianId);
    const [names] = await this.deps.db
      .select({ child: users.name, institute: centers.instituteName })
      .from(users)
      .innerJoin(centers, eq(centers.id, link.centerId))
      .where(eq(users.id, link.studentId));
    const child = firstName(names.child);
    const guardian = await this.end(link.centerId, guardianId, "withdrawn", {
      parentId,
      noticeText: consentNotice(names.institute, child),
    });
    return { guardian, message: FAMILY_TEXTS.withdrawn(child, names.institute) };
  }

  /** What the parent answered, and when, for one of their links (active or not). */
  async consents(parentId: string, guardianId: string): Promise<ConsentJson[]> {
    const rows = await this.deps.db
      .select()
      .from(parentConsents)
      .innerJoin(guardians, eq(guardians.id, parentConsents.guardianId))
      .where(and(eq(parentConsents.guardianId, guardianId), eq(guardians.parentId, parentId)))
      .orderBy(asc(parentConsents.at));
    return rows.map(({ parent_consents: c }) => ({
      _id: c.id,
      answer: c.answer,
      noticeVersion: c.noticeVersion,
      noticeText: c.noticeText,
      at: c.at.toISOString(),
    }));
  }

  /** The child's submitted tests at their institute, newest first; a score only where results are released. */
  async results(link: ChildLink): Promise<ChildResultJson[]> {
    return (await this.resultsOf([link]))[0];
  }

  /**
   * `results` of several children at once (a parent's home cards), in the order given: one query,
   * each child's newest RESULTS_SHOWN tests at their own institute.
   */
  async resultsOf(links: StudentAt[]): Promise<ChildResultJson[][]> {
    if (links.length === 0) return [];
    const { db } = this.deps;
    const ranked = db
      .select({
        studentId: attempts.studentId,
        centerId: mockTests.centerId,
        attemptId: attempts.id,
        testId: attempts.testId,
        title: contents.title,
        submittedAt: attempts.submittedAt,
        score: attempts.score,
        rank: attempts.rank,
        resultRelease: mockTests.resultRelease,
        resultsPublishedAt: mockTests.resultsPublishedAt,
        closesAt: mockTests.closesAt,
        newest:
          sql<number>`row_number() over (partition by ${attempts.studentId}, ${mockTests.centerId} order by ${attempts.submittedAt} desc)`.as(
            "newest",
          ),
      })
      .from(attempts)
      .innerJoin(mockTests, eq(mockTests.contentId, attempts.testId))
      .innerJoin(contents, eq(contents.id, attempts.testId))
      .where(
        and(
          or(...links.map((l) => and(eq(attempts.studentId, l.studentId), eq(mockTests.centerId, l.centerId)))),
          isNotNull(attempts.submittedAt),
        ),
      )
      .as("ranked");
    const rows = await db
      .select()
      .from(ranked)
      .where(lte(ranked.newest, RESULTS_SHOWN))
      .orderBy(desc(ranked.submittedAt));
    const now = this.now();
    return links.map((link) =>
      rows
        .filter((r) => r.studentId === link.studentId && r.centerId === link.centerId)
        .map((r) => {
          const shown = resultsReleased(r, now);
          return {
            attemptId: r.attemptId,
            testId: r.testId,
            title: r.title,
            submittedAt: r.submittedAt!.toISOString(),
            score: shown && r.score !== null ? r.score / 100 : null,
            rank: shown ? r.rank : null,
          };
        }),
    );
  }

  /**
   * Everything Pathshala holds about the child at that institute, for their parent (a data request
   * under the DPDP Act): the account's details, batches, attendance, tests, fees and the family's
   * consent record. Another family's contacts are never in it: only this parent's own link.
   */
  async dataOf(parentId: string, guardianId: string) {
    const link = await this.child(parentId, guardianId);
    const { db } = this.deps;
    const [student] = await db
      .select({ name: users.name, email: users.email, phone: users.phone, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.id, link.studentId));
    const [center] = await db
      .select({ institute: centers.instituteName })
      .from(centers)
      .where(eq(centers.id, link.centerId));
    const batchRows = await db
      .select({
        batch: batches.name,
        status: batchStudents.status,
        admittedAt: batchStudents.admittedAt,
        leftAt: batchStudents.leftAt,
      })
      .from(batchStudents)
      .innerJoin(batches, eq(batches.id, batchStudents.batchId))
      .where(and(eq(batchStudents.userId, link.studentId), eq(batchStudents.centerId, link.centerId)));
    const attendance = await this.deps.attendanceReports.studentSessions(link.studentId, link.centerId, {
      from: "2000-01-01",
      to: indiaDate(this.now()),
    });
    return {
      exportedAt: this.now().toISOString(),
      institute: center.institute,
      student: { ...student, createdAt: student.createdAt.toISOString() },
      batches: batchRows.map((b) => ({
        ...b,
        admittedAt: b.admittedAt?.toISOString() ?? null,
        leftAt: b.leftAt?.toISOString() ?? null,
      })),
      attendance,
      tests: await this.results(link),
      fees: await this.deps.feeAccounts.ofStudent(link.studentId, link.centerId),
      consents: await this.consents(parentId, guardianId),
    };
  }

  /**
   * Ends a link as `status`; a withdrawal records the parent's answer. The parent keeps their role
   * at the institute while another child of theirs is linked there, and loses it with the last.
   */
  private async end(
    centerId: string,
    guardianId: string,
    status: "removed" | "withdrawn",
    withdrawal: { parentId: string; noticeText: string } | null,
  ): Promise<GuardianJson> {
    const now = this.now();
    const row = await this.deps.db.transaction(async (tx) => {
      const [ended] = await tx
        .update(guardians)
        .set({ status, endedAt: now, updatedAt: now })
        .where(
          and(
            eq(guardians.id, guardianId),
            eq(guardians.centerId, centerId),
            inArray(guardians.status, ["invited", "active"]),
          ),
        )
        .returning();
      if (!ended) throw notFound(FAMILY_TEXTS.linkNotFound);
      if (withdrawal)
        await tx.insert(parentConsents).values({
          centerId,
          guardianId,
          parentId: withdrawal.parentId,
          answer: "withdrawn",
          noticeVersion: CONSENT_NOTICE_VERSION,
          noticeText: withdrawal.noticeText,
          at: now,
        });
      if (ended.parentId) await this.dropParentRoleIfLast(tx, centerId, ended.parentId, now);
      return ended;
    });
    return guardianJson(row, now);
  }

  private async dropParentRoleIfLast(tx: Tx, centerId: string, parentId: string, now: Date): Promise<void> {
    const [other] = await tx
      .select({ id: guardians.id })
      .from(guardians)
      .where(and(eq(guardians.centerId, centerId), eq(guardians.parentId, parentId), eq(guardians.status, "active")))
      .limit(1);
    if (other) return;
    await tx
      .update(memberships)
      .set({ status: "removed", removedAt: now, updatedAt: now })
      .where(
        and(
          eq(memberships.centerId, centerId),
          eq(memberships.userId, parentId),
          eq(memberships.role, "parent"),
          ne(memberships.status, "removed"),
        ),
      );
  }

  private async mayManage(viewerId: string, centerId: string): Promise<void> {
    const membership = await membershipOf(this.deps.db, viewerId, centerId);
    if (!membership || membership.roles.length === 0) throw notFound(FAMILY_TEXTS.studentNotFound);
    if (!can(membership, "families.manage")) throw forbidden(FAMILY_TEXTS.ownOnly);
  }
}
