import { Hono } from "hono";
import * as v from "valibot";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody } from "../http/errors.ts";
import { requestMeta } from "../middleware/client-ip.ts";
import { bookingsCsv, toBookingJson } from "../services/seminar.ts";
import { INVALID_DATE, SeminarBookingInput } from "#common/validation/seminar.ts";
import { input, operation } from "./openapi.ts";
import { allow, platformOnly } from "./guards.ts";

/** ?limit, ?offset, ?date of the admin list (query values arrive as strings). */
export const BookingsQuery = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.toNumber("limit must be a number"),
      v.integer("limit must be a whole number"),
      v.minValue(1, "limit must be at least 1"),
      v.maxValue(200, "limit must be at most 200"),
      v.description("1–200, default 50"),
    ),
    "50",
  ),
  offset: v.optional(
    v.pipe(
      v.string(),
      v.toNumber("offset must be a number"),
      v.integer("offset must be a whole number"),
      v.minValue(0, "offset cannot be negative"),
      v.description("default 0"),
    ),
    "0",
  ),
  date: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{4}-\d{2}-\d{2}$/, INVALID_DATE),
      v.description("only this seminar date (yyyy-mm-dd)"),
    ),
  ),
});

/** POST /api/book (public, spec §7). */
export function bookRouter({ env, services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.use(platformOnly);
  api.post(
    "/",
    operation({
      tag: "seminar",
      auth: "public",
      summary: "Register for the online investment seminar (rate limited per address)",
      body: SeminarBookingInput,
      responses: {
        201: "{success: true, message, booking}",
        400: "Invalid input (the field is named)",
        409: "This email is already registered for that date",
        429: "Rate limited",
      },
    }),
    async (c) => {
      const body = await jsonBody(c);
      const row = await services.seminar.book(body, requestMeta(c, env.TRUST_PROXY).ip);
      return c.json({ success: true, message: "Registration successful", booking: toBookingJson(row) }, 201);
    },
  );
  return api;
}

/** GET /api/bookings and /api/bookings/export (admins). */
export function bookingsRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.use(platformOnly);
  api.get(
    "/",
    operation({
      tag: "seminar",
      auth: "admin",
      summary: "Seminar registrations, newest first",
      responses: {
        200: "{bookings: Booking[], total}",
        400: "Invalid query",
      },
    }),
    allow("admin"),
    input("query", BookingsQuery),
    async (c) => {
      const query = c.req.valid("query");
      const { rows, total } = await services.seminar.list(query);
      c.header("Cache-Control", "no-store");
      return c.json({ bookings: rows.map(toBookingJson), total });
    },
  );
  api.get(
    "/export",
    operation({
      tag: "seminar",
      auth: "admin",
      summary: "Every seminar registration as a CSV file",
      responses: {
        200: { description: "The registrations", content: ["text/csv"] },
        400: "Invalid query",
      },
    }),
    allow("admin"),
    input("query", BookingsQuery),
    async (c) => {
      const { date } = c.req.valid("query");
      const csv = bookingsCsv(await services.seminar.all(date));
      return c.body(csv, 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="seminar-bookings${date ? `-${date}` : ""}.csv"`,
        "Cache-Control": "no-store",
      });
    },
  );
  return api;
}
