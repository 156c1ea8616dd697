import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { attendancePolicies } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { notAllowed } from "../../server/auth/permissions.ts";
import { AttendanceReportService } from "../../server/services/attendance-reports.ts";
import {
  BATCH_NOT_FOUND,
  BOTH_DATES,
  INSTITUTE_NOT_FOUND,
  MONTH_TEXT,
  NO_ATTENDANCE_ROLE,
  NOT_YOUR_BATCH,
  NOT_YOUR_TEACHING,
  ONLY_YOUR_OWN,
  POLICY_TEXTS,
} from "../../common/validation/attendance-reports.ts";
import { indiaDate } from "../../common/india-dates.ts";
import { addRegister, addSession, admitStudents, grantRole, makeBatch, markAll } from "../helpers/attendance-rows.ts";

/**
 * Attendance reports (issue 41 §4) through the API: the percentage rule (attended = present +
 * late; excused left out; cancelled sessions never count; a missing mark is absent only once the
 * register is closed), who sees what (owners and staff the institute, a teacher their batches, a
 * student their own record, another institute nothing), the CSV export, the flagged list over
 * the last 30 days against the institute's threshold, and the policy's validation.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let staffer: Account;
let otherOwner: Account;
let kavya: Account;
let arjun: Account;
let parent: Account;
let p1: Account;
let p2: Account;
let p3: Account;
let p4: Account;
let sunriseId: string;
let vidyaId: string;
let morning: { _id: string; name: string };
let evening: { _id: string; name: string };

const DAY = 86_400_000;
const NOW = Date.now();
const daysAgo = (n: number) => new Date(NOW - n * DAY);
const FROM = indiaDate(daysAgo(10));
const TO = indiaDate(daysAgo(0));

const as = (who: Account) => bearer(who.access_token);
const get = async (who: Account, path: string, headers: Record<string, string> = {}) => {
  const res = await t.request(path, { headers: { ...as(who), ...headers } });
  const type = res.headers.get("content-type") ?? "";
  return { status: res.status, res, body: type.includes("json") ? await res.json() : await res.text() };
};
const putPolicy = (who: Account, body: Record<string, unknown>) =>
  t.request("/api/attendance/policy", {
    method: "PUT",
    headers: { ...as(who), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const report = (who: Account, query: string) =>
  get(who, `/api/attendance?centerId=${sunriseId}&from=${FROM}&to=${TO}${query}`);
const byName = (rows: { name: string }[]) => Object.fromEntries(rows.map((r) => [r.name, r]));

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  staffer = await register(t, "business", { name: "Front Desk Farah" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  kavya = await register(t, "creator", { name: "Kavya Iyer" });
  arjun = await register(t, "creator", { name: "Arjun Mehta" });
  parent = await register(t, "student", { name: "Sunil Das" });
  p1 = await register(t, "student", { name: "Priya Das" });
  p2 = await register(t, "student", { name: "Rohan Gupta" });
  p3 = await register(t, "student", { name: "Meena Joshi" });
  p4 = await register(t, "student", { name: "Zoya Ali" });
  sunriseId = (await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "rep-sunrise" })).id;
  vidyaId = (await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "rep-vidya" })).id;
  await grantRole(t, sunriseId, staffer.user._id, "staff");
  await grantRole(t, sunriseId, kavya.user._id, "teacher");
  await grantRole(t, sunriseId, arjun.user._id, "teacher");
  await grantRole(t, sunriseId, parent.user._id, "parent");
  for (const p of [p1, p2, p3, p4]) await grantRole(t, sunriseId, p.user._id, "student");
  const since = daysAgo(60);
  morning = await makeBatch(t, owner.access_token, sunriseId, { name: "JEE Morning", teacherIds: [kavya.user._id] });
  evening = await makeBatch(t, owner.access_token, sunriseId, { name: "NEET Evening", teacherIds: [arjun.user._id] });
  await admitStudents(
    t,
    owner.access_token,
    morning._id,
    [p1, p2, p3].map((p) => p.user._id),
    since,
  );
  await admitStudents(t, owner.access_token, evening._id, [p4.user._id], since);

  const session = (days: number, batchId: string, teacherId: string, status?: "cancelled") =>
    addSession(t, { centerId: sunriseId, batchId, startsAt: daysAgo(days), teacherId, status });
  // Morning, taught by Kavya.
  const s1 = await session(5, morning._id, kavya.user._id);
  await addRegister(t, s1, sunriseId, daysAgo(5));
  await markAll(t, s1, sunriseId, { [p1.user._id]: "present", [p2.user._id]: "absent" }); // Meena unmarked: absent
  const s2 = await session(4, morning._id, kavya.user._id);
  await addRegister(t, s2, sunriseId, daysAgo(4));
  await markAll(t, s2, sunriseId, { [p1.user._id]: "late", [p2.user._id]: "excused", [p3.user._id]: "present" });
  const s3 = await session(3, morning._id, kavya.user._id, "cancelled");
  await addRegister(t, s3, sunriseId, daysAgo(3));
  await markAll(t, s3, sunriseId, { [p1.user._id]: "absent", [p2.user._id]: "absent" }); // never counts
  const s4 = await session(2, morning._id, kavya.user._id);
  await addRegister(t, s4, sunriseId, null); // still open: Rohan's missing mark does not count yet
  await markAll(t, s4, sunriseId, { [p1.user._id]: "present", [p3.user._id]: "absent" });
  // Evening, taught by Arjun.
  const s5 = await session(1, evening._id, arjun.user._id);
  await addRegister(t, s5, sunriseId, daysAgo(1));
  await markAll(t, s5, sunriseId, { [p4.user._id]: "absent" });
  // Long ago, outside the report and the flag's 30 days: Priya absent.
  const old = await session(45, morning._id, kavya.user._id);
  await addRegister(t, old, sunriseId, daysAgo(45));
  await markAll(t, old, sunriseId, { [p1.user._id]: "absent" });
});
afterAll(() => t.close());

describe("the percentage rule", () => {
  it("counts present and late as attended, leaves excused out, never counts a cancelled session, and counts a missing mark absent only once the register is closed", async () => {
    const { status, body } = await report(owner, "");
    expect(status).toBe(200);
    expect(body.from).toBe(FROM);
    expect(body.to).toBe(TO);
    const rows = byName(body.rows);
    expect(Object.keys(rows).sort()).toEqual(["Meena Joshi", "Priya Das", "Rohan Gupta", "Zoya Ali"]);
    expect(rows["Priya Das"]).toEqual({
      studentId: p1.user._id,
      name: "Priya Das",
      batchId: morning._id,
      batchName: "JEE Morning",
      present: 2,
      late: 1,
      absent: 0,
      excused: 0,
      sessions: 3,
      percent: 100,
    });
    expect(rows["Rohan Gupta"]).toMatchObject({ present: 0, late: 0, absent: 1, excused: 1, sessions: 1, percent: 0 });
    expect(rows["Meena Joshi"]).toMatchObject({
      present: 1,
      late: 0,
      absent: 2,
      excused: 0,
      sessions: 3,
      percent: 33.3,
    });
    expect(rows["Zoya Ali"]).toMatchObject({ batchName: "NEET Evening", absent: 1, sessions: 1, percent: 0 });
    expect(body.totals).toEqual({ present: 3, late: 1, absent: 4, excused: 1, sessions: 8, percent: 50 });
    // Staff see the same; a batch's report has its students only.
    expect((await report(staffer, "")).body.rows).toEqual(body.rows);
    const batch = await report(owner, `&batchId=${evening._id}`);
    expect(batch.body.rows.map((r: { name: string }) => r.name)).toEqual(["Zoya Ali"]);
  });

  it("reports a month, and by teacher the sessions they taught", async () => {
    const month = indiaDate(daysAgo(45)).slice(0, 7);
    const old = await get(owner, `/api/attendance?centerId=${sunriseId}&month=${month}&studentId=${p1.user._id}`);
    expect(old.status).toBe(200);
    const priya = old.body.rows.find((r: { batchId: string }) => r.batchId === morning._id);
    expect(priya.absent).toBeGreaterThanOrEqual(1);
    const byTeacher = await report(owner, `&teacherId=${arjun.user._id}`);
    expect(byTeacher.body.rows.map((r: { name: string }) => r.name)).toEqual(["Zoya Ali"]);

    const teachers = await get(owner, `/api/attendance/teachers?centerId=${sunriseId}&from=${FROM}&to=${TO}`);
    expect(teachers.status).toBe(200);
    expect(teachers.body.teachers).toEqual([
      { teacherId: arjun.user._id, name: "Arjun Mehta", sessions: 1, closed: 1, open: 0 },
      { teacherId: kavya.user._id, name: "Kavya Iyer", sessions: 3, closed: 2, open: 1 },
    ]);
  });

  it("refuses a bad month and half a range, naming them", async () => {
    const bad = await get(owner, `/api/attendance?centerId=${sunriseId}&month=2026-13`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(MONTH_TEXT);
    const half = await get(owner, `/api/attendance?centerId=${sunriseId}&from=${FROM}`);
    expect(half.status).toBe(400);
    expect(half.body.error).toBe(BOTH_DATES);
  });
});

describe("who sees what", () => {
  it("shows a student their own record only", async () => {
    const own = await report(p1, "");
    expect(own.status).toBe(200);
    expect(own.body.rows.map((r: { studentId: string }) => r.studentId)).toEqual([p1.user._id]);
    // Without an institute: their own record wherever they study.
    const anywhere = await get(p1, `/api/attendance?from=${FROM}&to=${TO}`);
    expect(anywhere.body.rows).toEqual(own.body.rows);
    for (const query of [`&studentId=${p2.user._id}`, `&batchId=${morning._id}`]) {
      const refused = await report(p1, query);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(ONLY_YOUR_OWN);
    }
    expect((await report(p1, `&studentId=${p1.user._id}`)).body.rows).toEqual(own.body.rows);
    const flagged = await get(p1, `/api/attendance/flagged?centerId=${sunriseId}`);
    expect(flagged.status).toBe(403);
    expect(flagged.body.error).toBe(NO_ATTENDANCE_ROLE);
    const parents = await report(parent, "");
    expect(parents.status).toBe(403);
    expect(parents.body.error).toBe(NO_ATTENDANCE_ROLE);
  });

  it("shows a teacher the batches they teach and their own sessions only", async () => {
    const mine = await report(kavya, "");
    expect(mine.status).toBe(200);
    expect(mine.body.rows.map((r: { name: string }) => r.name).sort()).toEqual([
      "Meena Joshi",
      "Priya Das",
      "Rohan Gupta",
    ]);
    const other = await report(kavya, `&batchId=${evening._id}`);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe(NOT_YOUR_BATCH);
    const colleague = await report(kavya, `&teacherId=${arjun.user._id}`);
    expect(colleague.status).toBe(403);
    expect(colleague.body.error).toBe(NOT_YOUR_TEACHING);
    const teachers = await get(kavya, `/api/attendance/teachers?centerId=${sunriseId}&from=${FROM}&to=${TO}`);
    expect(teachers.body.teachers.map((r: { name: string }) => r.name)).toEqual(["Kavya Iyer"]);
    const flagged = await get(kavya, `/api/attendance/flagged?centerId=${sunriseId}`);
    expect(flagged.body.students.map((s: { name: string }) => s.name)).toEqual(["Rohan Gupta", "Meena Joshi"]);
  });

  it("finds nothing of another institute", async () => {
    const theirs = await report(otherOwner, "");
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe(INSTITUTE_NOT_FOUND);
    const batch = await get(otherOwner, `/api/attendance?centerId=${vidyaId}&batchId=${morning._id}`);
    expect(batch.status).toBe(404);
    expect(batch.body.error).toBe(BATCH_NOT_FOUND);
    expect((await get(otherOwner, `/api/attendance/flagged?centerId=${sunriseId}`)).status).toBe(404);
    const own = await get(otherOwner, `/api/attendance?centerId=${vidyaId}`);
    expect(own.body.rows).toEqual([]);
  });
});

describe("CSV export", () => {
  it("gives the same rows as a CSV file, with format=csv or Accept: text/csv", async () => {
    const json = (await report(owner, "")).body;
    for (const csv of [
      await report(owner, "&format=csv"),
      await get(owner, `/api/attendance?centerId=${sunriseId}&from=${FROM}&to=${TO}`, { accept: "text/csv" }),
    ]) {
      expect(csv.status).toBe(200);
      expect(csv.res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(csv.res.headers.get("content-disposition")).toBe(`attachment; filename="attendance-${FROM}-to-${TO}.csv"`);
      const lines = (csv.body as string)
        .replace(/^\ufeff/, "")
        .trimEnd()
        .split("\r\n");
      expect(lines[0]).toBe("Student ID,Student,Batch ID,Batch,Present,Late,Absent,Excused,Sessions,Percent");
      expect(lines).toHaveLength(json.rows.length + 1);
      expect(lines).toContain(`${p3.user._id},Meena Joshi,${morning._id},JEE Morning,1,0,2,0,3,33.3`);
      expect(lines).toContain(`${p1.user._id},Priya Das,${morning._id},JEE Morning,2,1,0,0,3,100.0`);
    }
  });
});

describe("flagged students and the policy", () => {
  it("flags students below the institute's percentage over the last 30 days, lowest first, and follows a new threshold", async () => {
    const flagged = await get(owner, `/api/attendance/flagged?centerId=${sunriseId}`);
    expect(flagged.status).toBe(200);
    expect(flagged.body.lowAttendancePercent).toBe(75);
    expect(flagged.body.students).toEqual([
      {
        studentId: p2.user._id,
        name: "Rohan Gupta",
        batchId: morning._id,
        batchName: "JEE Morning",
        percent: 0,
        sessions: 1,
      },
      {
        studentId: p4.user._id,
        name: "Zoya Ali",
        batchId: evening._id,
        batchName: "NEET Evening",
        percent: 0,
        sessions: 1,
      },
      {
        studentId: p3.user._id,
        name: "Meena Joshi",
        batchId: morning._id,
        batchName: "JEE Morning",
        percent: 33.3,
        sessions: 3,
      },
    ]);
    const saved = await putPolicy(owner, {
      centerId: sunriseId,
      lateAfterMinutes: 5,
      onlineMinimumMinutes: 40,
      lowAttendancePercent: 30,
      absenceAlerts: true,
    });
    expect(saved.status).toBe(200);
    const lower = await get(owner, `/api/attendance/flagged?centerId=${sunriseId}`);
    expect(lower.body.students.map((s: { name: string }) => s.name)).toEqual(["Rohan Gupta", "Zoya Ali"]);

    // 50 days on, the sessions above are past the 30 days: nobody is flagged.
    const later = new AttendanceReportService({
      db: t.database.db,
      policies: t.services.attendancePolicies,
      now: () => NOW + 50 * DAY,
    });
    expect((await later.flagged({ scope: "institute", userId: owner.user._id, centerId: sunriseId })).students).toEqual(
      [],
    );
  });

  it("has the defaults until saved, refuses values out of range naming the field and its range, and lets only owners and staff save", async () => {
    const fresh = await get(otherOwner, `/api/attendance/policy?centerId=${vidyaId}`);
    expect(fresh.status).toBe(200);
    expect(fresh.body.policy).toEqual({
      centerId: vidyaId,
      lateAfterMinutes: 10,
      onlineMinimumMinutes: 45,
      lowAttendancePercent: 75,
      absenceAlerts: true,
      updatedAt: null,
    });
    const good = {
      centerId: vidyaId,
      lateAfterMinutes: 15,
      onlineMinimumMinutes: 30,
      lowAttendancePercent: 80,
      absenceAlerts: false,
    };
    for (const [field, value, text] of [
      ["lateAfterMinutes", 241, POLICY_TEXTS.lateAfterMinutes],
      ["lateAfterMinutes", 2.5, POLICY_TEXTS.lateAfterMinutes],
      ["onlineMinimumMinutes", 0, POLICY_TEXTS.onlineMinimumMinutes],
      ["lowAttendancePercent", 101, POLICY_TEXTS.lowAttendancePercent],
      ["lowAttendancePercent", "75", POLICY_TEXTS.lowAttendancePercent],
      ["absenceAlerts", "yes", POLICY_TEXTS.absenceAlerts],
    ] as const) {
      const res = await putPolicy(otherOwner, { ...good, [field]: value });
      expect(res.status, `${field} ${value}`).toBe(400);
      expect((await res.json()).error).toBe(text);
    }
    expect(POLICY_TEXTS.lateAfterMinutes).toBe("Late after must be a whole number of minutes from 0 to 240.");
    expect(
      await t.database.db.select().from(attendancePolicies).where(eq(attendancePolicies.centerId, vidyaId)),
    ).toEqual([]);
    const saved = await putPolicy(otherOwner, good);
    expect(saved.status).toBe(200);
    expect((await saved.json()).policy).toMatchObject({ ...good, centerId: vidyaId });

    expect((await putPolicy(staffer, { ...good, centerId: sunriseId })).status).toBe(200);
    const teacher = await putPolicy(kavya, { ...good, centerId: sunriseId });
    expect(teacher.status).toBe(403);
    expect((await teacher.json()).error).toBe(notAllowed("batches.manage"));
    expect((await get(kavya, `/api/attendance/policy?centerId=${sunriseId}`)).body.policy.lateAfterMinutes).toBe(15);
    expect((await get(p1, `/api/attendance/policy?centerId=${sunriseId}`)).status).toBe(403);
  });
});
