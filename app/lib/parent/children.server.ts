import type { RouterContextProvider } from "react-router";
import { addDays, indiaDate } from "#common/india-dates.ts";
import type { ChildJson } from "#common/family.ts";
import { feesAtAGlance, type ChildCardJson } from "#common/parent-area.ts";
import { familyViewer, myChildren, parentArea } from "./area.server";

/** How far ahead a child's card looks for their next class. */
const NEXT_CLASS_DAYS = 14;

/**
 * The parent's "My children" page (issue 41): a card per child with this month's attendance, the
 * next class, the fees owed now and next, and the latest released result; each read through the
 * child's active link. The parent's week already holds only their linked children's classes, so a
 * child's next class is the first of the parent's week that is also the child's own.
 */
export async function loadParentHome(context: Readonly<RouterContextProvider>): Promise<{ children: ChildCardJson[] }> {
  const { viewer, services } = parentArea(context);
  const children = await myChildren(context);
  const today = services.timetables.today();
  const range = { from: today, to: addDays(today, NEXT_CLASS_DAYS - 1) };
  const month = today.slice(0, 7);
  const week = children.length ? await services.timetables.mine(viewer.id, range) : [];
  const cards = await Promise.all(
    children.map(async (child: ChildJson): Promise<ChildCardJson> => {
      const link = { guardianId: child._id, studentId: child.studentId, centerId: child.centerId };
      const [report, own, accounts, results] = await Promise.all([
        services.attendanceReports.report(familyViewer(viewer.id, link), { studentId: link.studentId, month }),
        services.timetables.mine(link.studentId, range),
        services.feeAccounts.ofStudent(link.studentId, link.centerId),
        services.families.results(link),
      ]);
      const theirs = new Set(own.map((s) => s._id));
      const now = Date.now();
      const next = week.find((s) => theirs.has(s._id) && s.status !== "cancelled" && Date.parse(s.endsAt) > now);
      const released = results.find((r) => r.score !== null);
      return {
        linkId: child._id,
        name: child.name,
        institute: child.institute,
        attendance: { percent: report.totals.percent, sessions: report.totals.sessions },
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
        fees: feesAtAGlance(accounts, indiaDate(new Date())),
        latestResult: released
          ? { title: released.title, score: released.score!, rank: released.rank, submittedAt: released.submittedAt }
          : null,
      };
    }),
  );
  return { children: cards };
}
