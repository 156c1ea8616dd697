import * as v from "valibot";
import { isCalendarDate } from "./dates.ts";
import { daysBetween } from "../india-dates.ts";
import { isUuid } from "./ids.ts";

/**
 * Attendance reports, flags and the institute's attendance policy (issue 41 §4): the API's
 * inputs, the answers' shapes and the words people read.
 */

/** An institute without a row in `attendance_policies` has these (the columns' defaults). */
export const ATTENDANCE_POLICY_DEFAULTS = {
  lateAfterMinutes: 10,
  onlineMinimumMinutes: 45,
  lowAttendancePercent: 75,
  absenceAlerts: true,
} as const;

/** What each number of the policy may be (the table's checks say the same). */
export const ATTENDANCE_POLICY_RANGES = {
  lateAfterMinutes: { min: 0, max: 240 },
  onlineMinimumMinutes: { min: 1, max: 600 },
  lowAttendancePercent: { min: 1, max: 100 },
} as const;

export const POLICY_TEXTS = {
  lateAfterMinutes: `Late after must be a whole number of minutes from ${ATTENDANCE_POLICY_RANGES.lateAfterMinutes.min} to ${ATTENDANCE_POLICY_RANGES.lateAfterMinutes.max}.`,
  onlineMinimumMinutes: `Online minimum must be a whole number of minutes from ${ATTENDANCE_POLICY_RANGES.onlineMinimumMinutes.min} to ${ATTENDANCE_POLICY_RANGES.onlineMinimumMinutes.max}.`,
  lowAttendancePercent: `Low attendance must be a whole percentage from ${ATTENDANCE_POLICY_RANGES.lowAttendancePercent.min} to ${ATTENDANCE_POLICY_RANGES.lowAttendancePercent.max}.`,
  absenceAlerts: "Absence alerts must be on or off (true or false).",
} as const;

export const INSTITUTE_NOT_FOUND = "Institute not found";
export const MONTH_TEXT = "Month must be a month (YYYY-MM)";
export const FROM_TEXT = "From must be a date (YYYY-MM-DD)";
export const TO_TEXT = "To must be a date (YYYY-MM-DD)";
export const TO_BEFORE_FROM = "The report cannot end before it starts.";
export const MONTH_OR_DATES = "Give a month, or from and to, not both.";
export const BOTH_DATES = "Give both from and to.";
export const ONE_FILTER = "Give at most one of studentId, batchId and teacherId.";
export const REPORT_TOO_LONG = "A report covers at most 366 days.";
export const STUDENT_NOT_FOUND = "Student not found";
export const TEACHER_NOT_FOUND = "Teacher not found";
export const BATCH_NOT_FOUND = "Batch not found";
/** A teacher asking about a batch they do not teach. */
export const NOT_YOUR_BATCH = "You can see the attendance of the batches you teach only.";
/** A teacher asking for another teacher's sessions. */
export const NOT_YOUR_TEACHING = "You can see your own sessions only.";
/** A student asking for someone else's record. */
export const ONLY_YOUR_OWN = "You can see your own attendance only.";
/** A parent reads their own children's attendance, one child at a time (`studentId`). */
export const ONLY_YOUR_CHILDREN = "You can see your own children's attendance only: name one of them (studentId).";
/** Roles with no attendance to see yet (a parent, until parents are linked to their children). */
export const NO_ATTENDANCE_ROLE = "Your role in this institute does not show attendance (attendance.view).";

/** The days a flag looks back over. */
export const FLAG_WINDOW_DAYS = 30;
/** The longest report (a year and a day). */
export const REPORT_MAX_DAYS = 366;

const centerId = v.optional(
  v.pipe(
    v.string(INSTITUTE_NOT_FOUND),
    v.check(isUuid, INSTITUTE_NOT_FOUND),
    v.description("The institute (else the institute's domain or the header's choice)"),
  ),
);

const idOf = (message: string, description: string) =>
  v.optional(v.pipe(v.string(message), v.check(isUuid, message), v.description(description)));

const date = (message: string, description: string) =>
  v.optional(
    v.pipe(
      v.string(message),
      v.trim(),
      v.isoDate(message),
      v.check(isCalendarDate, message),
      v.description(description),
    ),
  );

const month = v.optional(
  v.pipe(
    v.string(MONTH_TEXT),
    v.trim(),
    v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, MONTH_TEXT),
    v.check((m) => isCalendarDate(`${m}-01`), MONTH_TEXT),
    v.description("A month in India time, YYYY-MM (else from and to; neither: this month)"),
  ),
);

/** A month, or a range of India dates; neither is this month. */
const period = {
  month,
  from: date(FROM_TEXT, "First India date, YYYY-MM-DD (with to)"),
  to: date(TO_TEXT, "Last India date, YYYY-MM-DD (with from)"),
};
type Period = { month?: string; from?: string; to?: string };

/** What is wrong with a period's combination of fields, or null. */
function periodProblem(q: Period): string | null {
  if (q.month && (q.from !== undefined || q.to !== undefined)) return MONTH_OR_DATES;
  if ((q.from === undefined) !== (q.to === undefined)) return BOTH_DATES;
  if (q.from && q.to && q.to < q.from) return TO_BEFORE_FROM;
  if (q.from && q.to && daysBetween(q.from, q.to) >= REPORT_MAX_DAYS) return REPORT_TOO_LONG;
  return null;
}
const periodCheck = <T extends Period>() =>
  v.check<T, v.ErrorMessage<v.CheckIssue<T>>>(
    (q) => periodProblem(q) === null,
    (issue) => periodProblem(issue.input) ?? MONTH_OR_DATES,
  );

/** `GET /api/attendance`: whose attendance, over which days, and as JSON or CSV. */
export const AttendanceReportQuery = v.pipe(
  v.object({
    centerId,
    studentId: idOf(STUDENT_NOT_FOUND, "One student's rows (a student: only their own)"),
    batchId: idOf(BATCH_NOT_FOUND, "One batch's students"),
    teacherId: idOf(TEACHER_NOT_FOUND, "The sessions one teacher taught (a teacher: only their own)"),
    ...period,
    format: v.optional(
      v.pipe(
        v.picklist(["json", "csv"], "Format must be json or csv"),
        v.description("csv: the same rows as a CSV file (as Accept: text/csv)"),
      ),
    ),
  }),
  periodCheck(),
  v.check((q) => [q.studentId, q.batchId, q.teacherId].filter(Boolean).length <= 1, ONE_FILTER),
);
export type AttendanceReportQuery = v.InferOutput<typeof AttendanceReportQuery>;

/** `GET /api/attendance/teachers`. */
export const TeacherReportQuery = v.pipe(v.object({ centerId, ...period }), periodCheck());

/** `GET /api/attendance/flagged` and `GET /api/attendance/policy`. */
export const CenterQuery = v.object({ centerId });

const whole = (field: keyof typeof ATTENDANCE_POLICY_RANGES) =>
  v.pipe(
    v.number(POLICY_TEXTS[field]),
    v.integer(POLICY_TEXTS[field]),
    v.minValue(ATTENDANCE_POLICY_RANGES[field].min, POLICY_TEXTS[field]),
    v.maxValue(ATTENDANCE_POLICY_RANGES[field].max, POLICY_TEXTS[field]),
  );

/** `PUT /api/attendance/policy`: the whole policy at once. */
export const AttendancePolicyInput = v.object({
  centerId,
  lateAfterMinutes: whole("lateAfterMinutes"),
  onlineMinimumMinutes: whole("onlineMinimumMinutes"),
  lowAttendancePercent: whole("lowAttendancePercent"),
  absenceAlerts: v.boolean(POLICY_TEXTS.absenceAlerts),
});
export type AttendancePolicyInput = v.InferOutput<typeof AttendancePolicyInput>;

export interface AttendancePolicyJson {
  centerId: string;
  lateAfterMinutes: number;
  onlineMinimumMinutes: number;
  lowAttendancePercent: number;
  absenceAlerts: boolean;
  updatedAt: string | null;
}

/** Counts of one student in one batch over a period. */
export interface AttendanceCounts {
  present: number;
  late: number;
  absent: number;
  excused: number;
  /** Sessions that count: present, late and absent (excused ones are left out). */
  sessions: number;
  /** Attended (present + late) of `sessions`, to one decimal; null with no session counted. */
  percent: number | null;
}

export interface AttendanceRowJson extends AttendanceCounts {
  studentId: string;
  name: string;
  batchId: string;
  batchName: string;
}

export interface AttendanceReportJson {
  from: string;
  to: string;
  rows: AttendanceRowJson[];
  totals: AttendanceCounts;
}

export interface TeacherRowJson {
  teacherId: string;
  name: string;
  /** Sessions held (started, not cancelled) in the period. */
  sessions: number;
  /** Of those, registers closed. */
  closed: number;
  /** Of those, registers still open. */
  open: number;
}

export interface FlaggedStudentJson {
  studentId: string;
  name: string;
  batchId: string;
  batchName: string;
  percent: number;
  sessions: number;
}

/** A student's own session, with their mark (null: the register is still open and they are not marked). */
export interface StudentSessionJson {
  sessionId: string;
  batchId: string;
  batchName: string;
  on: string;
  start: string;
  subject: string;
  status: "present" | "late" | "absent" | "excused" | null;
}

export const ATTENDANCE_STATUS_LABELS = {
  present: "Present",
  late: "Late",
  absent: "Absent",
  excused: "Excused",
} as const;

/** The percentage rule: attended = present + late; excused is left out; null when nothing counts. */
export function attendanceCounts(c: {
  present: number;
  late: number;
  absent: number;
  excused: number;
}): AttendanceCounts {
  const sessions = c.present + c.late + c.absent;
  const percent = sessions === 0 ? null : Math.round(((c.present + c.late) * 1000) / sessions) / 10;
  return { ...c, sessions, percent };
}

/** Whether counts fall below the institute's threshold (compared exactly, not on the rounded figure). */
export function belowThreshold(c: AttendanceCounts, thresholdPercent: number): boolean {
  return c.sessions > 0 && (c.present + c.late) * 100 < thresholdPercent * c.sessions;
}

/** The first and last India dates of a month (YYYY-MM). */
export function monthRange(month: string): { from: string; to: string } {
  const [y, m] = month.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, "0")}` };
}
