import * as v from "valibot";
import { calendarDate as dateText } from "./dates.ts";
import { storable } from "./storable.ts";
import { isUuid } from "./ids.ts";
import { WEEKDAYS, clockText, dayText, minuteOf } from "../india-dates.ts";

/**
 * Timetables, holidays and class sessions (issue 41 §2, decision 0043): the API's bodies and the
 * messages people read. Times are `HH:MM` India time, dates `YYYY-MM-DD` India dates, weekdays
 * 1–7 with Monday 1 (ISO 8601).
 */

export const SESSION_NOT_FOUND = "Class not found";
export const HOLIDAY_NOT_FOUND = "Holiday not found";
export const TIMETABLE_SLOTS_MAX = 60;
/** The longest span one request for sessions may cover. */
export const SESSIONS_RANGE_MAX_DAYS = 92;
export const SESSIONS_RANGE_TOO_LONG = `Ask for at most ${SESSIONS_RANGE_MAX_DAYS} days of classes at once.`;
export const SESSIONS_RANGE_BACKWARDS = "The end of the range (to) cannot be before its start (from).";
export const SESSIONS_WHICH = "Name a batch (batchId) or ask for your own classes (mine=1).";
export const WEEKDAY_WRONG = "Weekday must be a whole number from 1 (Monday) to 7 (Sunday).";
export const TIME_WRONG = (label: string) => `${label} must be a time of day (HH:MM, India time).`;
export const END_NOT_AFTER_START = "A class must end after it starts.";
export const MEETING_URL_HTTPS = "The meeting link must be an https:// address.";
export const MEETING_URL_ONLINE_ONLY = "Only an online class has a meeting link.";
export const HOLIDAY_BATCH_ELSEWHERE = "That batch is not one of this institute's.";
export const CALENDAR_NOT_FOUND = "Calendar not found";

export const slotText = (s: { weekday: number; start: string; end: string; subject: string }) =>
  `${s.subject} on ${WEEKDAYS[s.weekday - 1]} ${s.start}–${s.end}`;
export const SLOTS_OVERLAP = (
  a: { weekday: number; start: string; end: string; subject: string },
  b: { weekday: number; start: string; end: string; subject: string },
) => `Two of this batch's classes overlap: ${slotText(a)} and ${slotText(b)}.`;

/** A clash with another batch's weekly slot (409). */
export const TEACHER_CLASH = (teacher: string, batch: string, weekday: number, start: number, end: number) =>
  `${teacher} already teaches ${batch} on ${WEEKDAYS[weekday - 1]} ${clockText(start)}–${clockText(end)}.`;
export const ROOM_CLASH = (room: string, batch: string, weekday: number, start: number, end: number) =>
  `${room} is taken by ${batch} on ${WEEKDAYS[weekday - 1]} ${clockText(start)}–${clockText(end)}.`;
/** A clash with another class on a given day (409). */
export const TEACHER_BUSY = (teacher: string, batch: string, on: string, start: string, end: string) =>
  `${teacher} already teaches ${batch} on ${dayText(on)} ${start}–${end}.`;
export const ROOM_BUSY = (room: string, batch: string, on: string, start: string, end: string) =>
  `${room} is taken by ${batch} on ${dayText(on)} ${start}–${end}.`;
export const OUTSIDE_BATCH_DATES = (startsOn: string, endsOn: string | null) =>
  endsOn
    ? `Pick a day within the batch's dates: ${dayText(startsOn)} to ${dayText(endsOn)}.`
    : `Pick a day from the batch's start, ${dayText(startsOn)}, onwards.`;

const timeText = (label: string) =>
  v.pipe(
    v.string(TIME_WRONG(label)),
    v.trim(),
    v.check((s) => !Number.isNaN(minuteOf(s)), TIME_WRONG(label)),
  );

const optionalText = (label: string, max: number) =>
  v.optional(
    v.pipe(
      v.string(`${label} must be text`),
      storable(label),
      v.trim(),
      v.maxLength(max, `${label} is too long (${max} characters at most)`),
    ),
  );

const teacherId = v.optional(
  v.nullable(v.pipe(v.string("Teacher must be an account id"), v.check(isUuid, "Teacher must be an account id"))),
);

const meetingUrl = v.optional(
  v.nullable(
    v.pipe(
      v.string(MEETING_URL_HTTPS),
      v.trim(),
      v.maxLength(500, "The meeting link is too long (500 characters at most)"),
      v.check((s) => s === "" || isHttps(s), MEETING_URL_HTTPS),
    ),
  ),
);

function isHttps(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "https:" && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** What a class is, wherever it sits: its subject, teacher, and room or meeting. */
const classFields = {
  start: timeText("Start"),
  end: timeText("End"),
  subject: v.pipe(
    v.string("Subject is required"),
    storable("Subject"),
    v.trim(),
    v.nonEmpty("Subject is required"),
    v.maxLength(80, "Subject is too long (80 characters at most)"),
  ),
  teacherId,
  room: optionalText("Room", 60),
  online: v.optional(v.boolean("Online must be true or false"), false),
  meetingUrl,
};

const endsAfterStart = <T extends { start: string; end: string }>() =>
  v.check<T, string>((s) => minuteOf(s.end) > minuteOf(s.start), END_NOT_AFTER_START);
const linkOnlyOnline = <T extends { online: boolean; meetingUrl?: string | null }>() =>
  v.check<T, string>((s) => s.online || !s.meetingUrl, MEETING_URL_ONLINE_ONLY);

export const SlotInput = v.pipe(
  v.object({
    weekday: v.pipe(
      v.number(WEEKDAY_WRONG),
      v.integer(WEEKDAY_WRONG),
      v.minValue(1, WEEKDAY_WRONG),
      v.maxValue(7, WEEKDAY_WRONG),
    ),
    ...classFields,
  }),
  v.forward(endsAfterStart(), ["end"]),
  v.forward(linkOnlyOnline(), ["meetingUrl"]),
);
export type SlotInput = v.InferOutput<typeof SlotInput>;

/** `POST /api/batches/{id}/timetable`: the batch's whole week; it replaces the one before. */
export const TimetableInput = v.object({
  slots: v.pipe(
    v.array(SlotInput, "slots must be a list of classes"),
    v.maxLength(TIMETABLE_SLOTS_MAX, `A week has at most ${TIMETABLE_SLOTS_MAX} classes`),
  ),
});

/** `POST /api/batches/{id}/sessions`: a one-off class on one day. */
export const ExtraSessionInput = v.pipe(
  v.object({ on: dateText("Date"), ...classFields }),
  v.forward(endsAfterStart(), ["end"]),
  v.forward(linkOnlyOnline(), ["meetingUrl"]),
);
export type ExtraSessionInput = v.InferOutput<typeof ExtraSessionInput>;

const note = optionalText("Note", 200);

/** `PATCH /api/sessions/{id}`: one class changed on its own. */
export const SessionChangeInput = v.variant(
  "action",
  [
    v.object({ action: v.literal("cancel"), note }),
    v.pipe(
      v.object({
        action: v.literal("reschedule"),
        on: dateText("Date"),
        start: timeText("Start"),
        end: timeText("End"),
        note,
      }),
      v.forward(endsAfterStart(), ["end"]),
    ),
    v.object({
      action: v.literal("substitute"),
      teacherId: v.pipe(v.string("Teacher must be an account id"), v.check(isUuid, "Teacher must be an account id")),
      note,
    }),
    v.object({ action: v.literal("restore") }),
  ],
  "action must be cancel, reschedule, substitute or restore",
);
export type SessionChangeInput = v.InferOutput<typeof SessionChangeInput>;

const centerId = v.optional(v.pipe(v.string("Institute not found"), v.check(isUuid, "Institute not found")));

/** `POST /api/holidays`: a day off for the whole institute, or one batch (batchId). */
export const HolidayInput = v.object({
  centerId,
  batchId: v.optional(v.nullable(v.pipe(v.string("Batch not found"), v.check(isUuid, "Batch not found")))),
  on: dateText("Date"),
  name: v.pipe(
    v.string("Name the holiday"),
    storable("Holiday"),
    v.trim(),
    v.nonEmpty("Name the holiday"),
    v.maxLength(80, "The holiday's name is too long (80 characters at most)"),
  ),
});
export type HolidayInput = v.InferOutput<typeof HolidayInput>;

export const HolidaysQuery = v.object({ centerId });

/** `GET /api/sessions`: one batch's classes, or the caller's own (`mine=1`), between two India dates. */
export const SessionsQuery = v.object({
  batchId: v.optional(v.pipe(v.string("Batch not found"), v.check(isUuid, "Batch not found"))),
  mine: v.optional(v.picklist(["1", "true"], "mine must be 1")),
  from: v.optional(dateText("from")),
  to: v.optional(dateText("to")),
});
export type SessionsQuery = v.InferOutput<typeof SessionsQuery>;

export type SessionStatus = "scheduled" | "cancelled";

/** A class session as every part of the product returns it (the meeting link never: students reach it through the join page). */
export interface SessionJson {
  _id: string;
  batchId: string;
  batchName: string;
  on: string;
  startsAt: string;
  endsAt: string;
  start: string;
  end: string;
  subject: string;
  teacher: { _id: string; name: string } | null;
  substituteFor: { _id: string; name: string } | null;
  room: string | null;
  online: boolean;
  status: SessionStatus;
  changeNote: string | null;
  rescheduledFrom: string | null;
}

/** A weekly slot as the timetable returns it (the batch's staff see its meeting link). */
export interface SlotJson {
  _id: string;
  weekday: number;
  start: string;
  end: string;
  subject: string;
  teacher: { _id: string; name: string } | null;
  room: string | null;
  online: boolean;
  meetingUrl: string | null;
}

export interface HolidayJson {
  _id: string;
  centerId: string;
  batchId: string | null;
  batchName: string | null;
  on: string;
  name: string;
  /** Classes it cancelled (when it was declared). */
  cancelled?: number;
}
