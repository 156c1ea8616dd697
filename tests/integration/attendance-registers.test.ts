import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { attendanceMarkChanges, memberships, onlineAttendance } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { makeBatch, makeSession, useClock, type TestClock } from "../helpers/class-sessions.ts";
import { notAllowed } from "../../server/auth/permissions.ts";
import type { MemberRole } from "../../common/memberships.ts";
import {
  NOT_STARTED,
  NOT_YOUR_SESSION,
  ONLINE_NOT_STUDENT,
  QR_EXPIRED,
  QR_INVALID,
  QR_NOT_RUNNING,
  QR_NOT_STUDENT,
  QR_OTHER_PHONE,
  QR_PHONE_USED,
  REASON_REQUIRED,
  REGISTER_CLOSED,
  SESSION_CANCELLED,
  SESSION_NOT_FOUND,
  notInBatch,
  type RegisterJson,
} from "../../common/validation/attendance.ts";

/**
 * Attendance registers (issue 41 §3, decision 0044) through the API, on a clock the test moves:
 * roll-call merged per student by seq (older and repeated batches change nothing, two teachers at
 * once both kept), who may mark, the close and late-arriving batches, corrections and history,
 * QR self-marking (windows, other sessions, the one-phone rule, never over a teacher's mark) and
 * online classes (join, beat, leave, rejoins merged, the minimum minutes).
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let clock: TestClock;
let owner: Account;
let teacherA: Account;
let teacherB: Account;
let stranger: Account;
const pupils: Account[] = [];
let outsider: Account;
let centerId: string;
let batchA: string;
let batchB: string;

const MIN = 60_000;
/** 09:30 in India on a Monday. */
const T0 = Date.UTC(2026, 10, 30, 4, 0);

const grant = (center: string, userId: string, role: MemberRole) =>
  t.database.db
    .insert(memberships)
    .values({ centerId: center, userId, role, status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  clock = useClock(t, T0);
  owner = await register(t, "business", { name: "Anita Sharma" });
  teacherA = await register(t, "creator", { name: "Kavya Iyer" });
  teacherB = await register(t, "creator", { name: "Mohan Das" });
  stranger = await register(t, "business", { name: "Ravi Rao" });
  const center = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "att-sunrise" });
  centerId = center.id;
  await createCenter(t, stranger.user._id, { instituteName: "Vidya Classes", slug: "att-vidya" });
  await grant(centerId, teacherA.user._id, "teacher");
  await grant(centerId, teacherB.user._id, "teacher");
  for (let i = 0; i < 6; i++) {
    const pupil = await register(t, "student", { name: `Pupil ${i + 1}` });
    await grant(centerId, pupil.user._id, "student");
    pupils.push(pupil);
  }
  outsider = await register(t, "student", { name: "Outside Olga" });
  await grant(centerId, outsider.user._id, "student");
  batchA = await makeBatch(
    t,
    owner.access_token,
    centerId,
    { name: "JEE Morning", teacherIds: [teacherA.user._id] },
    pupils.map((p) => p.user._id),
  );
  batchB = await makeBatch(t, owner.access_token, centerId, { name: "NEET Evening", teacherIds: [teacherB.user._id] }, [
    outsider.user._id,
  ]);
});
afterAll(() => t.close());

const as = (who: Account) => bearer(who.access_token);
const id = (i: number) => pupils[i].user._id;
const session = (o: Partial<Parameters<typeof makeSession>[1]> = {}) =>
  makeSession(t, { centerId, batchId: batchA, startsAt: new Date(T0), teacherId: teacherA.user._id, ...o });
const put = (who: Account, sessionId: string, body: unknown) =>
  postJson(t, `/api/sessions/${sessionId}/attendance`, body, { method: "PUT", headers: as(who) });
const json = async (res: Response) => ({ status: res.status, body: await res.json() });
const registerOf = async (who: Account, sessionId: string) => {
  const res = await t.request(`/api/sessions/${sessionId}/attendance`, { headers: as(who) });
  expect(res.status).toBe(200);
  return (await res.json()).register as RegisterJson;
};
const markOf = (register: RegisterJson, i: number) => register.students.find((s) => s.studentId === id(i))!;
const changesOf = async (sessionId: string) =>
  t.database.db.select().from(attendanceMarkChanges).where(eq(attendanceMarkChanges.sessionId, sessionId));

describe("roll-call", () => {
  it("keeps a register with a late mark; unmarked students have no status", async () => {
    const s = await session();
    clock.set(T0 + 12 * MIN);
    const res = await json(
      await put(teacherA, s, {
        seq: T0 + 12 * MIN,
        marks: [
          { studentId: id(0), status: "present" },
          { studentId: id(1), status: "absent" },
          { studentId: id(2), status: "late" },
          { studentId: id(3), status: "late", minutesLate: 7 },
        ],
      }),
    );
    expect(res.status).toBe(200);
    const register = res.body.register as RegisterJson;
    expect(register.session).toMatchObject({ _id: s, batchName: "JEE Morning", start: "09:30", end: "10:30" });
    expect(register.session).not.toHaveProperty("meetingUrl");
    expect(markOf(register, 2)).toMatchObject({ status: "late", minutesLate: 12, source: "roll-call" });
    expect(markOf(register, 3)).toMatchObject({ status: "late", minutesLate: 7 });
    expect(markOf(register, 4)).toMatchObject({ status: null, minutesLate: null, source: null, markedAt: null });
    expect(register.counts).toEqual({ present: 1, absent: 1, late: 2, excused: 0, unmarked: 2 });
    expect(register.lateAfterMinutes).toBe(10);
    expect(register.seq).toBe(T0 + 12 * MIN);
    expect((await registerOf(owner, s)).students).toEqual(register.students);
  });

  it("ignores an older seq per student, and a replayed batch changes nothing", async () => {
    const s = await session();
    clock.set(T0 + 20 * MIN);
    const newer = { seq: T0 + 15 * MIN, marks: [{ studentId: id(0), status: "present" }] };
    expect((await put(teacherA, s, newer)).status).toBe(200);
    const older = {
      seq: T0 + 14 * MIN,
      marks: [
        { studentId: id(0), status: "absent" },
        { studentId: id(1), status: "absent" },
      ],
    };
    const after = (await json(await put(teacherA, s, older))).body.register as RegisterJson;
    // The older batch is newer for the student the newer one did not mark.
    expect(markOf(after, 0).status).toBe("present");
    expect(markOf(after, 1).status).toBe("absent");
    const changes = (await changesOf(s)).length;
    const again = (await json(await put(teacherA, s, newer))).body.register as RegisterJson;
    expect(again.students).toEqual(after.students);
    expect((await changesOf(s)).length).toBe(changes);
  });

  it("applies two teachers' batches sent at once, each student by the newest seq", async () => {
    const s = await session();
    clock.set(T0 + 5 * MIN);
    const [a, b] = await Promise.all([
      put(teacherA, s, {
        seq: T0 + 2 * MIN,
        marks: [
          { studentId: id(0), status: "absent" },
          { studentId: id(1), status: "present" },
        ],
      }),
      put(owner, s, {
        seq: T0 + 3 * MIN,
        marks: [
          { studentId: id(0), status: "excused" },
          { studentId: id(2), status: "absent" },
        ],
      }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const register = await registerOf(teacherA, s);
    expect([0, 1, 2].map((i) => markOf(register, i).status)).toEqual(["excused", "present", "absent"]);
  });

  it("refuses a student not admitted in the batch, naming them, and applies nothing", async () => {
    const s = await session();
    clock.set(T0);
    const res = await json(
      await put(teacherA, s, {
        seq: T0,
        marks: [
          { studentId: id(0), status: "absent" },
          { studentId: outsider.user._id, status: "present" },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(notInBatch("Outside Olga"));
    expect(markOf(await registerOf(teacherA, s), 0).status).toBeNull();
  });

  it("refuses a cancelled class and one that has not started", async () => {
    const cancelled = await session({ status: "cancelled" });
    clock.set(T0);
    const marks = [{ studentId: id(0), status: "present" }];
    const refused = await json(await put(teacherA, cancelled, { seq: T0, marks }));
    expect(refused).toMatchObject({ status: 409, body: { error: SESSION_CANCELLED } });
    const later = await session();
    clock.set(T0 - 16 * MIN);
    const early = await json(await put(teacherA, later, { seq: T0 - 16 * MIN, marks }));
    expect(early).toMatchObject({ status: 409, body: { error: NOT_STARTED } });
    clock.set(T0 - 14 * MIN);
    expect((await put(teacherA, later, { seq: T0 - 14 * MIN, marks })).status).toBe(200);
  });

  it("refuses bad input in words", async () => {
    const s = await session();
    const bad = await json(await put(teacherA, s, { seq: 0, marks: [{ studentId: id(0), status: "here" }] }));
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { message: string }) => i.message)).toEqual(
      expect.arrayContaining(['Status must be "present", "absent", "late" or "excused"']),
    );
  });
});

describe("who may mark", () => {
  it("lets the session's teacher, owners and staff; refuses another batch's teacher, a student and another institute", async () => {
    const s = await session({ teacherId: null });
    clock.set(T0);
    const marks = [{ studentId: id(0), status: "present" }];
    expect((await put(teacherA, s, { seq: T0, marks })).status).toBe(200);
    const other = await json(await put(teacherB, s, { seq: T0 + 1, marks }));
    expect(other).toMatchObject({ status: 403, body: { error: NOT_YOUR_SESSION } });
    expect((await t.request(`/api/sessions/${s}/attendance`, { headers: as(teacherB) })).status).toBe(403);
    const pupil = await json(await put(pupils[0], s, { seq: T0 + 1, marks }));
    expect(pupil).toMatchObject({ status: 403, body: { error: notAllowed("attendance.mark") } });
    const elsewhere = await json(await put(stranger, s, { seq: T0 + 1, marks }));
    expect(elsewhere).toMatchObject({ status: 404, body: { error: SESSION_NOT_FOUND } });
    // A substitute named on the session marks it, though the batch is not theirs.
    const substituted = await session({ teacherId: teacherB.user._id });
    expect((await put(teacherB, substituted, { seq: T0, marks })).status).toBe(200);
  });

  it("lets a creator who teaches the batch mark it (a creator may teach), and refuses one who does not", async () => {
    const teaching = await register(t, "creator", { name: "Creator Chitra" });
    const notTeaching = await register(t, "creator", { name: "Creator Dev" });
    await grant(centerId, teaching.user._id, "creator");
    await grant(centerId, notTeaching.user._id, "creator");
    const s = await session({ teacherId: teaching.user._id });
    clock.set(T0);
    const marks = [{ studentId: id(1), status: "absent" }];
    expect((await put(teaching, s, { seq: T0, marks })).status).toBe(200);
    expect(markOf(await registerOf(teaching, s), 1).status).toBe("absent");
    const refused = await json(await put(notTeaching, s, { seq: T0 + 1, marks }));
    expect(refused).toMatchObject({ status: 403, body: { error: NOT_YOUR_SESSION } });
  });
});

describe("closing and correcting", () => {
  it("takes a late-arriving batch taken before the close, refuses one taken after", async () => {
    const s = await session();
    clock.set(T0 + 50 * MIN);
    const closed = await json(await postJson(t, `/api/sessions/${s}/attendance/close`, {}, { headers: as(teacherA) }));
    expect(closed.status).toBe(200);
    const closedAt = closed.body.register.closedAt;
    expect(closedAt).toBe(new Date(T0 + 50 * MIN).toISOString());
    clock.set(T0 + 55 * MIN);
    const offline = await put(teacherA, s, { seq: T0 + 40 * MIN, marks: [{ studentId: id(0), status: "absent" }] });
    expect(offline.status).toBe(200);
    expect(markOf(await registerOf(owner, s), 0).status).toBe("absent");
    const after = await json(
      await put(teacherA, s, { seq: T0 + 51 * MIN, marks: [{ studentId: id(1), status: "absent" }] }),
    );
    expect(after).toMatchObject({ status: 409, body: { error: REGISTER_CLOSED } });
    const again = await json(await postJson(t, `/api/sessions/${s}/attendance/close`, {}, { headers: as(owner) }));
    expect(again.status).toBe(200);
    expect(again.body.register.closedAt).toBe(closedAt);
  });

  it("corrects a mark only with a reason and keeps it in the history", async () => {
    const s = await session();
    clock.set(T0 + 10 * MIN);
    await put(teacherA, s, { seq: T0 + 10 * MIN, marks: [{ studentId: id(0), status: "absent" }] });
    clock.set(T0 + 70 * MIN);
    await postJson(t, `/api/sessions/${s}/attendance/close`, {}, { headers: as(teacherA) });
    const path = `/api/sessions/${s}/attendance/${id(0)}/correction`;
    const bare = await json(await postJson(t, path, { status: "excused" }, { headers: as(teacherA) }));
    expect(bare).toMatchObject({ status: 400, body: { error: REASON_REQUIRED } });
    const short = await json(await postJson(t, path, { status: "excused", reason: " ok " }, { headers: as(teacherA) }));
    expect(short).toMatchObject({ status: 400, body: { error: REASON_REQUIRED } });
    expect(markOf(await registerOf(owner, s), 0).status).toBe("absent");
    clock.set(T0 + 80 * MIN);
    const fixed = await json(
      await postJson(t, path, { status: "excused", reason: "Medical note shown" }, { headers: as(teacherA) }),
    );
    expect(fixed.status).toBe(200);
    expect(fixed.body.mark).toMatchObject({ studentId: id(0), status: "excused", source: "correction" });
    const history = await json(await t.request(`/api/sessions/${s}/attendance/history`, { headers: as(owner) }));
    expect(history.status).toBe(200);
    expect(history.body.changes[0]).toMatchObject({
      studentId: id(0),
      student: "Pupil 1",
      from: "absent",
      to: "excused",
      source: "correction",
      reason: "Medical note shown",
      by: { _id: teacherA.user._id, name: "Kavya Iyer" },
    });
  });
});

describe("QR self-marking", () => {
  const scan = (who: Account, code: string, device?: string) =>
    postJson(
      t,
      "/api/attendance/qr",
      { code },
      {
        headers: { ...as(who), ...(device ? { cookie: `pathshala_device=${device}` } : {}) },
      },
    );
  const qrOf = async (sessionId: string) => {
    const res = await t.request(`/api/sessions/${sessionId}/qr`, { headers: as(teacherA) });
    expect(res.status).toBe(200);
    return (await res.json()) as { code: string; expiresAt: string; url: string };
  };
  const deviceFrom = (res: Response) => /pathshala_device=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];

  it("marks with the current code, once per phone, never over a teacher's mark", async () => {
    const s = await session();
    clock.set(T0 + 2 * MIN + 1_000);
    const qr = await qrOf(s);
    expect(qr.url).toBe(`https://att-sunrise.test/attend?c=${encodeURIComponent(qr.code)}`);
    expect(Date.parse(qr.expiresAt) - clock.now).toBeLessThanOrEqual(20_000);
    const first = await scan(pupils[0], qr.code);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ status: "present", mark: "present" });
    const phone = deviceFrom(first)!;
    expect(first.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    // The same phone for another student; the same student from another phone.
    const lent = await json(await scan(pupils[1], qr.code, phone));
    expect(lent).toMatchObject({ status: 409, body: { error: QR_PHONE_USED } });
    const other = await json(await scan(pupils[0], qr.code));
    expect(other).toMatchObject({ status: 409, body: { error: QR_OTHER_PHONE } });
    // The teacher's Absent stands.
    await put(teacherA, s, { seq: clock.now, marks: [{ studentId: id(2), status: "absent" }] });
    const overridden = await json(await scan(pupils[2], qr.code));
    expect(overridden).toMatchObject({ status: 200, body: { status: "present", mark: "absent" } });
    const register = await registerOf(teacherA, s);
    expect(markOf(register, 2)).toMatchObject({ status: "absent", source: "roll-call" });
    expect(markOf(register, 0)).toMatchObject({ status: "present", source: "qr" });
  });

  it("takes the previous window's code for 5 seconds after it rotates, then refuses it", async () => {
    const s = await session();
    clock.set(T0 + 20 * 20_000 + 1_000);
    const qr = await qrOf(s);
    const windowEnd = Date.parse(qr.expiresAt);
    clock.set(windowEnd + 4_000);
    expect((await scan(pupils[3], qr.code)).status).toBe(200);
    clock.set(windowEnd + 6_000);
    const late = await json(await scan(pupils[4], qr.code));
    expect(late).toMatchObject({ status: 409, body: { error: QR_EXPIRED } });
    // The code now shown is taken, and after the late threshold it marks late.
    clock.set(T0 + 12 * MIN);
    const now = await json(await scan(pupils[4], (await qrOf(s)).code));
    expect(now).toMatchObject({ status: 200, body: { status: "late", mark: "late" } });
  });

  it("refuses an altered code, a session of another batch, and a class not running", async () => {
    const s = await session();
    const elsewhere = await makeSession(t, {
      centerId,
      batchId: batchB,
      startsAt: new Date(T0),
      teacherId: teacherA.user._id,
    });
    clock.set(T0 + MIN);
    const qr = await qrOf(s);
    const altered = await json(await scan(pupils[5], qr.code.replace(s, elsewhere)));
    expect(altered).toMatchObject({ status: 400, body: { error: QR_INVALID } });
    const theirs = await json(await scan(pupils[5], (await qrOf(elsewhere)).code));
    expect(theirs).toMatchObject({ status: 403, body: { error: QR_NOT_STUDENT } });
    const notAdmitted = await json(await scan(outsider, qr.code));
    expect(notAdmitted).toMatchObject({ status: 403, body: { error: QR_NOT_STUDENT } });
    clock.set(T0 + 61 * MIN);
    const over = await json(await t.request(`/api/sessions/${s}/qr`, { headers: as(teacherA) }));
    expect(over).toMatchObject({ status: 409, body: { error: QR_NOT_RUNNING } });
  });
});

describe("online classes", () => {
  const call = (who: Account, sessionId: string, what: "join" | "beat" | "leave") =>
    postJson(t, `/api/sessions/${sessionId}/online/${what}`, {}, { headers: as(who) });
  /** Beats every minute from now until `until`. */
  const beatUntil = async (who: Account, sessionId: string, until: number) => {
    while (clock.now + MIN <= until) {
      clock.advance(MIN);
      expect((await call(who, sessionId, "beat")).status).toBe(200);
    }
  };
  const intervals = async (sessionId: string, who: Account) =>
    (await t.database.db.select().from(onlineAttendance).where(eq(onlineAttendance.sessionId, sessionId))).filter(
      (r) => r.userId === who.user._id,
    );
  const meet = "https://meet.example.com/abc-defg-hij";

  it("gives the link only to an admitted student while the class runs", async () => {
    const s = await session({ online: true, meetingUrl: meet });
    clock.set(T0);
    const refused = await json(await call(outsider, s, "join"));
    expect(refused).toMatchObject({ status: 403, body: { error: ONLINE_NOT_STUDENT } });
    expect(JSON.stringify(refused.body)).not.toContain(meet);
    const joined = await json(await call(pupils[0], s, "join"));
    expect(joined).toMatchObject({ status: 200, body: { meetingUrl: meet } });
    expect(JSON.stringify((await registerOf(teacherA, s)).session)).not.toContain(meet);
  });

  it("merges a rejoin within two minutes and counts minutes to the minimum", async () => {
    const s = await session({ online: true, meetingUrl: meet });
    clock.set(T0);
    await call(pupils[1], s, "join");
    await beatUntil(pupils[1], s, T0 + 20 * MIN);
    await call(pupils[1], s, "leave");
    clock.set(T0 + 21 * MIN);
    await call(pupils[1], s, "join");
    expect(await intervals(s, pupils[1])).toHaveLength(1);
    await beatUntil(pupils[1], s, T0 + 44 * MIN);
    expect(markOf(await registerOf(teacherA, s), 1)).toMatchObject({ status: "absent", onlineMinutes: 44 });
    await beatUntil(pupils[1], s, T0 + 50 * MIN);
    expect(markOf(await registerOf(teacherA, s), 1)).toMatchObject({
      status: "present",
      onlineMinutes: 50,
      source: "online",
    });
  });

  it("opens a new interval after a longer gap, and the gap does not count", async () => {
    const s = await session({ online: true, meetingUrl: meet });
    clock.set(T0);
    await call(pupils[2], s, "join");
    await beatUntil(pupils[2], s, T0 + 30 * MIN);
    await call(pupils[2], s, "leave");
    clock.set(T0 + 40 * MIN);
    await call(pupils[2], s, "join");
    await beatUntil(pupils[2], s, T0 + 60 * MIN);
    expect(await intervals(s, pupils[2])).toHaveLength(2);
    expect(markOf(await registerOf(teacherA, s), 2)).toMatchObject({ status: "present", onlineMinutes: 50 });
  });

  it("marks late a first join after the threshold with enough minutes; a join with no beats is not attendance", async () => {
    const s = await session({ online: true, meetingUrl: meet });
    clock.set(T0 + 15 * MIN);
    await call(pupils[3], s, "join");
    await beatUntil(pupils[3], s, T0 + 60 * MIN);
    clock.set(T0 + 20 * MIN);
    await call(pupils[4], s, "join");
    const register = await registerOf(teacherA, s);
    expect(markOf(register, 3)).toMatchObject({ status: "late", minutesLate: 15, onlineMinutes: 45 });
    expect(markOf(register, 4)).toMatchObject({ status: "absent", onlineMinutes: 0 });
  });
});
