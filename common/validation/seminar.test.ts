import { describe, expect, it } from "vitest";
import * as v from "valibot";
import {
  BEFORE_FIRST_DATE,
  firstBookableDate,
  INVALID_DATE,
  isSeminarEmail,
  PAST_DATE,
  SeminarBookingInput,
  seminarDateProblem,
  seminarToday,
  TIME_SLOTS,
} from "./seminar";
import { isPhoneNumber } from "./phone";

describe("seminar booking rules", () => {
  it("offers 30-minute slots from 10:00 AM to 08:30 PM", () => {
    expect(TIME_SLOTS).toHaveLength(22);
    expect(TIME_SLOTS[0]).toBe("10:00 AM");
    expect(TIME_SLOTS[1]).toBe("10:30 AM");
    expect(TIME_SLOTS).toContain("11:30 AM");
    expect(TIME_SLOTS).toContain("12:00 PM");
    expect(TIME_SLOTS).toContain("12:30 PM");
    expect(TIME_SLOTS).toContain("01:00 PM");
    expect(TIME_SLOTS.at(-1)).toBe("08:30 PM");
    expect(TIME_SLOTS).not.toContain("09:00 PM");
  });

  it("accepts e-mails without spaces and with a dotted domain", () => {
    expect(isSeminarEmail("asha@example.in")).toBe(true);
    for (const bad of ["asha", "asha@example", "as ha@example.in", "@example.in", "asha@.in x"])
      expect(isSeminarEmail(bad)).toBe(false);
  });

  it("accepts valid Indian and international numbers (libphonenumber-js), spaces, dashes and parentheses as typed", () => {
    for (const good of ["+91 98765 43210", "(33) 2345-6789", "9876543210", "+1-212-555-0100", "(033) 2345-6789"]) {
      expect(isPhoneNumber(good), good).toBe(true);
    }
    for (const bad of [
      "12",
      "+0 98765",
      "1",
      "98765x43210",
      "+1234567890123456",
      "++91 98765",
      "+91 12345",
      "0000000000",
    ]) {
      expect(isPhoneNumber(bad), bad).toBe(false);
    }
  });

  it("judges today in India, not in the server's zone", () => {
    // 20:00 UTC on 1 Oct is already 2 Oct in Kolkata (UTC+5:30).
    expect(seminarToday(new Date("2026-10-01T20:00:00Z"))).toBe("2026-10-02");
    expect(seminarToday(new Date("2026-10-01T18:00:00Z"))).toBe("2026-10-01");
  });

  it("refuses past days, days before 13 September and impossible dates", () => {
    expect(seminarDateProblem("2026-11-20", "2026-11-21")).toBe(PAST_DATE);
    expect(seminarDateProblem("2026-11-21", "2026-11-21")).toBeNull();
    expect(seminarDateProblem("2025-09-12", "2025-09-01")).toBe(BEFORE_FIRST_DATE);
    expect(seminarDateProblem("2025-09-13", "2025-09-01")).toBeNull();
    expect(seminarDateProblem("2027-02-30", "2026-11-21")).toBe(INVALID_DATE);
    expect(seminarDateProblem("21/11/2026", "2026-11-21")).toBe(INVALID_DATE);
    expect(firstBookableDate("2025-09-01")).toBe("2025-09-13");
    expect(firstBookableDate("2026-11-21")).toBe("2026-11-21");
  });

  it("trims every value and lower-cases the e-mail", () => {
    const out = v.parse(SeminarBookingInput, {
      fullName: "  Asha Rao ",
      email: " Asha@Example.IN ",
      phoneNumber: " +91 98765 43210 ",
      city: " Kolkata ",
      country: " India ",
      date: seminarToday(),
      time: " 10:30 AM ",
    });
    expect(out).toEqual({
      fullName: "Asha Rao",
      email: "asha@example.in",
      phoneNumber: "+91 98765 43210",
      city: "Kolkata",
      country: "India",
      date: seminarToday(),
      time: "10:30 AM",
    });
  });

  it("reports a missing field before any format problem", () => {
    const result = v.safeParse(SeminarBookingInput, {
      fullName: "A",
      email: "bad",
      phoneNumber: "x",
      city: " ",
      country: "India",
      date: "x",
      time: "y",
    });
    expect(result.success).toBe(false);
    expect(result.issues?.[0].message).toBe("Please fill in all fields");
  });
});
