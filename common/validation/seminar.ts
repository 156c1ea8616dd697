import * as v from "valibot";
import { text } from "./account.ts";
import { INVALID_PHONE, isPhoneNumber } from "./phone.ts";

/**
 * The investment seminar booking (spec §5, §9): one set of rules for the /invest dialog and
 * POST /api/book. The dialog checks them first for speed; the server repeats every one.
 */

/** The first day of the online seminar series ("13th September onwards"). */
export const SEMINAR_FIRST_DATE = "2025-09-13";
/** The seminar runs on Indian time; "today" and "past" are judged there, in the browser and on the server alike. */
export const SEMINAR_TIME_ZONE = "Asia/Kolkata";

export const FILL_ALL_FIELDS = "Please fill in all fields";
export const INVALID_EMAIL = "Please enter a valid email address";
export const INVALID_DATE = "Please select a valid date";
export const PAST_DATE = "The seminar date cannot be in the past";
export const BEFORE_FIRST_DATE = "The seminar runs from 13th September onwards";
export const INVALID_TIME = "Please select one of the listed time slots";
export const TOO_LONG = "Please keep each field under 100 characters";

/** 10:00 AM to 08:30 PM, every 30 minutes, as the dropdown shows them. */
export const TIME_SLOTS: readonly string[] = Array.from({ length: 22 }, (_, i) => {
  const minutes = 10 * 60 + i * 30;
  const h24 = Math.floor(minutes / 60);
  const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
  return `${String(h12).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")} ${h24 < 12 ? "AM" : "PM"}`;
});

/** The spec's e-mail rule: something@something.something, no spaces. */
export function isSeminarEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

/** Today's date (yyyy-mm-dd) where the seminar happens. */
export function seminarToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: SEMINAR_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
}

/** The earliest date that can be booked today. */
export function firstBookableDate(today: string = seminarToday()): string {
  return today > SEMINAR_FIRST_DATE ? today : SEMINAR_FIRST_DATE;
}

function isRealDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Why a date cannot be booked, or null when it can. */
export function seminarDateProblem(value: string, today: string = seminarToday()): string | null {
  if (!isRealDate(value)) return INVALID_DATE;
  if (value < today) return PAST_DATE;
  if (value < SEMINAR_FIRST_DATE) return BEFORE_FIRST_DATE;
  return null;
}

const requiredText = (label: string, max = 100) =>
  v.pipe(text(FILL_ALL_FIELDS, label), v.trim(), v.nonEmpty(FILL_ALL_FIELDS), v.maxLength(max, TOO_LONG));

/**
 * Every field is required first ('Please fill in all fields'); only when all are present are the
 * formats checked, in the order the dialog reports them: email, phone, date, time.
 */
export const SeminarBookingInput = v.pipe(
  v.object({
    fullName: requiredText("Full name"),
    email: v.pipe(requiredText("Email", 254), v.toLowerCase()),
    phoneNumber: requiredText("Phone number", 30),
    city: requiredText("City"),
    country: requiredText("Country"),
    date: requiredText("Date", 10),
    time: requiredText("Time", 8),
  }),
  v.forward(
    v.check((input) => isSeminarEmail(input.email), INVALID_EMAIL),
    ["email"],
  ),
  v.forward(
    v.check((input) => isPhoneNumber(input.phoneNumber), INVALID_PHONE),
    ["phoneNumber"],
  ),
  v.forward(
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = seminarDateProblem(dataset.value.date);
      if (problem) addIssue({ message: problem });
    }),
    ["date"],
  ),
  v.forward(
    v.check((input) => TIME_SLOTS.includes(input.time), INVALID_TIME),
    ["time"],
  ),
);

export type SeminarBooking = v.InferOutput<typeof SeminarBookingInput>;
