import type { RouterContextProvider } from "react-router";
import { WEEK_PAGE_DAYS, loadWeek } from "../week.server";
import { addDays } from "#common/india-dates.ts";
import { myChildren, parentArea } from "./area.server";

/**
 * The parent's week: their own week page (the timetables' `mine` holds their linked children's
 * classes, and the private calendar address), with whose class each is, for siblings in different
 * batches (or a class two of them share), read for all the children at once.
 */
export async function loadParentWeek(context: Readonly<RouterContextProvider>) {
  const { services } = parentArea(context);
  const [week, children] = await Promise.all([loadWeek(context), myChildren(context)]);
  const range = { from: week.from, to: addDays(week.from, WEEK_PAGE_DAYS - 1) };
  const owned = await services.timetables.ownedBy(
    children.map((c) => c.studentId),
    range,
  );
  const whose: Record<string, string[]> = {};
  for (const s of week.sessions)
    whose[s._id] = children.filter((c) => owned.get(c.studentId)!.has(s._id)).map((c) => c.name);
  return { ...week, whose };
}
