import type { RouterContextProvider } from "react-router";
import { getRequestContext } from "./context.server";
import { getViewer } from "./session.server";
import { loadBusinessCenter, notAllowed } from "./business.server";
import { failure, tryService } from "./actions.server";
import { indiaDate } from "#common/india-dates.ts";

type Ctx = Readonly<RouterContextProvider>;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
export const ATTENDANCE_VIEWS = ["batch", "student", "teacher"] as const;
export type AttendanceView = (typeof ATTENDANCE_VIEWS)[number];

/** The month the page asks for (`?month=YYYY-MM`), else this month in India. */
export function monthOf(request: Request): string {
  const asked = new URL(request.url).searchParams.get("month") ?? "";
  return MONTH.test(asked) ? asked : indiaDate(new Date()).slice(0, 7);
}

/**
 * The business area's Attendance page: the month's rows (by batch or by student, one batch or
 * all), the teachers' sessions, the students flagged over the last 30 days and the policy, as the
 * API answers them for this person (a teacher's narrowing applies here too).
 */
export async function loadBusinessAttendance(context: Ctx, request: Request) {
  const { center, services, may, viewer } = await loadBusinessCenter(context, request);
  if (!center) return { center: null } as const;
  const params = new URL(request.url).searchParams;
  const month = monthOf(request);
  const asked = params.get("view");
  const view: AttendanceView = ATTENDANCE_VIEWS.includes(asked as AttendanceView) ? (asked as AttendanceView) : "batch";
  const batches = await services.batches.list(center.id);
  const batchId = batches.some((b) => b._id === params.get("batchId")) ? params.get("batchId")! : undefined;
  const reports = services.attendanceReports;
  const who = await reports.viewerOf(viewer.id, center.id);
  const [report, teachers, flagged, policy] = await Promise.all([
    reports.report(who, { month, batchId }),
    reports.teachers(who, { month }),
    reports.flagged(who),
    services.attendancePolicies.get(center.id),
  ]);
  const csv = new URLSearchParams({ centerId: center.id, month, format: "csv" });
  if (batchId) csv.set("batchId", batchId);
  return {
    center: { id: center.id, instituteName: center.instituteName },
    month,
    view,
    batchId: batchId ?? null,
    batches: batches.map((b) => ({ _id: b._id, name: b.name })),
    report,
    teachers: teachers.teachers,
    flagged,
    policy,
    mayEditPolicy: may("batches.manage"),
    csvHref: `/api/attendance?${csv}`,
  };
}

/** Saves the institute's attendance policy from the page's form (batches.manage). */
export async function saveAttendancePolicy(context: Ctx, request: Request) {
  const { center, services, may } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  if (!may("batches.manage")) return failure(notAllowed("batches.manage"), 403);
  const form = await request.formData();
  // An empty box is no number: the policy's own message names the field and its range.
  const number = (name: string) => {
    const value = String(form.get(name) ?? "").trim();
    return value === "" ? undefined : Number(value);
  };
  const done = await tryService(() =>
    services.attendancePolicies.put(center.id, {
      lateAfterMinutes: number("lateAfterMinutes"),
      onlineMinimumMinutes: number("onlineMinimumMinutes"),
      lowAttendancePercent: number("lowAttendancePercent"),
      absenceAlerts: form.get("absenceAlerts") === "on",
    }),
  );
  if (!done.ok) return done.response;
  return { ok: true as const, message: "Attendance policy saved." };
}

/** A student's own record for the month: by batch with the percentage, and each session's mark. */
export async function loadStudentAttendance(context: Ctx, request: Request) {
  const viewer = getViewer(context)!;
  const { services, site } = getRequestContext(context);
  // On an institute's site, that institute's record; on the platform, every institute's.
  const centerId = site.kind === "tenant" ? site.center.id : null;
  const month = monthOf(request);
  const reports = services.attendanceReports;
  const [report, sessions] = await Promise.all([
    reports.report({ scope: "self", userId: viewer.id, centerId }, { month }),
    reports.studentSessions(viewer.id, centerId, { month }),
  ]);
  return { month, report, sessions };
}
