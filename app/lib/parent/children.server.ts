import type { RouterContextProvider } from "react-router";
import { addDays, indiaDate } from "#common/india-dates.ts";
import { feesAtAGlance, type ChildCardJson } from "#common/parent-area.ts";
import { myChildren, parentArea } from "./area.server";

/** How far ahead a child's card looks for their next class. */
const NEXT_CLASS_DAYS = 14;

/**
 * The parent's "My children" page (issue 41): a card per child with this month's attendance, the
 * next class, the fees owed now and next, and the latest released result; each read through the
 * child's active link, every kind for all the children in one read (issue 43). The parent's week
 * already holds only their linked children's classes, so a child's next class is the first of the
 * parent's week that is also the child's own.
 */
export async function loadParentHome(context: Readonly<RouterContextProvider>): Promise<{ children: ChildCardJson[] }> {
  const { viewer, services } = parentArea(context);
  const children = await myChildren(context);
  if (children.length === 0) return { children: [] };
  const today = services.timetables.today();
  const range = { from: today, to: addDays(today, NEXT_CLASS_DAYS - 1) };
  const links = children.map((c) => ({ studentId: c.studentId, centerId: c.centerId }));
  const [week, owned, attendance, accounts, results] = await Promise.all([
    services.timetables.mine(viewer.id, range),
    services.timetables.ownedBy(
      children.map((c) => c.studentId),
      range,
    ),
    services.attendanceReports.totalsOf(links, { month: today.slice(0, 7) }),
    services.feeAccounts.ofStudents(links),
    services.families.resultsOf(links),
  ]);
  const now = Date.now();
  const on = indiaDate(new Date(now));
  return {
    children: children.map((child, i): ChildCardJson => {
      const theirs = owned.get(child.studentId)!;
      const next = week.find((s) => theirs.has(s._id) && s.status !== "cancelled" && Date.parse(s.endsAt) > now);
      const released = results[i].find((r) => r.score !== null);
      return {
        linkId: child._id,
        name: child.name,
        institute: child.institute,
        attendance: { percent: attendance[i].percent, sessions: attendance[i].sessions },
        nextClass: next
          ? {
              subject: next.subject,
              batchName: next.batchName,
              on: next.on,
              start: next.start,
              end: next.end,
              online: next.online,
            }
          : null,
        fees: feesAtAGlance(accounts[i], on),
        latestResult: released
          ? { title: released.title, score: released.score!, rank: released.rank, submittedAt: released.submittedAt }
          : null,
      };
    }),
  };
}
