import type { RouterContextProvider } from "react-router";
import { getRequestContext } from "./context.server";
import { getViewer } from "./session.server";
import { addDays, mondayOf } from "#common/india-dates.ts";

/** The days a week page shows: this week and next, Monday to Sunday, India dates. */
export const WEEK_PAGE_DAYS = 14;

/**
 * A person's week page (issue 41 §2): their own classes this week and next (the batches they are
 * admitted in, the classes they teach) and their private calendar address.
 */
export async function loadWeek(context: Readonly<RouterContextProvider>) {
  const viewer = getViewer(context)!;
  const { services, site } = getRequestContext(context);
  const from = mondayOf(services.timetables.today());
  const to = addDays(from, WEEK_PAGE_DAYS - 1);
  const [sessions, calendarUrl] = await Promise.all([
    services.timetables.mine(viewer.id, { from, to }),
    services.timetables.calendarUrl(viewer.id, site.kind === "tenant" ? site.center : null),
  ]);
  return { from, today: services.timetables.today(), sessions, calendarUrl, viewerId: viewer.id };
}
