import * as v from "valibot";

/** A day that exists (2027-02-30 does not), within the years the product deals in. */
export function isCalendarDate(value: string): boolean {
  const day = new Date(`${value}T00:00:00Z`);
  return (
    !Number.isNaN(day.getTime()) &&
    day.toISOString().slice(0, 10) === value &&
    value >= "2000-01-01" &&
    value <= "2100-12-31"
  );
}

/** A date as YYYY-MM-DD, named `label` in its message. */
export const calendarDate = (label: string) =>
  v.pipe(
    v.string(`${label} must be a date (YYYY-MM-DD)`),
    v.trim(),
    v.isoDate(`${label} must be a date (YYYY-MM-DD)`),
    v.check(isCalendarDate, `${label} must be a date (YYYY-MM-DD)`),
  );
