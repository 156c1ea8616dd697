import { Hono, type Context } from "hono";
import { serialize } from "hono/utils/cookie";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { readCookie } from "../auth/cookies.ts";
import { newDeviceId } from "../services/attendance/qr.ts";
import type { Asker } from "../services/attendance/access.ts";
import { input, operation } from "./openapi.ts";
import { allow, requireAuth } from "./guards.ts";
import { CorrectionInput, DEVICE_COOKIE, MarksInput, QrScanInput } from "#common/validation/attendance.ts";

const REGISTER =
  "{register: {session, closedAt, seq, lateAfterMinutes, students: [{studentId, name, status | null, minutesLate, onlineMinutes, source, markedAt}], counts: {present, absent, late, excused, unmarked}}}";
const MARKER_DENIED = {
  403: "A role in the session's institute without attendance.mark (owners, staff, teachers); or a teacher who neither teaches the session nor its batch",
  404: "No such class session, or one of an institute where you hold no role (or another institute's, on an institute's domain)",
};
const READER_DENIED = {
  403: "A role in the session's institute without attendance.view (owners, staff, teachers); or a teacher who neither teaches the session nor its batch",
  404: MARKER_DENIED[404],
};
const STUDENT_DENIED = {
  403: "Not a student admitted in the session's batch",
  404: MARKER_DENIED[404],
};
const ONLINE = "{session, minutes, status: present | late | absent | null}";
/** Browsers keep a cookie at most 400 days; the phone is named again after that. */
const DEVICE_MAX_AGE = 400 * 24 * 60 * 60;

/** The signed-in caller and the institute whose site they asked on (null on the platform's). */
function askerOf(c: Context<AppEnv>): Asker {
  const { user } = requireAuth(c);
  const site = c.get("site");
  return { userId: user.id, siteCenterId: site.kind === "tenant" ? site.center.id : null };
}

/**
 * The phone's device id (the `pathshala_device` cookie), made and set (httpOnly, a long life) when
 * it has none or a malformed one: QR self-marking lets one phone mark one student per session.
 */
function deviceOf(c: Context<AppEnv>): string {
  const kept = readCookie(c.req.header("cookie"), DEVICE_COOKIE);
  if (kept && /^[A-Za-z0-9_-]{43}$/.test(kept)) return kept;
  const made = newDeviceId();
  c.header(
    "Set-Cookie",
    serialize(DEVICE_COOKIE, made, {
      path: "/",
      httpOnly: true,
      sameSite: "Lax",
      secure: c.get("secure"),
      maxAge: DEVICE_MAX_AGE,
    }),
    { append: true },
  );
  return made;
}

/**
 * `/api/sessions/{id}/…` (issue 41 §3, decision 0044): a class session's one register, its
 * roll-call, corrections and history, the rotating QR code, and an online class's join, beat and
 * leave. Who may do what is decided by the attendance services (the institute's role, narrowed
 * to the sessions a teacher teaches), which the pages call too.
 */
export function sessionAttendanceRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();

  api.get(
    "/:id/attendance",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary:
        "A session's register: the batch's admitted students, each with their mark (status null when unmarked: never a default), and the counts",
      responses: { 200: REGISTER, ...READER_DENIED },
    }),
    async (c) => c.json({ register: await services.attendance.registers.view(askerOf(c), c.req.param("id")) }),
  );

  api.put(
    "/:id/attendance",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary:
        "Roll-call: marks taken on a phone at `seq` (its clock in ms). Each applies only where it is newer than the student's mark's seq, so a delayed or repeated batch changes only what it is newer for. `late` takes minutesLate (default: minutes since the start when marked)",
      responses: {
        200: REGISTER,
        400: "Bad marks, or a student not admitted in the batch (named; nothing applied)",
        ...MARKER_DENIED,
        409: "The class was cancelled, has not started (its register opens 15 minutes before), or its register is closed and the marks were taken after",
      },
    }),
    allow(),
    input("json", MarksInput),
    async (c) =>
      c.json({
        register: await services.attendance.registers.mark(askerOf(c), c.req.param("id"), c.req.valid("json")),
      }),
  );

  api.post(
    "/:id/attendance/close",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary:
        "Closes the register (afterwards a change is a correction with a reason); closing it again changes nothing",
      responses: { 200: REGISTER, ...MARKER_DENIED },
    }),
    async (c) => c.json({ register: await services.attendance.registers.close(askerOf(c), c.req.param("id")) }),
  );

  api.get(
    "/:id/attendance/history",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary: "The register's changes, newest first, with who made each and why",
      responses: {
        200: "{changes: [{_id, studentId, student, from, to, source, reason, by: {_id, name} | null, at}]}",
        ...READER_DENIED,
      },
    }),
    async (c) => c.json({ changes: await services.attendance.corrections.history(askerOf(c), c.req.param("id")) }),
  );

  api.post(
    "/:id/attendance/:studentId/correction",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary:
        "Corrects one student's mark with a reason (3–300 characters), before or after the close; the change is kept in the history",
      responses: {
        200: "{mark: {studentId, name, status, minutesLate, onlineMinutes, source: correction, markedAt}}",
        400: "No reason, a bad status, or a student neither marked nor admitted in the batch",
        ...MARKER_DENIED,
        409: "The class was cancelled",
      },
    }),
    allow(),
    input("json", CorrectionInput),
    async (c) =>
      c.json({
        mark: await services.attendance.corrections.correct(
          askerOf(c),
          c.req.param("id"),
          c.req.param("studentId"),
          c.req.valid("json"),
        ),
      }),
  );

  api.get(
    "/:id/qr",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary:
        "The QR code to show now (it changes every 20 seconds): the code, when it expires and the link on the institute's site it encodes",
      responses: {
        200: "{code, expiresAt, url}",
        ...MARKER_DENIED,
        409: "The class is not running (from 10 minutes before its start to its end), or was cancelled",
      },
    }),
    async (c) => c.json(await services.attendance.qr.code(askerOf(c), c.req.param("id"))),
  );

  const onlineSummary = {
    join: "Joins an online class (a rejoin within 2 minutes continues the interval): the meeting link, only to an admitted student while the class runs",
    beat: "The join page's beat (every minute): the student is still in the class; their mark is recomputed",
    leave: "The join page closed: the student's interval ends; their mark is recomputed",
  } as const;
  for (const what of ["join", "beat", "leave"] as const)
    api.post(
      `/:id/online/${what}`,
      operation({
        tag: "attendance",
        auth: "signed-in",
        summary: onlineSummary[what],
        responses: {
          200: what === "join" ? `{meetingUrl, ${ONLINE.slice(1)}` : ONLINE,
          ...STUDENT_DENIED,
          409:
            what === "leave"
              ? "The class is not online"
              : `The class is not online, or not running (from 10 minutes before its start to its end)${what === "beat" ? ", or not joined yet" : ""}`,
        },
      }),
      async (c) => c.json(await services.attendance.online[what](askerOf(c), c.req.param("id"))),
    );

  return api;
}

/** `POST /api/attendance/qr`: a student's phone marks them with the code on the teacher's screen. */
export function attendanceQrRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.post(
    "/qr",
    operation({
      tag: "attendance",
      auth: "signed-in",
      summary:
        "Marks the signed-in student with a scanned code: present, or late after the institute's threshold (never over a teacher's mark: `mark` is the register's row afterwards). One phone (the pathshala_device cookie, set here) marks one student per session",
      responses: {
        200: "{status: present | late, mark, session}",
        400: "Not a code of ours (or altered)",
        ...STUDENT_DENIED,
        409: "An expired code (it changes every 20 seconds), a class not running, a closed register, a phone that marked another student, or a student marked from another phone",
      },
    }),
    allow(),
    input("json", QrScanInput),
    async (c) => {
      const asker = askerOf(c);
      return c.json(await services.attendance.qr.scan(asker, deviceOf(c), c.req.valid("json").code));
    },
  );
  return api;
}
