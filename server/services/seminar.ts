import { count, desc, eq } from "drizzle-orm";
import { seminarBookings } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { conflict, parseWith } from "../http/errors.ts";
import { SeminarBookingInput } from "#common/validation/seminar.ts";
import { RATE_RULES, type RateLimiter } from "./rate-limit.ts";
import { tooMany } from "./accounts.ts";
import type { MessageService } from "../messages/service.ts";
import { e164 } from "../messages/phone.ts";

export type SeminarBookingRow = typeof seminarBookings.$inferSelect;

/** Contains 'already registered': the dialog recognises it and shows the spec's duplicate text. */
export const ALREADY_REGISTERED = "This email is already registered for the seminar on this date.";

/** A booking as the API answers it. */
export interface SeminarBookingJson {
  _id: string;
  fullName: string;
  email: string;
  phoneNumber: string;
  city: string;
  country: string;
  date: string;
  time: string;
  createdAt: string;
}

export function toBookingJson(row: SeminarBookingRow): SeminarBookingJson {
  return {
    _id: row.id,
    fullName: row.fullName,
    email: row.email,
    phoneNumber: row.phoneNumber,
    city: row.city,
    country: row.country,
    date: row.date,
    time: row.time,
    createdAt: row.createdAt.toISOString(),
  };
}

export const BOOKING_CSV_COLUMNS = [
  "Full Name",
  "Email",
  "Phone Number",
  "City",
  "Country",
  "Date",
  "Time",
  "Registered At",
] as const;

/**
 * One CSV cell. Cells a spreadsheet would run as a formula (=, +, -, @, tab, CR first) are
 * prefixed with an apostrophe: the values come from anonymous visitors. Plain numbers such as
 * "+91 98765 43210" (digits, spaces, + - and parentheses only) cannot call anything and stay as typed.
 */
export function csvCell(value: string): string {
  const plainNumber = /^[+-]?[\d\s()-]+$/.test(value);
  const safe = !plainNumber && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function bookingsCsv(rows: SeminarBookingRow[]): string {
  const lines = [BOOKING_CSV_COLUMNS.join(",")];
  for (const r of rows) {
    lines.push(
      [r.fullName, r.email, r.phoneNumber, r.city, r.country, r.date, r.time, r.createdAt.toISOString()]
        .map(csvCell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** "Sunday, 13 September 2026" for the booking's yyyy-mm-dd. */
function seminarDate(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en-IN", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** Investment seminar registrations: taken from the public /invest page, read by admins. */
export class SeminarService {
  private readonly db: Db;
  private readonly limiter: RateLimiter;

  private readonly messages: MessageService;

  constructor(db: Db, limiter: RateLimiter, messages: MessageService) {
    this.db = db;
    this.limiter = limiter;
    this.messages = messages;
  }

  /**
   * Registers a visitor. Every attempt from an address counts towards its hourly limit, so a
   * script cannot fill the table; one email may book each date once.
   */
  async book(input: unknown, ip: string): Promise<SeminarBookingRow> {
    const decision = await this.limiter.hit(RATE_RULES.bookingIp, ip);
    if (!decision.allowed) throw tooMany(decision.retryAfter);
    const data = parseWith(SeminarBookingInput, input);
    const row = await this.db.transaction(async (tx) => {
      const [booked] = await tx
        .insert(seminarBookings)
        .values(data)
        .onConflictDoNothing({ target: [seminarBookings.email, seminarBookings.date] })
        .returning();
      // The WhatsApp confirmation the booking's toast promises (and an e-mail), with nothing the
      // visitor typed in it: the address is theirs only by their word (issue 37 §6).
      if (booked)
        await this.messages.send(tx, {
          template: "seminar-booked",
          values: { date: seminarDate(booked.date), time: booked.time },
          to: { email: booked.email, phone: e164(booked.phoneNumber) },
        });
      return booked;
    });
    if (!row) throw conflict(ALREADY_REGISTERED);
    return row;
  }

  /** Newest first; optionally one seminar date. */
  async list({ limit = 50, offset = 0, date }: { limit?: number; offset?: number; date?: string } = {}) {
    const where = date ? eq(seminarBookings.date, date) : undefined;
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(seminarBookings)
        .where(where)
        .orderBy(desc(seminarBookings.createdAt), desc(seminarBookings.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(seminarBookings).where(where),
    ]);
    return { rows, total };
  }

  /** Every booking for the CSV export, by seminar date then registration time. */
  async all(date?: string): Promise<SeminarBookingRow[]> {
    return this.db
      .select()
      .from(seminarBookings)
      .where(date ? eq(seminarBookings.date, date) : undefined)
      .orderBy(seminarBookings.date, seminarBookings.createdAt);
  }
}
