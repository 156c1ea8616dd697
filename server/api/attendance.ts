import { Hono, type Context } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { requireAuth } from "./guards.ts";
import { authorize, centerOnThisSite, requestCenterId } from "./member-guard.ts";
import { input, operation } from "./openapi.ts";
import type { ReportViewer } from "../services/attendance-reports.ts";
import {
  AttendancePolicyInput,
  AttendanceReportQuery,
  CenterQuery,
  INSTITUTE_NOT_FOUND,
  TeacherReportQuery,
} from "#common/validation/attendance-reports.ts";

const VIEW_DENIED = {
  403: "A role in the institute that shows no attendance (a parent, for now), or a report beyond the caller's: a student's someone else's, a teacher's a batch they do not teach or another teacher's sessions",
  404: "No such institute or one where the caller holds no role, none named (centerId, the institute's domain or the header's choice), another institute's on an institute's domain; a batch, student or teacher not of the institute",
};
const ROWS =
  "{from, to, rows: [{studentId, name, batchId, batchName, present, late, absent, excused, sessions, percent}], totals: {present, late, absent, excused, sessions, percent}}";

/**
 * `/api/attendance` (issue 41 §4): reports by student, batch, teacher and month with CSV export,
 * the students below the institute's threshold, and the institute's attendance policy. Who sees
 * what is decided once (`attendanceViewer`): owners and staff the whole institute, a teacher the
 * batches they teach, a student their own record (anywhere, when no institute is named).
 */
export function attendanceRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const db = database.db;

  /** The caller as a reader of attendance in the request's institute, or of their own record when none is named. */
  const viewerOf = async (c: Context<AppEnv>, centerId: string | undefined): Promise<ReportViewer> => {
    const { user } = requireAuth(c);
    const named = centerId ?? requestCenterId(c);
    if (!named) return { scope: "self", userId: user.id, centerId: null };
    return services.attendanceReports.viewerOf(user.id, centerOnThisSite(c, named, INSTITUTE_NOT_FOUND));
  };

  api.get(
    "/",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary:
        "Attendance rows per student and batch over a month (or from–to; neither: this month): present, late, absent, excused, the sessions that count and the percentage (attended = present + late; excused left out; cancelled sessions never count; an admitted student's missing mark is absent once the register is closed). Owners and staff: the institute; a teacher: the batches they teach; a student: their own (no filter, or studentId = themselves). format=csv or Accept: text/csv: the same rows as a CSV file",
      responses: {
        200: { description: ROWS, content: ["application/json", "text/csv"] },
        ...VIEW_DENIED,
      },
    }),
    input("query", AttendanceReportQuery),
    async (c) => {
      const query = c.req.valid("query");
      const viewer = await viewerOf(c, query.centerId);
      const report = await services.attendanceReports.report(viewer, query);
      const accept = c.req.header("accept") ?? "";
      if (query.format === "csv" || (query.format === undefined && /(^|,)\s*text\/csv/i.test(accept)))
        return c.body(services.attendanceReports.csv(report), 200, {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="attendance-${report.from}-to-${report.to}.csv"`,
          "Cache-Control": "no-store",
        });
      return c.json(report);
    },
  );

  api.get(
    "/teachers",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary:
        "Sessions held (started, not cancelled) per teacher over a month (or from–to), with their registers closed and still open. A teacher: their own",
      responses: { 200: "{from, to, teachers: [{teacherId, name, sessions, closed, open}]}", ...VIEW_DENIED },
    }),
    input("query", TeacherReportQuery),
    async (c) => {
      const query = c.req.valid("query");
      return c.json(await services.attendanceReports.teachers(await viewerOf(c, query.centerId), query));
    },
  );

  api.get(
    "/flagged",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary:
        "Students below the institute's low-attendance percentage (default 75) over the last 30 days, per batch, lowest first. A teacher: in the batches they teach",
      responses: {
        200: "{lowAttendancePercent, from, to, students: [{studentId, name, batchId, batchName, percent, sessions}]}",
        ...VIEW_DENIED,
      },
    }),
    input("query", CenterQuery),
    async (c) => {
      const { centerId } = c.req.valid("query");
      return c.json(await services.attendanceReports.flagged(await viewerOf(c, centerId)));
    },
  );

  api.get(
    "/policy",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary:
        "The institute's attendance policy (attendance.view: owners, staff and teachers); an institute that never saved one has the defaults (10, 45, 75, alerts on)",
      responses: {
        200: "{policy: {centerId, lateAfterMinutes, onlineMinimumMinutes, lowAttendancePercent, absenceAlerts, updatedAt}}",
        403: "No role in this institute, or one without attendance.view",
        404: "No such institute, none named, or another institute's on an institute's domain",
      },
    }),
    input("query", CenterQuery),
    async (c) => {
      const { centerId } = c.req.valid("query");
      const { membership } = await authorize(c, db, "attendance.view", centerId ?? requestCenterId(c));
      return c.json({ policy: await services.attendancePolicies.get(membership.centerId) });
    },
  );

  api.put(
    "/policy",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary:
        "Save the institute's attendance policy (batches.manage: owners and staff): minutes after the start that make Late (0–240), minutes in an online class that make Present (1–600), the low-attendance percentage (1–100) and whether absentees are told",
      responses: {
        200: "{policy}",
        400: "A value out of its range, named with the range",
        403: "No role in this institute, or one without batches.manage",
        404: "No such institute, none named, or another institute's on an institute's domain",
      },
    }),
    input("json", AttendancePolicyInput),
    async (c) => {
      const body = c.req.valid("json");
      const { membership } = await authorize(c, db, "batches.manage", body.centerId ?? requestCenterId(c));
      return c.json({ policy: await services.attendancePolicies.put(membership.centerId, body) });
    },
  );

  return api;
}
