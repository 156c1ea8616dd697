import { and, asc, between, count, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import {
  attendanceMarks,
  attendanceRegisters,
  batchStudents,
  batches,
  classSessions,
  memberships,
  users,
} from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { HttpError, notFound } from "../http/errors.ts";
import type { AttendancePolicyService } from "./attendance-policies.ts";
import { attendanceViewer, seesBatch, type AttendanceViewer } from "./attendance-access.ts";
import {
  BATCH_NOT_FOUND,
  FLAG_WINDOW_DAYS,
  NO_ATTENDANCE_ROLE,
  NOT_YOUR_BATCH,
  NOT_YOUR_TEACHING,
  ONLY_YOUR_OWN,
  ONLY_YOUR_CHILDREN,
  STUDENT_NOT_FOUND,
  TEACHER_NOT_FOUND,
  attendanceCounts,
  belowThreshold,
  monthRange,
  type AttendanceCounts,
  type AttendanceReportJson,
  type AttendanceRowJson,
  type FlaggedStudentJson,
  type StudentSessionJson,
  type TeacherRowJson,
} from "#common/validation/attendance-reports.ts";
import { addDays, clockText, indiaDate, indiaMinute } from "#common/india-dates.ts";

/** A person reading only their own record: at one institute, or wherever they study (null). */
export type SelfViewer = { scope: "self"; userId: string; centerId: string | null };
export type ReportViewer = AttendanceViewer | SelfViewer;

export interface Period {
  month?: string;
  from?: string;
  to?: string;
}

/** A student at one institute: whose attendance there is counted. */
export interface StudentAt {
  studentId: string;
  centerId: string;
}

export interface ReportFilter extends Period {
  studentId?: string;
  batchId?: string;
  teacherId?: string;
}

/** What the counting queries are narrowed to, once the viewer's rights are applied. */
interface Scope {
  centerId: string | null;
  from: string;
  to: string;
  studentId?: string;
  batchId?: string;
  teacherId?: string;
  /** Only these batches (a teacher's). */
  batchIds?: string[];
  /** Only these students, each at their own institute (a parent's children); never empty. */
  students?: StudentAt[];
}

const CSV_HEADER = [
  "Student ID",
  "Student",
  "Batch ID",
  "Batch",
  "Present",
  "Late",
  "Absent",
  "Excused",
  "Sessions",
  "Percent",
];

/**
 * Attendance reports (issue 41 §4): by student, batch, teacher and month, the students flagged
 * below the institute's threshold, and a student's own sessions. One rule everywhere: attended =
 * present + late; excused sessions are left out; cancelled sessions never count; an admitted
 * student with no mark counts absent once the session's register is closed (before that, not at
 * all). "Admitted" means admitted to the batch when the session started, so a student who joined
 * later or left earlier is not counted absent for sessions outside their time in the batch.
 */
export class AttendanceReportService {
  private readonly db: Db;
  private readonly policies: AttendancePolicyService;
  private readonly now: () => number;

  constructor(deps: { db: Db; policies: AttendancePolicyService; now?: () => number }) {
    this.db = deps.db;
    this.policies = deps.policies;
    this.now = deps.now ?? Date.now;
  }

  /** What `userId` may read of institute `centerId`'s attendance (404/403 when nothing). */
  viewerOf(userId: string, centerId: string): Promise<AttendanceViewer> {
    return attendanceViewer(this.db, userId, centerId);
  }

  /** The India dates a period covers: a month, from–to, or (neither) this month. */
  period({ month, from, to }: Period): { from: string; to: string } {
    if (from && to) return { from, to };
    return monthRange(month ?? indiaDate(new Date(this.now())).slice(0, 7));
  }

  /** `{rows, totals}` for what the viewer may see, narrowed by the filter. */
  async report(viewer: ReportViewer, filter: ReportFilter): Promise<AttendanceReportJson> {
    const scope = await this.scopeOf(viewer, filter);
    const rows = (await this.counted(scope)).map(({ centerId: _, ...row }) => row);
    return { from: scope.from, to: scope.to, rows, totals: totalOf(rows) };
  }

  /**
   * The period's totals of several students, each at their own institute, in the order given: for
   * each, what `report` totals for a family viewer reading that one child there, all read at once
   * (the parent's home cards, issue 41). Whose children they are is the caller's to have checked.
   */
  async totalsOf(students: StudentAt[], period: Period): Promise<AttendanceCounts[]> {
    if (students.length === 0) return [];
    const rows = await this.counted({ centerId: null, ...this.period(period), students });
    return students.map((s) => totalOf(rows.filter((r) => r.studentId === s.studentId && r.centerId === s.centerId)));
  }

  /** The same rows as a CSV file that spreadsheets open as they are (BOM, CRLF, formulas defused). */
  csv(report: AttendanceReportJson): string {
    return stringify(
      [
        CSV_HEADER,
        ...report.rows.map((r) => [
          r.studentId,
          r.name,
          r.batchId,
          r.batchName,
          r.present,
          r.late,
          r.absent,
          r.excused,
          r.sessions,
          r.percent === null ? "" : r.percent.toFixed(1),
        ]),
      ],
      { bom: true, record_delimiter: "windows", escape_formulas: true },
    );
  }

  /** Sessions held (started, not cancelled) per teacher in the period, and how many registers are closed. */
  async teachers(
    viewer: ReportViewer,
    period: Period,
  ): Promise<{ from: string; to: string; teachers: TeacherRowJson[] }> {
    if (viewer.scope === "student" || viewer.scope === "self" || viewer.scope === "family")
      throw new HttpError(403, NO_ATTENDANCE_ROLE);
    const { from, to } = this.period(period);
    const centerId = viewer.centerId;
    const rows = await this.db
      .select({
        teacherId: classSessions.teacherId,
        name: users.name,
        sessions: count(),
        closed: count(attendanceRegisters.closedAt),
      })
      .from(classSessions)
      .innerJoin(users, eq(users.id, classSessions.teacherId))
      .leftJoin(attendanceRegisters, eq(attendanceRegisters.sessionId, classSessions.id))
      .where(
        and(
          eq(classSessions.centerId, centerId),
          between(classSessions.on, from, to),
          eq(classSessions.status, "scheduled"),
          lte(classSessions.startsAt, new Date(this.now())),
          viewer.scope === "teacher" ? eq(classSessions.teacherId, viewer.userId) : undefined,
        ),
      )
      .groupBy(classSessions.teacherId, users.name)
      .orderBy(asc(users.name));
    return {
      from,
      to,
      teachers: rows.map((r) => ({
        teacherId: r.teacherId!,
        name: r.name,
        sessions: r.sessions,
        closed: r.closed,
        open: r.sessions - r.closed,
      })),
    };
  }

  /** Students (per batch) below the institute's threshold over the last 30 days, lowest first. */
  async flagged(viewer: ReportViewer): Promise<{
    lowAttendancePercent: number;
    from: string;
    to: string;
    students: FlaggedStudentJson[];
  }> {
    if (viewer.scope === "student" || viewer.scope === "self" || viewer.scope === "family")
      throw new HttpError(403, NO_ATTENDANCE_ROLE);
    const { lowAttendancePercent } = await this.policies.get(viewer.centerId);
    const to = indiaDate(new Date(this.now()));
    const from = addDays(to, 1 - FLAG_WINDOW_DAYS);
    const rows = await this.counted({
      centerId: viewer.centerId,
      from,
      to,
      batchIds: viewer.scope === "teacher" ? viewer.batchIds : undefined,
    });
    const students = rows
      .filter((r) => belowThreshold(r, lowAttendancePercent))
      .sort((a, b) => a.percent! - b.percent! || a.name.localeCompare(b.name))
      .map((r) => ({
        studentId: r.studentId,
        name: r.name,
        batchId: r.batchId,
        batchName: r.batchName,
        percent: r.percent!,
        sessions: r.sessions,
      }));
    return { lowAttendancePercent, from, to, students };
  }

  /**
   * A student's own sessions in the period (held, not cancelled) with their mark: an unmarked
   * session of a closed register is Absent, of an open one not yet decided (null).
   */
  async studentSessions(userId: string, centerId: string | null, period: Period): Promise<StudentSessionJson[]> {
    const { from, to } = this.period(period);
    const rows = await this.db
      .select({
        sessionId: classSessions.id,
        batchId: batches.id,
        batchName: batches.name,
        on: classSessions.on,
        startsAt: classSessions.startsAt,
        subject: classSessions.subject,
        status: attendanceMarks.status,
        closedAt: attendanceRegisters.closedAt,
      })
      .from(classSessions)
      .innerJoin(batches, eq(batches.id, classSessions.batchId))
      .leftJoin(
        attendanceMarks,
        and(eq(attendanceMarks.sessionId, classSessions.id), eq(attendanceMarks.userId, userId)),
      )
      .leftJoin(attendanceRegisters, eq(attendanceRegisters.sessionId, classSessions.id))
      .where(
        and(
          centerId ? eq(classSessions.centerId, centerId) : undefined,
          between(classSessions.on, from, to),
          eq(classSessions.status, "scheduled"),
          lte(classSessions.startsAt, new Date(this.now())),
          or(isNotNull(attendanceMarks.status), inBatchWhenHeld(userId)),
        ),
      )
      .orderBy(asc(classSessions.startsAt));
    return rows.map((r) => ({
      sessionId: r.sessionId,
      batchId: r.batchId,
      batchName: r.batchName,
      on: r.on,
      start: clockText(indiaMinute(r.startsAt)),
      subject: r.subject,
      status: r.status ?? (r.closedAt ? "absent" : null),
    }));
  }

  /** Applies who may see what: a student only themselves, a teacher only their batches and sessions. */
  private async scopeOf(viewer: ReportViewer, filter: ReportFilter): Promise<Scope> {
    const { from, to } = this.period(filter);
    const base = { centerId: viewer.centerId, from, to };
    if (viewer.scope === "student" || viewer.scope === "self") {
      if ((filter.studentId && filter.studentId !== viewer.userId) || filter.batchId || filter.teacherId)
        throw new HttpError(403, ONLY_YOUR_OWN);
      return { ...base, studentId: viewer.userId };
    }
    if (viewer.scope === "family") {
      const child = filter.studentId ?? (viewer.studentIds.length === 1 ? viewer.studentIds[0] : undefined);
      if (!child || !viewer.studentIds.includes(child) || filter.batchId || filter.teacherId)
        throw new HttpError(403, ONLY_YOUR_CHILDREN);
      return { ...base, studentId: child };
    }
    const centerId = viewer.centerId;
    if (filter.batchId) {
      const [batch] = await this.db
        .select({ id: batches.id })
        .from(batches)
        .where(and(eq(batches.id, filter.batchId), eq(batches.centerId, centerId)));
      if (!batch) throw notFound(BATCH_NOT_FOUND);
      if (!seesBatch(viewer, batch.id)) throw new HttpError(403, NOT_YOUR_BATCH);
    }
    if (filter.teacherId) {
      if (viewer.scope === "teacher" && filter.teacherId !== viewer.userId) throw new HttpError(403, NOT_YOUR_TEACHING);
      if (!(await this.hasRole(centerId, filter.teacherId))) throw notFound(TEACHER_NOT_FOUND);
    }
    if (filter.studentId && !(await this.hasRole(centerId, filter.studentId))) throw notFound(STUDENT_NOT_FOUND);
    return {
      ...base,
      centerId,
      studentId: filter.studentId,
      batchId: filter.batchId,
      teacherId: filter.teacherId,
      batchIds: viewer.scope === "teacher" ? viewer.batchIds : undefined,
    };
  }

  /** Whether the account holds (or held) any role in the institute: who a report may name. */
  private async hasRole(centerId: string, userId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.centerId, centerId), eq(memberships.userId, userId)))
      .limit(1);
    return Boolean(row);
  }

  /**
   * One row per student and batch (with the batch's institute): their marks, and the closed
   * registers that have none of theirs (absent).
   */
  private async counted(scope: Scope): Promise<(AttendanceRowJson & { centerId: string })[]> {
    const sessions = and(
      scope.centerId ? eq(classSessions.centerId, scope.centerId) : undefined,
      between(classSessions.on, scope.from, scope.to),
      // Cancelled sessions never count, whatever marks they were given before the cancellation.
      eq(classSessions.status, "scheduled"),
      scope.batchId ? eq(classSessions.batchId, scope.batchId) : undefined,
      scope.teacherId ? eq(classSessions.teacherId, scope.teacherId) : undefined,
      scope.batchIds
        ? scope.batchIds.length > 0
          ? inArray(classSessions.batchId, scope.batchIds)
          : sql`false`
        : undefined,
    );
    /** The student filter on `student` (the marked or the admitted student's column). */
    const whose = (student: typeof attendanceMarks.userId | typeof batchStudents.userId) =>
      and(
        scope.studentId ? eq(student, scope.studentId) : undefined,
        scope.students
          ? or(...scope.students.map((s) => and(eq(student, s.studentId), eq(classSessions.centerId, s.centerId))))
          : undefined,
      );
    const marked = await this.db
      .select({
        studentId: attendanceMarks.userId,
        name: users.name,
        batchId: batches.id,
        batchName: batches.name,
        centerId: batches.centerId,
        status: attendanceMarks.status,
        n: count(),
      })
      .from(attendanceMarks)
      .innerJoin(classSessions, eq(classSessions.id, attendanceMarks.sessionId))
      .innerJoin(batches, eq(batches.id, classSessions.batchId))
      .innerJoin(users, eq(users.id, attendanceMarks.userId))
      .where(and(sessions, whose(attendanceMarks.userId)))
      .groupBy(attendanceMarks.userId, users.name, batches.id, batches.name, batches.centerId, attendanceMarks.status);
    const unmarked = await this.db
      .select({
        studentId: batchStudents.userId,
        name: users.name,
        batchId: batches.id,
        batchName: batches.name,
        centerId: batches.centerId,
        n: count(),
      })
      .from(classSessions)
      .innerJoin(
        attendanceRegisters,
        and(eq(attendanceRegisters.sessionId, classSessions.id), isNotNull(attendanceRegisters.closedAt)),
      )
      .innerJoin(batchStudents, and(eq(batchStudents.batchId, classSessions.batchId), admittedWhenHeld()))
      .innerJoin(batches, eq(batches.id, classSessions.batchId))
      .innerJoin(users, eq(users.id, batchStudents.userId))
      .where(
        and(
          sessions,
          whose(batchStudents.userId),
          sql`not exists (select 1 from ${attendanceMarks} where ${attendanceMarks.sessionId} = ${classSessions.id} and ${attendanceMarks.userId} = ${batchStudents.userId})`,
        ),
      )
      .groupBy(batchStudents.userId, users.name, batches.id, batches.name, batches.centerId);

    type Key = { studentId: string; name: string; batchId: string; batchName: string; centerId: string };
    const byKey = new Map<string, Key & Omit<AttendanceCounts, "sessions" | "percent">>();
    const entry = (r: Key) => {
      const key = `${r.studentId}:${r.batchId}`;
      let row = byKey.get(key);
      if (!row) {
        row = {
          studentId: r.studentId,
          name: r.name,
          batchId: r.batchId,
          batchName: r.batchName,
          centerId: r.centerId,
          present: 0,
          late: 0,
          absent: 0,
          excused: 0,
        };
        byKey.set(key, row);
      }
      return row;
    };
    for (const r of marked) entry(r)[r.status] += Number(r.n);
    for (const r of unmarked) entry(r).absent += Number(r.n);
    return [...byKey.values()]
      .map(({ studentId, name, batchId, batchName, centerId, ...counts }) => ({
        studentId,
        name,
        batchId,
        batchName,
        centerId,
        ...attendanceCounts(counts),
      }))
      .sort((a, b) => a.batchName.localeCompare(b.batchName) || a.name.localeCompare(b.name));
  }
}

/** The totals of report rows: attended, absent and excused summed, the percentage of the sum. */
function totalOf(rows: AttendanceCounts[]): AttendanceCounts {
  const sum = rows.reduce(
    (t, r) => ({
      present: t.present + r.present,
      late: t.late + r.late,
      absent: t.absent + r.absent,
      excused: t.excused + r.excused,
    }),
    { present: 0, late: 0, absent: 0, excused: 0 },
  );
  return attendanceCounts(sum);
}

/** The batch row of a student admitted when the session started (not waiting, not yet gone). */
function admittedWhenHeld(): SQL {
  return and(
    isNotNull(batchStudents.admittedAt),
    lte(batchStudents.admittedAt, classSessions.startsAt),
    or(isNull(batchStudents.leftAt), sql`${batchStudents.leftAt} > ${classSessions.startsAt}`),
  )!;
}

/** The student `userId` was admitted to the session's batch when it started. */
function inBatchWhenHeld(userId: string): SQL {
  return sql`exists (select 1 from ${batchStudents} where ${batchStudents.batchId} = ${classSessions.batchId} and ${batchStudents.userId} = ${userId} and ${admittedWhenHeld()})`;
}
