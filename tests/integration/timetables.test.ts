import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { classSessions, memberships, timetableSlots } from "../../server/db/schema/index.ts";
import { TimetableService } from "../../server/services/timetables/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { notAllowed } from "../../server/auth/permissions.ts";
import type { MemberRole } from "../../common/memberships.ts";
import { BATCH_NOT_FOUND } from "../../common/validation/batches.ts";
import {
  OUTSIDE_BATCH_DATES,
  ROOM_CLASH,
  SESSIONS_RANGE_TOO_LONG,
  SLOTS_OVERLAP,
  TEACHER_BUSY,
  TEACHER_CLASH,
  type SessionJson,
} from "../../common/validation/timetables.ts";

/**
 * Timetables (issue 41 §2, decision 0043) through the API, with the service's clock fixed at
 * Monday 5 April 2027, 08:30 in India: a week saved and its classes made within the batch's
 * dates; overlapping slots, and clashes of teacher or room with another batch, refused in words
 * with nothing changed; a holiday that cancels and, removed, restores; one class cancelled, moved
 * (not outside the dates) and given to a substitute (not one busy elsewhere); who may read classes;
 * and the .ics feed.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let otherOwner: Account;
let sharma: Account;
let rao: Account;
let pupil: Account;
let neetPupil: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let jee: string;
let neet: string;
let old: string;
const NOW = Date.parse("2027-04-05T03:00:00Z");

const grant = (centerId: string, userId: string, role: MemberRole) =>
  t.database.db
    .insert(memberships)
    .values({ centerId, userId, role, status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();
const as = (who: Account) => bearer(who.access_token);
const get = async (who: Account | null, path: string) => {
  const res = await t.request(path, { headers: who ? as(who) : {} });
  return { status: res.status, body: await res.json() };
};
const send = async (who: Account, method: string, path: string, body?: unknown) => {
  const res = await postJson(t, path, body ?? {}, { method, headers: as(who) });
  return { status: res.status, body: await res.json() };
};
const save = (batchId: string, slots: unknown[]) => send(owner, "POST", `/api/batches/${batchId}/timetable`, { slots });
const sessionsOf = (batchId: string) =>
  t.database.db
    .select()
    .from(classSessions)
    .where(eq(classSessions.batchId, batchId))
    .orderBy(asc(classSessions.startsAt));
const sessionOn = async (batchId: string, on: string) => (await sessionsOf(batchId)).find((s) => s.on === on)!;
const newBatch = async (body: Record<string, unknown>) => {
  const res = await postJson(t, "/api/batches", { centerId: sunrise.id, ...body }, { headers: as(owner) });
  expect(res.status).toBe(201);
  return ((await res.json()).batch as { _id: string })._id;
};

const PHYSICS = { weekday: 1, start: "09:00", end: "10:30", subject: "Physics", room: "Room 3" };
const CHEMISTRY = { weekday: 3, start: "11:00", end: "12:00", subject: "Chemistry", online: true };

beforeAll(async () => {
  t = await createTestApp();
  t.services.timetables = new TimetableService({ db: t.database.db, links: t.services.links, now: () => NOW });
  owner = await register(t, "business", { name: "Anita Sharma" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  sharma = await register(t, "creator", { name: "Mr Sharma" });
  rao = await register(t, "creator", { name: "Ms Rao" });
  pupil = await register(t, "student", { name: "Priya Das" });
  neetPupil = await register(t, "student", { name: "Neha Jain" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "tt-sunrise" });
  await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "tt-vidya" });
  await grant(sunrise.id, sharma.user._id, "teacher");
  await grant(sunrise.id, rao.user._id, "teacher");
  await grant(sunrise.id, pupil.user._id, "student");
  await grant(sunrise.id, neetPupil.user._id, "student");
  jee = await newBatch({ name: "JEE 2027 Morning", startsOn: "2027-04-01", endsOn: "2027-06-30" });
  neet = await newBatch({ name: "NEET 2027 Evening", startsOn: "2027-04-01", endsOn: "2027-06-30" });
  old = await newBatch({ name: "Crash Course 2026", startsOn: "2026-01-01", endsOn: "2026-12-31" });
  for (const [batchId, who] of [
    [jee, pupil],
    [neet, neetPupil],
  ] as const)
    expect((await send(owner, "POST", `/api/batches/${batchId}/students`, { studentIds: [who.user._id] })).status).toBe(
      200,
    );
});
afterAll(() => t.close());

describe("saving a timetable", () => {
  it("stores the week and makes its classes from today to the batch's end, in India time", async () => {
    const res = await save(jee, [
      { ...PHYSICS, teacherId: sharma.user._id },
      { ...CHEMISTRY, teacherId: rao.user._id, meetingUrl: "https://meet.example.com/chem" },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.timetable).toMatchObject([
      { weekday: 1, start: "09:00", end: "10:30", subject: "Physics", room: "Room 3", teacher: { name: "Mr Sharma" } },
      { weekday: 3, start: "11:00", end: "12:00", online: true, meetingUrl: "https://meet.example.com/chem" },
    ]);
    const made = await sessionsOf(jee);
    // Mondays 5 April–28 June and Wednesdays 7 April–30 June: 13 of each.
    expect(made).toHaveLength(26);
    expect(made[0].on).toBe("2027-04-05");
    expect(made[0].startsAt.toISOString()).toBe("2027-04-05T03:30:00.000Z");
    expect(made.at(-1)!.on).toBe("2027-06-30");
    expect(made.every((s) => s.on >= "2027-04-05" && s.on <= "2027-06-30")).toBe(true);
    const week = await get(owner, `/api/sessions?batchId=${jee}&from=2027-04-05&to=2027-04-11`);
    expect(week.status).toBe(200);
    expect(week.body.sessions).toEqual([
      expect.objectContaining({
        batchName: "JEE 2027 Morning",
        on: "2027-04-05",
        start: "09:00",
        end: "10:30",
        subject: "Physics",
        teacher: { _id: sharma.user._id, name: "Mr Sharma" },
        room: "Room 3",
        status: "scheduled",
      }),
      expect.objectContaining({ on: "2027-04-07", start: "11:00", online: true }),
    ]);
    expect(JSON.stringify(week.body)).not.toContain("meet.example.com");
  });

  it("refuses two of the batch's classes overlapping, naming both, and changes nothing", async () => {
    const before = await t.database.db.select().from(timetableSlots).where(eq(timetableSlots.batchId, jee));
    const overlap = { weekday: 1, start: "10:00", end: "11:00", subject: "Maths" };
    const res = await save(jee, [PHYSICS, overlap]);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(SLOTS_OVERLAP(PHYSICS, overlap));
    expect(res.body.error).toBe(
      "Two of this batch's classes overlap: Physics on Monday 09:00–10:30 and Maths on Monday 10:00–11:00.",
    );
    const bad = await save(jee, [{ ...PHYSICS, end: "08:00" }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("A class must end after it starts.");
    const http = await save(jee, [{ ...CHEMISTRY, meetingUrl: "http://meet.example.com/x" }]);
    expect(http.body.error).toBe("The meeting link must be an https:// address.");
    const stranger = await save(jee, [{ ...PHYSICS, teacherId: pupil.user._id }]);
    expect(stranger.status).toBe(400);
    expect(stranger.body.error).toBe(
      `The teacher ${pupil.user._id} does not hold a teacher's, creator's or owner's role in this institute.`,
    );
    const after = await t.database.db.select().from(timetableSlots).where(eq(timetableSlots.batchId, jee));
    expect(after).toEqual(before);
    expect(await sessionsOf(jee)).toHaveLength(26);
  });

  it("refuses a clash of teacher or room with another batch (409, the slot named), changing nothing", async () => {
    const teacherClash = await save(neet, [
      { weekday: 1, start: "10:00", end: "11:00", subject: "Maths", teacherId: sharma.user._id, room: "Room 5" },
    ]);
    expect(teacherClash.status).toBe(409);
    expect(teacherClash.body.error).toBe(TEACHER_CLASH("Mr Sharma", "JEE 2027 Morning", 1, 540, 630));
    expect(teacherClash.body.error).toBe("Mr Sharma already teaches JEE 2027 Morning on Monday 09:00–10:30.");
    const roomClash = await save(neet, [
      { weekday: 1, start: "09:30", end: "10:00", subject: "Biology", room: " room 3 " },
    ]);
    expect(roomClash.status).toBe(409);
    expect(roomClash.body.error).toBe(ROOM_CLASH("Room 3", "JEE 2027 Morning", 1, 540, 630));
    expect(roomClash.body.error).toBe("Room 3 is taken by JEE 2027 Morning on Monday 09:00–10:30.");
    expect(await t.database.db.select().from(timetableSlots).where(eq(timetableSlots.batchId, neet))).toEqual([]);
    expect(await sessionsOf(neet)).toEqual([]);
    // A batch that ended before this one began frees its teacher and room.
    const past = await save(old, [{ ...PHYSICS, teacherId: sharma.user._id }]);
    expect(past.status).toBe(200);
    expect(past.body.sessionsMade).toBe(0);
  });

  it("lets staff only: a teacher and a student are refused in the policy's words", async () => {
    for (const who of [sharma, pupil]) {
      const res = await send(who, "POST", `/api/batches/${jee}/timetable`, { slots: [] });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(notAllowed("batches.manage"));
    }
    const other = await send(otherOwner, "POST", `/api/batches/${jee}/timetable`, { slots: [] });
    expect(other.status).toBe(404);
    expect(await sessionsOf(jee)).toHaveLength(26);
  });
});

describe("holidays", () => {
  it("cancels the day's classes with the holiday's name, and its removal restores them", async () => {
    const declared = await send(owner, "POST", "/api/holidays", {
      centerId: sunrise.id,
      on: "2027-04-12",
      name: "Ambedkar Jayanti",
    });
    expect(declared.status).toBe(201);
    expect(declared.body.holiday).toMatchObject({
      on: "2027-04-12",
      name: "Ambedkar Jayanti",
      batchId: null,
      cancelled: 1,
    });
    expect(await sessionOn(jee, "2027-04-12")).toMatchObject({ status: "cancelled", changeNote: "Ambedkar Jayanti" });
    expect(await sessionOn(jee, "2027-04-19")).toMatchObject({ status: "scheduled", changeNote: null });
    const list = await get(owner, `/api/holidays?centerId=${sunrise.id}`);
    expect(list.body.holidays.map((h: { name: string }) => h.name)).toEqual(["Ambedkar Jayanti"]);
    const removed = await send(owner, "DELETE", `/api/holidays/${declared.body.holiday._id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.restored).toBe(1);
    expect(await sessionOn(jee, "2027-04-12")).toMatchObject({ status: "scheduled", changeNote: null });
  });

  it("makes a class on a holiday declared before the timetable cancelled", async () => {
    await send(owner, "POST", "/api/holidays", {
      centerId: sunrise.id,
      batchId: neet,
      on: "2027-04-06",
      name: "Ugadi",
    });
    expect((await save(neet, [{ weekday: 2, start: "16:00", end: "17:00", subject: "Biology" }])).status).toBe(200);
    expect(await sessionOn(neet, "2027-04-06")).toMatchObject({ status: "cancelled", changeNote: "Ugadi" });
    expect(await sessionOn(neet, "2027-04-13")).toMatchObject({ status: "scheduled" });
  });
});

describe("one class changed", () => {
  const patch = (id: string, body: unknown, who: Account = owner) => send(who, "PATCH", `/api/sessions/${id}`, body);

  it("cancels with a note, and restores", async () => {
    const monday = await sessionOn(jee, "2027-04-19");
    const cancelled = await patch(monday.id, { action: "cancel", note: "Teacher unwell" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.session).toMatchObject({ status: "cancelled", changeNote: "Teacher unwell" });
    const refused = await patch(monday.id, { action: "cancel" }, pupil);
    expect(refused.status).toBe(403);
    const restored = await patch(monday.id, { action: "restore" });
    expect(restored.body.session).toMatchObject({ status: "scheduled", changeNote: null, start: "09:00" });
  });

  it("moves a class within the batch's dates, refusing a day outside them", async () => {
    const monday = await sessionOn(jee, "2027-04-26");
    const outside = await patch(monday.id, { action: "reschedule", on: "2027-07-05", start: "09:00", end: "10:30" });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toBe(OUTSIDE_BATCH_DATES("2027-04-01", "2027-06-30"));
    expect(outside.body.error).toBe(
      "Pick a day within the batch's dates: Thursday 1 April 2027 to Wednesday 30 June 2027.",
    );
    expect(await sessionOn(jee, "2027-04-26")).toEqual(monday);
    const moved = await patch(monday.id, {
      action: "reschedule",
      on: "2027-04-27",
      start: "10:00",
      end: "11:30",
      note: "Lab day",
    });
    expect(moved.status).toBe(200);
    expect(moved.body.session).toMatchObject({
      on: "2027-04-26",
      start: "10:00",
      end: "11:30",
      startsAt: "2027-04-27T04:30:00.000Z",
      rescheduledFrom: "2027-04-26T03:30:00.000Z",
      changeNote: "Lab day",
    });
  });

  it("gives a class to a substitute, refusing one who teaches elsewhere then", async () => {
    const extra = await send(owner, "POST", `/api/batches/${neet}/sessions`, {
      on: "2027-04-14",
      start: "11:30",
      end: "12:30",
      subject: "Doubt class",
      teacherId: sharma.user._id,
      room: "Room 9",
    });
    expect(extra.status).toBe(201);
    expect(extra.body.session).toMatchObject({
      batchName: "NEET 2027 Evening",
      start: "11:30",
      teacher: { name: "Mr Sharma" },
    });
    const outside = await send(owner, "POST", `/api/batches/${neet}/sessions`, {
      on: "2027-03-01",
      start: "11:30",
      end: "12:30",
      subject: "Too early",
    });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toBe(OUTSIDE_BATCH_DATES("2027-04-01", "2027-06-30"));
    const wednesday = await sessionOn(jee, "2027-04-14");
    const busy = await patch(wednesday.id, { action: "substitute", teacherId: sharma.user._id });
    expect(busy.status).toBe(409);
    expect(busy.body.error).toBe(TEACHER_BUSY("Mr Sharma", "NEET 2027 Evening", "2027-04-14", "11:30", "12:30"));
    expect(busy.body.error).toBe("Mr Sharma already teaches NEET 2027 Evening on Wednesday 14 April 2027 11:30–12:30.");
    expect(await sessionOn(jee, "2027-04-14")).toEqual(wednesday);
    const next = await sessionOn(jee, "2027-04-21");
    const given = await patch(next.id, { action: "substitute", teacherId: sharma.user._id, note: "Ms Rao on leave" });
    expect(given.status).toBe(200);
    expect(given.body.session).toMatchObject({
      teacher: { _id: sharma.user._id, name: "Mr Sharma" },
      substituteFor: { _id: rao.user._id, name: "Ms Rao" },
      changeNote: "Ms Rao on leave",
    });
    // A move to when the teacher is busy elsewhere is refused too.
    const clash = await patch((await sessionOn(jee, "2027-05-03")).id, {
      action: "reschedule",
      on: "2027-04-14",
      start: "12:00",
      end: "13:00",
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe(
      "Mr Sharma already teaches NEET 2027 Evening on Wednesday 14 April 2027 11:30–12:30.",
    );
  });
});

describe("who may read classes", () => {
  const week = (batchId: string) => `/api/sessions?batchId=${batchId}&from=2027-04-05&to=2027-04-18`;

  it("shows a batch's classes to its staff, teachers and students, none to another batch's student, 404 elsewhere", async () => {
    const staff = await get(owner, week(jee));
    expect(staff.body.sessions).toHaveLength(4);
    expect((await get(pupil, week(jee))).body.sessions).toEqual(staff.body.sessions);
    expect((await get(sharma, week(jee))).body.sessions).toEqual(staff.body.sessions);
    const stranger = await get(neetPupil, week(jee));
    expect(stranger.status).toBe(200);
    expect(stranger.body.sessions).toEqual([]);
    const other = await get(otherOwner, week(jee));
    expect(other.status).toBe(404);
    expect(other.body.error).toBe(BATCH_NOT_FOUND);
    expect((await get(null, week(jee))).status).toBe(401);
    const long = await get(owner, `/api/sessions?batchId=${jee}&from=2027-04-01&to=2027-07-15`);
    expect(long.status).toBe(400);
    expect(long.body.error).toBe(SESSIONS_RANGE_TOO_LONG);
  });

  it("gives each person their own week: a student their batches', a teacher the classes they teach", async () => {
    const mine = async (who: Account) =>
      ((await get(who, "/api/sessions?mine=1&from=2027-04-12&to=2027-04-18")).body.sessions as SessionJson[]).map(
        (s) => `${s.batchName} ${s.on} ${s.subject}`,
      );
    expect(await mine(pupil)).toEqual(["JEE 2027 Morning 2027-04-12 Physics", "JEE 2027 Morning 2027-04-14 Chemistry"]);
    expect(await mine(neetPupil)).toEqual([
      "NEET 2027 Evening 2027-04-13 Biology",
      "NEET 2027 Evening 2027-04-14 Doubt class",
    ]);
    expect(await mine(sharma)).toEqual([
      "JEE 2027 Morning 2027-04-12 Physics",
      "NEET 2027 Evening 2027-04-14 Doubt class",
    ]);
    expect(await mine(rao)).toEqual(["JEE 2027 Morning 2027-04-14 Chemistry"]);
  });
});

describe("the calendar feed", () => {
  it("serves the person's classes as iCalendar at their private address; a wrong token is 404", async () => {
    const cancelled = await sessionOn(jee, "2027-05-10");
    await send(owner, "PATCH", `/api/sessions/${cancelled.id}`, { action: "cancel", note: "Exam week" });
    const link = await get(pupil, "/api/calendar/link");
    expect(link.status).toBe(200);
    const url = new URL(link.body.url);
    expect(url.hostname).toBe("localhost");
    expect(url.pathname).toMatch(/^\/api\/calendar\/[0-9a-f-]{36}\.[\w-]+\.ics$/);
    const res = await t.request(url.pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const ics = await res.text();
    const events = ics.split("BEGIN:VEVENT").slice(1);
    // 30 days back (none before 5 April were made) to 90 ahead (3 July): every JEE class from 5 April to 30 June.
    expect(events).toHaveLength(26);
    const first = events.find((e) => e.includes("DTSTART:20270405T033000Z"))!;
    expect(first).toContain("DTEND:20270405T050000Z");
    expect(first).toContain("SUMMARY:Physics · JEE 2027 Morning");
    expect(events.find((e) => e.includes("DTSTART:20270510T033000Z"))).toContain("STATUS:CANCELLED");
    const [token] = url.pathname.split("/").slice(-1);
    const altered = token.replace(/\.(.)/, (_, c: string) => `.${c === "A" ? "B" : "A"}`);
    expect((await t.request(`/api/calendar/${altered}`)).status).toBe(404);
    expect((await t.request(`/api/calendar/${sharma.user._id}.x.ics`)).status).toBe(404);
    expect((await t.request("/api/calendar/nonsense.ics")).status).toBe(404);
  });
});

describe("a new week", () => {
  it("retires the old slots, keeps classes held, and removes the old week's unheld classes", async () => {
    const res = await save(jee, [{ ...PHYSICS, weekday: 2, teacherId: sharma.user._id }]);
    expect(res.status).toBe(200);
    const slots = await t.database.db
      .select()
      .from(timetableSlots)
      .where(and(eq(timetableSlots.batchId, jee)));
    expect(slots.filter((s) => s.retiredAt === null)).toHaveLength(1);
    expect(slots.filter((s) => s.retiredAt !== null)).toHaveLength(2);
    const left = await sessionsOf(jee);
    expect(left.every((s) => s.on >= "2027-04-05")).toBe(true);
    expect(new Set(left.map((s) => s.subject))).toEqual(new Set(["Physics"]));
    expect(left.filter((s) => s.slotId === slots.find((x) => x.retiredAt === null)!.id)).toHaveLength(13);
  });
});

describe("two saves at once", () => {
  it("lets only one of two clashing timetables through (the institute's lock)", async () => {
    const [a, b] = [
      await newBatch({ name: "Repeaters A", startsOn: "2027-04-01", endsOn: "2027-06-30" }),
      await newBatch({ name: "Repeaters B", startsOn: "2027-04-01", endsOn: "2027-06-30" }),
    ];
    const slot = { weekday: 4, start: "15:00", end: "16:00", subject: "Maths", teacherId: rao.user._id };
    const answers = await Promise.all([save(a, [slot]), save(b, [slot])]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(refused.body.error).toMatch(/^Ms Rao already teaches Repeaters [AB] on Thursday 15:00–16:00\.$/);
  });
});
