import type { RouterContextProvider } from "react-router";
import { getRequestContext } from "./context.server";
import { toBookingJson } from "../../server/services/seminar.ts";

export const BOOKINGS_PER_PAGE = 50;

/** The admin list of seminar bookings: ?page and an optional ?date (ignored when malformed). */
export async function loadBookingsPage(request: Request, context: Readonly<RouterContextProvider>) {
  const { services } = getRequestContext(context);
  const params = new URL(request.url).searchParams;
  const rawDate = params.get("date") ?? "";
  const date = /^\d{4}-\d{2}-\d{2}$/.test(rawDate) ? rawDate : undefined;
  const page = Math.max(1, Math.min(10_000, Number.parseInt(params.get("page") ?? "1", 10) || 1));
  const { rows, total } = await services.seminar.list({
    limit: BOOKINGS_PER_PAGE,
    offset: (page - 1) * BOOKINGS_PER_PAGE,
    date,
  });
  return {
    bookings: rows.map(toBookingJson),
    total,
    page,
    pages: Math.max(1, Math.ceil(total / BOOKINGS_PER_PAGE)),
    date: date ?? null,
  };
}
