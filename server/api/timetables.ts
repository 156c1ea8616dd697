import { Hono, type Context } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { badRequest, forbidden, jsonBody, notFound, parseWith } from "../http/errors.ts";
import { can, membershipOf, notAllowed } from "../auth/permissions.ts";
import type { Db } from "../db/types.ts";
import { input, operation } from "./openapi.ts";
import { requireAuth } from "./guards.ts";
import { authorize, centerOnThisSite, requestCenterId } from "./member-guard.ts";
import { isUuid } from "#common/validation/ids.ts";
import type { Action } from "#common/memberships.ts";
import { BATCH_NOT_FOUND } from "#common/validation/batches.ts";
import {
  CALENDAR_NOT_FOUND,
  ExtraSessionInput,
  HOLIDAY_NOT_FOUND,
  HolidayInput,
  HolidaysQuery,
  SESSIONS_WHICH,
  SESSION_NOT_FOUND,
  SessionChangeInput,
  SessionsQuery,
  TimetableInput,
} from "#common/validation/timetables.ts";

const SESSION_JSON =
  "{_id, batchId, batchName, on, startsAt, endsAt, start, end, subject, teacher: {_id, name} | null, substituteFor: {_id, name} | null, room, online, status: scheduled | cancelled, changeNote, rescheduledFrom}";
const SLOT_JSON = "{_id, weekday, start, end, subject, teacher: {_id, name} | null, room, online, meetingUrl}";
const BATCH_DENIED = {
  403: "A role in the batch's institute that does not allow this (batches.manage: owners and staff)",
  404: "No such batch, or one of an institute where you hold no role",
};
const INSTITUTE_DENIED = {
  403: "No role in this institute, or a role that does not allow this (batches.manage: owners and staff)",
  404: "No such institute, none named (centerId, the institute's domain or the header's choice), or another institute's on an institute's domain",
};

/**
 * The caller's standing in the institute that owns a batch, class or holiday (`centerId`, null
 * when there is none): 404 where they hold no role (or on another institute's domain), and, when
 * `action` is given, 403 when their roles there do not allow it.
 */
async function standingAt(c: Context<AppEnv>, db: Db, centerId: string | null, missing: string, action?: Action) {
  const { user } = requireAuth(c);
  const here = centerOnThisSite(c, centerId, missing);
  const membership = await membershipOf(db, user.id, here);
  if (!membership || membership.roles.length === 0) throw notFound(missing);
  if (action && !can(membership, action)) throw forbidden(notAllowed(action));
  return { user, membership, centerId: here };
}

/**
 * `/api/batches/{id}/timetable` and `/api/batches/{id}/sessions` (issue 41 §2, decision 0043): a
 * batch's weekly timetable and its one-off classes, for the institute's owners and staff (batches.manage).
 */
export function batchTimetableRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const db = database.db;
  const atBatch = async (c: Context<AppEnv>) => {
    const batchId = c.req.param("id") ?? "";
    const centerId = isUuid(batchId) ? await services.batches.centerOf(batchId) : null;
    return { ...(await standingAt(c, db, centerId, BATCH_NOT_FOUND, "batches.manage")), batchId };
  };

  api.get(
    "/timetable",
    operation({
      tag: "timetables",
      auth: "business",
      summary:
        "The batch's weekly timetable: its active slots by weekday (1 Monday … 7 Sunday) and start, times HH:MM India time",
      responses: { 200: `{timetable: [${SLOT_JSON}]}`, ...BATCH_DENIED },
    }),
    async (c) => {
      const { centerId, batchId } = await atBatch(c);
      return c.json({ timetable: await services.timetables.timetable(centerId, batchId) });
    },
  );

  api.post(
    "/timetable",
    operation({
      tag: "timetables",
      auth: "business",
      summary:
        "Replace the batch's weekly timetable. The old slots are retired (classes already held keep theirs); the new slots' classes are made from the later of the batch's start and today to its end (a batch with no end: 26 weeks ahead, extended by the next save), cancelled on holidays. Classes of the old slots that have not begun and have no register are removed",
      body: TimetableInput,
      responses: {
        200: `{timetable: [${SLOT_JSON}], sessionsMade}`,
        400: "Bad input: a weekday outside 1–7, a time not HH:MM, an end not after its start, two of the batch's classes overlapping (both named), a teacher who does not teach at the institute, a meeting link that is not https; nothing changed",
        ...BATCH_DENIED,
        409: "A clash with another batch of the institute whose dates overlap: the same teacher or room (trimmed, any case) on the same weekday at overlapping times, the slot named; nothing changed",
      },
    }),
    async (c) => {
      const { centerId, batchId } = await atBatch(c);
      const saved = await services.timetables.saveTimetable(centerId, batchId, await jsonBody(c));
      return c.json({ timetable: saved.timetable, sessionsMade: saved.sessions });
    },
  );

  api.post(
    "/sessions",
    operation({
      tag: "timetables",
      auth: "business",
      summary: "A one-off extra class of the batch on one day (within the batch's dates)",
      body: ExtraSessionInput,
      responses: {
        201: `{session: ${SESSION_JSON}}`,
        400: "Bad input, a day outside the batch's dates (named), a teacher who does not teach at the institute",
        ...BATCH_DENIED,
        409: "The teacher or the room is busy in another class of the institute at that time (named)",
      },
    }),
    async (c) => {
      const { centerId, batchId } = await atBatch(c);
      return c.json({ session: await services.timetables.addSession(centerId, batchId, await jsonBody(c)) }, 201);
    },
  );

  return api;
}

/** `/api/sessions` (issue 41 §2): class sessions, read by who may see them and changed one at a time by owners and staff. */
export function sessionsRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const db = database.db;

  api.get(
    "/",
    operation({
      tag: "timetables",
      auth: "signed-in",
      summary: `A batch's classes (batchId) or your own across your institutes (mine=1), between two India dates (from, to; both included, default from today for two weeks, at most 92 days). For a batch: its institute's owners and staff, its teachers and its admitted students see every class; another teacher of the institute the ones they teach; anyone else there none. Your own: the batches you are admitted in, and the classes you teach`,
      responses: {
        200: `{sessions: [${SESSION_JSON}]}`,
        400: "Neither batchId nor mine=1; a range backwards or over 92 days",
        404: "No such batch, or one of an institute where you hold no role",
      },
    }),
    input("query", SessionsQuery),
    async (c) => {
      const query = c.req.valid("query");
      const { user } = requireAuth(c);
      if (query.mine) return c.json({ sessions: await services.timetables.mine(user.id, query) });
      if (!query.batchId) throw badRequest(SESSIONS_WHICH, { issues: [{ field: "batchId", message: SESSIONS_WHICH }] });
      const centerId = await services.batches.centerOf(query.batchId);
      const { membership } = await standingAt(c, db, centerId, BATCH_NOT_FOUND);
      return c.json({ sessions: await services.timetables.batchSessions(membership, query.batchId, query) });
    },
  );

  api.patch(
    "/:id",
    operation({
      tag: "timetables",
      auth: "business",
      summary:
        "Change one class: {action: cancel, note?}; {action: reschedule, on, start, end, note?} within the batch's dates; {action: substitute, teacherId, note?}; {action: restore} (back to its timetabled day, time and teacher)",
      body: SessionChangeInput,
      responses: {
        200: `{session: ${SESSION_JSON}}`,
        400: "Bad input, a day outside the batch's dates (named), a substitute who does not teach at the institute",
        403: "A role in the class's institute that does not allow this (batches.manage: owners and staff)",
        404: "No such class, or one of an institute where you hold no role",
        409: "The teacher or the room is busy in another class of the institute at that time (named)",
      },
    }),
    async (c) => {
      const sessionId = c.req.param("id");
      const centerId = await services.timetables.centerOfSession(sessionId);
      await standingAt(c, db, centerId, SESSION_NOT_FOUND, "batches.manage");
      return c.json({ session: await services.timetables.changeSession(centerId!, sessionId, await jsonBody(c)) });
    },
  );

  return api;
}

/** `/api/holidays` (issue 41 §2): days off of an institute or one batch, which cancel their classes. */
export function holidaysRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const db = database.db;

  api.get(
    "/",
    operation({
      tag: "timetables",
      auth: "business",
      summary: "The institute's holidays, newest day first",
      responses: { 200: "{holidays: [{_id, centerId, batchId, batchName, on, name}]}", ...INSTITUTE_DENIED },
    }),
    input("query", HolidaysQuery),
    async (c) => {
      const { centerId } = c.req.valid("query");
      const { membership } = await authorize(c, db, "batches.manage", centerId ?? requestCenterId(c));
      return c.json({ holidays: await services.timetables.holidays(membership.centerId) });
    },
  );

  api.post(
    "/",
    operation({
      tag: "timetables",
      auth: "business",
      summary:
        "Declare a holiday: {on, name} for the whole institute, or with batchId for one batch. That day's classes are cancelled with the holiday's name as their note",
      body: HolidayInput,
      responses: {
        201: "{holiday: {_id, centerId, batchId, batchName, on, name, cancelled}}",
        400: "Bad input, or a batch of another institute",
        ...INSTITUTE_DENIED,
      },
    }),
    async (c) => {
      requireAuth(c);
      const body = parseWith(HolidayInput, await jsonBody(c));
      const { user, membership } = await authorize(c, db, "batches.manage", body.centerId ?? requestCenterId(c));
      return c.json({ holiday: await services.timetables.declareHoliday(user, membership.centerId, body) }, 201);
    },
  );

  api.delete(
    "/:id",
    operation({
      tag: "timetables",
      auth: "business",
      summary: "Remove a holiday: the classes it cancelled are scheduled again",
      responses: {
        200: "{removed: {_id, centerId, batchId, on, name}, restored}",
        403: "A role in the holiday's institute that does not allow this (batches.manage: owners and staff)",
        404: "No such holiday, or one of an institute where you hold no role",
      },
    }),
    async (c) => {
      const holidayId = c.req.param("id");
      const centerId = isUuid(holidayId) ? await services.timetables.centerOfHoliday(holidayId) : null;
      await standingAt(c, db, centerId, HOLIDAY_NOT_FOUND, "batches.manage");
      return c.json(await services.timetables.removeHoliday(centerId!, holidayId));
    },
  );

  return api;
}

/** `/api/calendar` (issue 41 §2, decision 0043): each person's private .ics feed of their classes. */
export function calendarRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();

  api.get(
    "/link",
    operation({
      tag: "timetables",
      auth: "signed-in",
      summary:
        "Your private calendar address (an .ics feed of your classes, 30 days back and 90 ahead), on this institute's site or the platform's configured address",
      responses: { 200: "{url}" },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      const site = c.get("site");
      return c.json({
        url: await services.timetables.calendarUrl(user.id, site.kind === "tenant" ? site.center : null),
      });
    },
  );

  api.get(
    "/:token",
    operation({
      tag: "timetables",
      auth: "public",
      summary:
        "A person's classes as an iCalendar file (the address ends in .ics; its token is private to the person): 30 days back to 90 ahead, times in UTC, a cancelled class as STATUS:CANCELLED",
      responses: {
        200: { description: "The iCalendar file", content: ["text/calendar"] },
        404: "No such calendar (a wrong or altered address)",
      },
    }),
    async (c) => {
      const file = c.req.param("token");
      const ics = file.endsWith(".ics") ? await services.timetables.calendar(file.slice(0, -4)) : null;
      if (ics === null) throw notFound(CALENDAR_NOT_FOUND);
      return c.body(ics, 200, {
        "content-type": "text/calendar; charset=utf-8",
        "cache-control": "private, no-store",
      });
    },
  );

  return api;
}
