import type { RouterContextProvider } from "react-router";
import { monthOf } from "../attendance.server";
import { feeAccountsOf } from "../fee-accounts.server";
import { checkoutConfig } from "../learning.server";
import { childOfLink, familyViewer, myChildren, parentArea } from "./area.server";

/**
 * One child's page for their parent: the month's attendance by batch with each class's mark, the
 * tests they sat (a score only once released) and the fee accounts with receipts and statement,
 * all through the active link `linkId` (a 404 for anything else).
 */
export async function loadChild(context: Readonly<RouterContextProvider>, request: Request, linkId: string) {
  const { viewer, services } = parentArea(context);
  const link = await childOfLink(context, linkId);
  const month = monthOf(request);
  const reports = services.attendanceReports;
  const [children, report, sessions, results, fees] = await Promise.all([
    myChildren(context),
    reports.report(familyViewer(viewer.id, link), { studentId: link.studentId, month }),
    reports.studentSessions(link.studentId, link.centerId, { month }),
    services.families.results(link),
    feeAccountsOf(services, link.studentId, link.centerId),
  ]);
  const child = children.find((c) => c._id === link.guardianId)!;
  return {
    child: { linkId: child._id, name: child.name, institute: child.institute },
    month,
    report,
    sessions,
    results,
    fees,
    checkout: checkoutConfig(context),
  };
}
