import { createHmac, randomBytes } from "node:crypto";
import { createEvents, type EventAttributes } from "ics";
import type { Db } from "../../db/types.ts";
import { ensureMeta } from "../meta.ts";
import { timingSafeEqualText } from "../../auth/tokens.ts";
import { isUuid } from "#common/validation/ids.ts";
import type { SessionJson } from "#common/validation/timetables.ts";

/** The stored secret calendar addresses are signed with (made once, kept in app_meta). */
export const CALENDAR_SECRET_META = "calendar_signing_secret";

/**
 * A person's private calendar address (decision 0043): their user id and an HMAC of it with the
 * server's own secret, so it needs no table and cannot be made for someone else. It lasts as long
 * as the secret; whoever holds the address reads that person's classes, as with any calendar feed.
 */
export class CalendarTokens {
  private readonly db: Db;
  private secretPromise: Promise<Buffer> | undefined;

  constructor(db: Db) {
    this.db = db;
  }

  async tokenFor(userId: string): Promise<string> {
    return `${userId}.${await this.sign(userId)}`;
  }

  /** The user a token was made for, or null for anything else. */
  async userOf(token: string): Promise<string | null> {
    const [userId, signature, ...rest] = token.split(".");
    if (rest.length > 0 || !userId || !signature || !isUuid(userId)) return null;
    return timingSafeEqualText(signature, await this.sign(userId)) ? userId : null;
  }

  private async sign(userId: string): Promise<string> {
    const secret = await this.secret();
    return createHmac("sha256", secret).update(`calendar\n${userId.toLowerCase()}`).digest("base64url").slice(0, 32);
  }

  private secret(): Promise<Buffer> {
    this.secretPromise ??= ensureMeta(this.db, CALENDAR_SECRET_META, () => randomBytes(32).toString("base64url"))
      .then((value) => Buffer.from(value, "base64url"))
      .catch((error) => {
        this.secretPromise = undefined;
        throw error;
      });
    return this.secretPromise;
  }
}

const utc = (iso: string): [number, number, number, number, number] => {
  const d = new Date(iso);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()];
};

/** The sessions as an iCalendar file: times in UTC, a cancelled class as STATUS:CANCELLED. */
export function sessionsCalendar(sessions: SessionJson[], calendarName: string): string {
  if (sessions.length === 0)
    // The library refuses an empty list; an empty calendar is still a calendar.
    return [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:pathshala",
      `X-WR-CALNAME:${calendarName}`,
      "END:VCALENDAR",
      "",
    ].join("\r\n");
  const events: EventAttributes[] = sessions.map((s) => ({
    uid: `${s._id}@pathshala`,
    start: utc(s.startsAt),
    startInputType: "utc",
    startOutputType: "utc",
    end: utc(s.endsAt),
    endInputType: "utc",
    endOutputType: "utc",
    title: `${s.subject} · ${s.batchName}`,
    description:
      [s.teacher ? `Teacher: ${s.teacher.name}` : null, s.changeNote].filter(Boolean).join("\n") || undefined,
    location: s.online ? "Online" : (s.room ?? undefined),
    status: s.status === "cancelled" ? "CANCELLED" : "CONFIRMED",
    productId: "pathshala",
    calName: calendarName,
  }));
  const { error, value } = createEvents(events);
  if (error || !value) throw error ?? new Error("the calendar could not be written");
  return value;
}
