import * as v from "valibot";
import { text } from "./account.ts";
import { isUuid } from "./ids.ts";

/**
 * Attendance registers (issue 41 §3, decision 0044): the API's bodies, what it answers, and the
 * words people read. One register per class session; one mark per student in it, whatever made it.
 */

export const ATTENDANCE_STATUSES = ["present", "absent", "late", "excused"] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];
export const ATTENDANCE_SOURCES = ["roll-call", "qr", "online", "correction"] as const;
export type AttendanceSource = (typeof ATTENDANCE_SOURCES)[number];

export const STATUS_LABELS: Record<AttendanceStatus, string> = {
  present: "Present",
  absent: "Absent",
  late: "Late",
  excused: "Excused",
};

export const SOURCE_LABELS: Record<AttendanceSource, string> = {
  "roll-call": "Roll-call",
  qr: "QR code",
  online: "Online class",
  correction: "Correction",
};

/** An institute without a policy row has these. */
export const DEFAULT_LATE_AFTER_MINUTES = 10;
export const DEFAULT_ONLINE_MINIMUM_MINUTES = 45;
/** Roll-call opens this long before the class starts. */
export const ROLL_CALL_OPENS_MINUTES = 15;
/** The QR code is shown (and taken) from this long before the class starts until it ends. */
export const QR_OPENS_MINUTES = 10;
/** A QR code lasts one window; the previous window's is still taken this long after it rotates. */
export const QR_WINDOW_MS = 20_000;
export const QR_GRACE_MS = 5_000;
/** The join page beats this often; a rejoin within ONLINE_MERGE_MS of the last beat continues the interval. */
export const ONLINE_BEAT_MS = 60_000;
export const ONLINE_MERGE_MS = 2 * 60_000;
/** The cookie that names a phone for QR self-marking (one phone marks one student per session). */
export const DEVICE_COOKIE = "pathshala_device";

export const SESSION_NOT_FOUND = "Class not found";
export const STUDENT_NOT_FOUND = "This student has no mark in this class.";
export const NOT_YOUR_SESSION = "You can mark only the registers of classes you teach.";
export const SESSION_CANCELLED = "This class was cancelled: it has no attendance to mark.";
export const NOT_STARTED = `This class has not started yet: its register opens ${ROLL_CALL_OPENS_MINUTES} minutes before it starts.`;
export const REGISTER_CLOSED = "This register is closed: correct a mark with a reason.";
export const notInBatch = (who: string) => `${who} is not admitted in this class's batch.`;
export const QR_NOT_RUNNING = `The QR code works only while the class runs: from ${QR_OPENS_MINUTES} minutes before it starts until it ends.`;
export const QR_INVALID = "This is not a Pathshala attendance code. Scan the code on your teacher's screen.";
export const QR_EXPIRED =
  "This code has expired: it changes every 20 seconds. Scan the code on your teacher's screen again.";
export const QR_NOT_STUDENT = "You are not a student of this class's batch.";
export const QR_PHONE_USED = "This phone has already marked attendance for another student.";
export const QR_OTHER_PHONE = "You have already marked attendance for this class from another phone.";
export const QR_REGISTER_CLOSED = "This register is closed: ask your teacher to mark you.";
export const NOT_ONLINE = "This class is not held online.";
export const ONLINE_NOT_RUNNING =
  "You can join only while the class runs: from 10 minutes before it starts until it ends.";
export const ONLINE_NOT_STUDENT = "You are not a student of this class's batch.";
export const ONLINE_NOT_JOINED = "Join the class first.";

/** The join page's own words (a click on the meeting link is not attendance: the page is). */
export const KEEP_PAGE_OPEN = "Keep this page open during the class: it records your attendance.";
export const SAVED_ON_PHONE = "Saved on this phone. It will be sent when you are back online.";
export const ALL_SENT = "All marks sent.";

const MINUTES_LATE = "Minutes late must be a whole number from 0 to 600";
const minutesLate = v.optional(
  v.nullable(
    v.pipe(v.number(MINUTES_LATE), v.integer(MINUTES_LATE), v.minValue(0, MINUTES_LATE), v.maxValue(600, MINUTES_LATE)),
  ),
);
const STATUS = 'Status must be "present", "absent", "late" or "excused"';
const status = v.picklist(ATTENDANCE_STATUSES, STATUS);
const studentId = v.pipe(v.string("Student must be an id"), v.check(isUuid, "Student must be an id"));

/** The most marks one PUT carries: a big class, with room to spare. */
export const MARKS_MAX = 500;
const SEQ = "seq must be a positive whole number (the phone's clock in milliseconds when the marks were taken)";

/** `PUT /api/sessions/{id}/attendance`: marks taken on a phone at `seq` (its clock, ms). */
export const MarksInput = v.object({
  marks: v.pipe(
    v.array(
      v.object({ studentId, status, minutesLate }, "Each mark must be {studentId, status, minutesLate?}"),
      "marks must be a list",
    ),
    v.minLength(1, "Mark at least one student"),
    v.maxLength(MARKS_MAX, `At most ${MARKS_MAX} marks at once`),
  ),
  seq: v.pipe(v.number(SEQ), v.safeInteger(SEQ), v.minValue(1, SEQ)),
});
export type MarksInput = v.InferOutput<typeof MarksInput>;

export const REASON_REQUIRED = "Give a reason for the correction (3 to 300 characters).";

/** `POST /api/sessions/{id}/attendance/{studentId}/correction`. */
export const CorrectionInput = v.object({
  status,
  minutesLate,
  reason: v.pipe(
    text(REASON_REQUIRED, "Reason"),
    v.trim(),
    v.minLength(3, REASON_REQUIRED),
    v.maxLength(300, REASON_REQUIRED),
  ),
});
export type CorrectionInput = v.InferOutput<typeof CorrectionInput>;

/** `POST /api/attendance/qr`: the code the phone scanned. */
export const QrScanInput = v.object({
  code: v.pipe(v.string(QR_INVALID), v.maxLength(200, QR_INVALID)),
});

export interface PersonJson {
  _id: string;
  name: string;
}

/** A class session as everyone who returns one shows it (the meeting link is never in it). */
/** A class session as every part of issue 41 returns one (common/validation/timetables.ts). */
import type { SessionJson } from "./timetables.ts";
export type { SessionJson };

export interface RegisterStudentJson {
  studentId: string;
  name: string;
  status: AttendanceStatus | null;
  minutesLate: number | null;
  onlineMinutes: number | null;
  source: AttendanceSource | null;
  markedAt: string | null;
}

export type RegisterCounts = Record<AttendanceStatus | "unmarked", number>;

export interface RegisterJson {
  session: SessionJson;
  closedAt: string | null;
  /** The newest roll-call seq applied to any mark (0 before the first). */
  seq: number;
  lateAfterMinutes: number;
  students: RegisterStudentJson[];
  counts: RegisterCounts;
}

export interface MarkChangeJson {
  _id: string;
  studentId: string;
  student: string;
  from: AttendanceStatus | null;
  to: AttendanceStatus;
  source: AttendanceSource;
  reason: string | null;
  by: PersonJson | null;
  at: string;
}

export interface QrCodeJson {
  code: string;
  expiresAt: string;
  url: string;
}

/** What a scan did: what the code says (`status`) and the mark as it stands after the merge (`mark`). */
export interface QrScanJson {
  status: "present" | "late";
  mark: AttendanceStatus;
  session: SessionJson;
}

/** The phone's words for a status (present/late: "Marked present" / "Marked late"). */
export const markedText = (s: AttendanceStatus) => `Marked ${STATUS_LABELS[s].toLowerCase()}`;
