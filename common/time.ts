/**
 * Times on every page, in India's time zone on the server and in the browser alike. A page that
 * formats a time in the process's zone renders UTC on the server and India time once the browser
 * hydrates it: the text differs and React throws away the server's HTML (error 418), which the walk
 * found on two pages (issue 38 §6). Institutes are in India and the product's times are IST, so the
 * zone is fixed here, not taken from wherever the code runs.
 */
export const INDIA_TIME_ZONE = "Asia/Kolkata";

const STYLES = {
  /** "29 Nov 2026, 6:30 pm": a moment on a list (leads, bookings, settings saved). */
  dateTime: { day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit" },
  /** "29 Nov, 6:30 pm": this year's activity and messages. */
  dayTime: { day: "numeric", month: "short", hour: "numeric", minute: "2-digit" },
  /** "Sun, 29 Nov, 6:30 pm": a class's start. */
  weekdayTime: { weekday: "short", day: "numeric", month: "short", hour: "numeric", minute: "2-digit" },
  /** "6:30 pm": a time of day. */
  time: { hour: "numeric", minute: "2-digit" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type TimeStyle = keyof typeof STYLES;

const formats = new Map<TimeStyle, Intl.DateTimeFormat>();

/**
 * A moment as India reads it ("29 Nov 2026, 6:30 pm"). ICU versions differ in the space before
 * am/pm (a narrow no-break space in newer ones): it is always a plain space, so Node's text and
 * the browser's are the same.
 */
export function formatTime(at: string | number | Date, style: TimeStyle = "dateTime"): string {
  let format = formats.get(style);
  if (!format) {
    format = new Intl.DateTimeFormat("en-IN", { ...STYLES[style], timeZone: INDIA_TIME_ZONE });
    formats.set(style, format);
  }
  return format.format(new Date(at)).replace(/[\u202f\u00a0]/g, " ");
}
