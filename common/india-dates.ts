/**
 * India's calendar arithmetic for timetables (issue 41 §2): India keeps UTC+5:30 all year (no
 * daylight saving), so a date and a minute of the day make one instant by a fixed offset, the
 * same on the server and in the browser. Dates are `YYYY-MM-DD`, times of day `HH:MM`.
 */

const OFFSET_MS = (5 * 60 + 30) * 60_000;
const DAY_MS = 86_400_000;

export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

/** The India date of an instant. */
export function indiaDate(at: number | Date | string): string {
  return new Date(new Date(at).getTime() + OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant of `minute` minutes after midnight, India time, on India date `date`. */
export function indiaInstant(date: string, minute = 0): Date {
  return new Date(Date.parse(`${date}T00:00:00Z`) - OFFSET_MS + minute * 60_000);
}

/** Minutes after India's midnight of an instant. */
export function indiaMinute(at: number | Date | string): number {
  const shifted = new Date(at).getTime() + OFFSET_MS;
  return Math.floor((((shifted % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
}

/** ISO 8601 weekday of a date: Monday 1 … Sunday 7. */
export function weekdayOf(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The Monday of the week a date is in. */
export function mondayOf(date: string): string {
  return addDays(date, 1 - weekdayOf(date));
}

/** "09:30" for 570. */
export function clockText(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

/** 570 for "09:30"; NaN for anything that is not a time of day (24:00 is the end of a day). */
export function minuteOf(text: string): number {
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text);
  if (!match) return Number.NaN;
  const minute = Number(match[1]) * 60 + Number(match[2]);
  return minute <= 1440 ? minute : Number.NaN;
}

/** "Monday 7 June 2027": a session's day in messages. */
export function dayText(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const month = d.toLocaleString("en-GB", { month: "long", timeZone: "UTC" });
  return `${WEEKDAYS[weekdayOf(date) - 1]} ${d.getUTCDate()} ${month} ${d.getUTCFullYear()}`;
}
