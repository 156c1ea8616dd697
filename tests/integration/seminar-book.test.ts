import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { seminarBookings } from "../../server/db/schema/index.ts";
import { createOrPromoteAdmin } from "../../server/services/admins.ts";
import { seminarToday } from "#common/validation/seminar.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser, uniqueEmail } from "../helpers/http.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
});
afterAll(() => t.close());

let ipCounter = 0;
/** A fresh client address per request, so the per-address limit only matters where tested. */
const fromNewIp = () => ({ headers: { "x-forwarded-for": `198.51.100.${++ipCounter}` } });

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const today = seminarToday();
const valid = () => ({
  fullName: "Asha Rao",
  email: uniqueEmail("investor"),
  phoneNumber: "+91 98765 43210",
  city: "Kolkata",
  country: "India",
  date: addDays(today, 7),
  time: "10:30 AM",
});

const bookingCount = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(seminarBookings))[0].n;

describe("POST /api/book", () => {
  it("stores a booking with trimmed values and a lower-cased email", async () => {
    const email = uniqueEmail("Trim");
    const res = await postJson(
      t,
      "/api/book",
      {
        fullName: "  Asha Rao ",
        email: `  ${email.toUpperCase()} `,
        phoneNumber: " (98765) 43210 ",
        city: " Kolkata",
        country: "India ",
        date: ` ${today} `,
        time: " 08:30 PM ",
      },
      fromNewIp(),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, message: "Registration successful" });
    expect(body.booking).toMatchObject({
      fullName: "Asha Rao",
      email: email.toLowerCase(),
      phoneNumber: "(98765) 43210",
      city: "Kolkata",
      country: "India",
      date: today,
      time: "08:30 PM",
    });
    const [row] = await t.database.db
      .select()
      .from(seminarBookings)
      .where(sql`${seminarBookings.email} = ${email.toLowerCase()}`);
    expect(row).toMatchObject({
      fullName: "Asha Rao",
      city: "Kolkata",
      country: "India",
      date: today,
      time: "08:30 PM",
    });
  });

  it("refuses every broken rule with 400, its message and the field, storing nothing", async () => {
    const before = await bookingCount();
    const cases: [Record<string, unknown>, string, string][] = [
      ...(["fullName", "email", "phoneNumber", "city", "country", "date", "time"] as const).flatMap(
        (field): [Record<string, unknown>, string, string][] => [
          [{ ...valid(), [field]: undefined }, "Please fill in all fields", field],
          [{ ...valid(), [field]: "   " }, "Please fill in all fields", field],
          [{ ...valid(), [field]: 42 }, "Please fill in all fields", field],
        ],
      ),
      [{ ...valid(), email: "asha@example" }, "Please enter a valid email address", "email"],
      [{ ...valid(), email: "asha rao@example.in" }, "Please enter a valid email address", "email"],
      [{ ...valid(), phoneNumber: "0000000000" }, "Please enter a valid phone number", "phoneNumber"],
      [{ ...valid(), phoneNumber: "+91 98765 43210 12345" }, "Please enter a valid phone number", "phoneNumber"],
      [{ ...valid(), phoneNumber: "call me" }, "Please enter a valid phone number", "phoneNumber"],
      [{ ...valid(), date: addDays(today, -1) }, "The seminar date cannot be in the past", "date"],
      [{ ...valid(), date: "2026-02-30" }, "Please select a valid date", "date"],
      [{ ...valid(), date: "tomorrow" }, "Please select a valid date", "date"],
      [{ ...valid(), time: "09:00 PM" }, "Please select one of the listed time slots", "time"],
      [{ ...valid(), time: "10:15 AM" }, "Please select one of the listed time slots", "time"],
      [{ ...valid(), fullName: "x".repeat(101) }, "Please keep each field under 100 characters", "fullName"],
    ];
    for (const [body, message, field] of cases) {
      const res = await postJson(t, "/api/book", body, fromNewIp());
      expect(res.status, `${field}: ${message}`).toBe(400);
      const json = await res.json();
      expect(json, `${field}: ${message}`).toMatchObject({ success: false, error: message, message });
      expect(json.issues[0].field).toBe(field);
    }
    const malformed = await postJson(t, "/api/book", "{nope", fromNewIp());
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error).toBe("The request body must be valid JSON.");
    expect(await bookingCount()).toBe(before);
  });

  it("reports a missing field before a bad format", async () => {
    const res = await postJson(t, "/api/book", { ...valid(), email: "bad", city: "" }, fromNewIp());
    expect((await res.json()).error).toBe("Please fill in all fields");
  });

  it("answers 409 'already registered' when the same email books the same date again, whatever its case", async () => {
    const booking = valid();
    expect((await postJson(t, "/api/book", booking, fromNewIp())).status).toBe(201);
    const again = await postJson(
      t,
      "/api/book",
      { ...booking, email: booking.email.toUpperCase(), fullName: "Someone Else" },
      fromNewIp(),
    );
    expect(again.status).toBe(409);
    const json = await again.json();
    expect(json.success).toBe(false);
    expect(json.error).toContain("already registered");
    // Another date is a separate registration.
    expect((await postJson(t, "/api/book", { ...booking, date: addDays(booking.date, 1) }, fromNewIp())).status).toBe(
      201,
    );
  });

  it("limits each address to 10 attempts an hour, with Retry-After", async () => {
    const ip = { headers: { "x-forwarded-for": "203.0.113.77" } };
    for (let i = 0; i < 10; i++) {
      const res = await postJson(t, "/api/book", valid(), ip);
      expect(res.status).toBe(201);
    }
    const before = await bookingCount();
    const refused = await postJson(t, "/api/book", valid(), ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    expect(await bookingCount()).toBe(before);
    // Another address is unaffected.
    expect((await postJson(t, "/api/book", valid(), fromNewIp())).status).toBe(201);
  });
});

describe("GET /api/bookings and /api/bookings/export", () => {
  let adminToken: string;
  beforeAll(async () => {
    const password = "admin-unusual-pass-9";
    const { email } = await createOrPromoteAdmin(t.database.db, { email: uniqueEmail("admin"), password });
    const res = await postJson(t, "/api/auth/login", { email, password, role: "admin" }, fromNewIp());
    adminToken = (await res.json()).access_token;
  });

  it("lists bookings newest first to admins, with the total", async () => {
    const first = { ...valid(), fullName: '=HYPERLINK("http://evil")', city: "Pune, MH" };
    const second = valid();
    await postJson(t, "/api/book", first, fromNewIp());
    await postJson(t, "/api/book", second, fromNewIp());
    const res = await t.request("/api/bookings?limit=2", { headers: bearer(adminToken) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.total).toBe(await bookingCount());
    expect(body.bookings.map((b: { email: string }) => b.email)).toEqual([second.email, first.email]);
    expect(Object.keys(body.bookings[0]).sort()).toEqual([
      "_id",
      "city",
      "country",
      "createdAt",
      "date",
      "email",
      "fullName",
      "phoneNumber",
      "time",
    ]);

    const byDate = await (await t.request(`/api/bookings?date=${today}`, { headers: bearer(adminToken) })).json();
    expect(byDate.bookings.every((b: { date: string }) => b.date === today)).toBe(true);
    expect(byDate.total).toBeGreaterThan(0);

    const bad = await t.request("/api/bookings?limit=0", { headers: bearer(adminToken) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("limit must be at least 1");
  });

  it("exports every booking as CSV, neutralising spreadsheet formulas", async () => {
    const res = await t.request("/api/bookings/export", { headers: bearer(adminToken) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="seminar-bookings.csv"');
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("Full Name,Email,Phone Number,City,Country,Date,Time,Registered At");
    expect(lines).toHaveLength((await bookingCount()) + 1);
    const evil = lines.find((l) => l.includes("HYPERLINK"));
    expect(evil?.startsWith(`"'=HYPERLINK(""http://evil"")"`)).toBe(true);
    expect(evil).toContain(`"Pune, MH"`);
    // Phone numbers stay as typed: digits cannot run anything.
    expect(lines.some((l) => l.includes(",+91 98765 43210,"))).toBe(true);
    const formula = await postJson(t, "/api/book", { ...valid(), city: "-2+3+cmd|' /C calc'!A0" }, fromNewIp());
    expect(formula.status).toBe(201);
    const again = (await (await t.request("/api/bookings/export", { headers: bearer(adminToken) })).text()).split(
      "\r\n",
    );
    expect(again.some((l) => l.includes(",'-2+3+cmd|' /C calc'!A0,"))).toBe(true);
  });

  it("refuses visitors and non-admins", async () => {
    expect((await t.request("/api/bookings")).status).toBe(401);
    expect((await t.request("/api/bookings/export")).status).toBe(401);
    const student = await registerUser(t, "student");
    const res = await t.request("/api/bookings", { headers: bearer(student.access_token) });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe("Access denied. Admins only.");
    expect((await t.request("/api/bookings/export", { headers: bearer(student.access_token) })).status).toBe(403);
  });
});
