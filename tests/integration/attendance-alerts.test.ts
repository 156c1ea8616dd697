import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, like } from "drizzle-orm";
import { attendanceRegisters, batches, centers, messages } from "../../server/db/schema/index.ts";
import { DEMO_CENTERS } from "../../server/seed/demo-data.ts";
import { AbsenceAlerts } from "../../server/messages/absence-alerts.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { DEMO_ATTENDANCE } from "../../server/seed/demo-attendance.ts";
import { attendanceViewerFor } from "../helpers/attendance-rows.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import {
  addRegister,
  addSession,
  admitStudents,
  grantRole,
  makeBatch,
  markAll,
  verifyPhone,
} from "../helpers/attendance-rows.ts";

/**
 * Absence alerts (issue 41 §4): the clock closes a register 30 minutes after its session ends
 * (making one for a session nobody marked), then tells each student marked Absent, once, on
 * WhatsApp and SMS; never a student with no mark, never an open register, never an institute
 * with alerts off, and never twice, however many runs meet. The clock's time is injected.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let otherOwner: Account;
let asha: Account;
let bilal: Account;
let chitra: Account;
let dev: Account;
let esha: Account;
let sunriseId: string;
let vidyaId: string;
let morning: { _id: string; name: string };
let vidyaBatch: { _id: string; name: string };

const MINUTE = 60_000;
/** 10:00 India time on 10 May 2027: after every admission the tests make. */
const T0 = new Date("2027-05-10T04:30:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);
const PHONES = { asha: "+919830000101", bilal: "+919830000102", chitra: "+919830000103", esha: "+919830000105" };

/** The absence alerts written so far (every channel), in the order written. */
const alerts = async () =>
  (
    await t.database.db
      .select({
        channel: messages.channel,
        recipient: messages.recipient,
        text: messages.text,
        key: messages.dedupeKey,
      })
      .from(messages)
      .where(eq(messages.template, "attendance-absent"))
  ).sort((a, b) => `${a.recipient}${a.channel}`.localeCompare(`${b.recipient}${b.channel}`));
const alertsFor = async (sessionId: string) =>
  t.database.db
    .select()
    .from(messages)
    .where(like(messages.dedupeKey, `attendance-absent:${sessionId}:%`));
const registerOf = async (sessionId: string) =>
  (await t.database.db.select().from(attendanceRegisters).where(eq(attendanceRegisters.sessionId, sessionId)))[0];

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  asha = await register(t, "student", { name: "Asha Verma" });
  bilal = await register(t, "student", { name: "Bilal Khan" });
  chitra = await register(t, "student", { name: "Chitra Nair" });
  dev = await register(t, "student", { name: "Dev Malhotra" });
  esha = await register(t, "student", { name: "Esha Gupta" });
  sunriseId = (await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "alert-sunrise" })).id;
  vidyaId = (await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "alert-vidya" })).id;
  for (const s of [asha, bilal, chitra, dev]) await grantRole(t, sunriseId, s.user._id, "student");
  await grantRole(t, vidyaId, esha.user._id, "student");
  await verifyPhone(t, asha.user._id, PHONES.asha);
  await verifyPhone(t, bilal.user._id, PHONES.bilal);
  await verifyPhone(t, chitra.user._id, PHONES.chitra);
  await verifyPhone(t, esha.user._id, PHONES.esha);
  morning = await makeBatch(t, owner.access_token, sunriseId, { name: "JEE 2027 Morning" });
  await admitStudents(
    t,
    owner.access_token,
    morning._id,
    [asha, bilal, chitra, dev].map((s) => s.user._id),
    new Date("2027-04-01T00:00:00Z"),
  );
  vidyaBatch = await makeBatch(t, otherOwner.access_token, vidyaId, { name: "NEET Evening" });
  await admitStudents(t, otherOwner.access_token, vidyaBatch._id, [esha.user._id], new Date("2027-04-01T00:00:00Z"));
});
afterAll(() => t.close());

describe("the clock closes registers", () => {
  it("closes a register 30 minutes after its session ends, not before, and only then tells the absentee, once", async () => {
    const session = await addSession(t, { centerId: sunriseId, batchId: morning._id, startsAt: at(0), minutes: 60 });
    await addRegister(t, session, sunriseId, null);
    // Asha absent, Bilal present, Chitra late; Dev was never marked.
    await markAll(t, session, sunriseId, {
      [asha.user._id]: "absent",
      [bilal.user._id]: "present",
      [chitra.user._id]: "late",
    });

    // 29 minutes after the end the register is still open: nobody is told anything.
    await t.services.absenceAlerts.run(at(60 + 29));
    expect((await registerOf(session)).closedAt).toBeNull();
    expect(await alertsFor(session)).toEqual([]);

    await t.services.absenceAlerts.run(at(60 + 30));
    const closed = await registerOf(session);
    expect(closed.closedAt?.toISOString()).toBe(at(90).toISOString());
    expect(closed.closedById).toBeNull();
    expect(closed.alertsSentAt?.toISOString()).toBe(at(90).toISOString());
    const sent = await alertsFor(session);
    expect(sent.map((m) => [m.channel, m.recipient]).sort()).toEqual([
      ["sms", PHONES.asha],
      ["whatsapp", PHONES.asha],
    ]);
    expect(sent.every((m) => m.status !== "held" && m.status !== "skipped")).toBe(true);
    expect(sent[0].text).toBe(
      "Asha Verma was marked absent from Physics (JEE 2027 Morning) on 10 May 2027 at 10:00 am. — Sunrise Academy",
    );
    expect(sent[0].centerId).toBe(sunriseId);

    // Later runs (the next minutes, the next hours) write nothing more.
    await t.services.absenceAlerts.run(at(91));
    await t.services.absenceAlerts.run(at(300));
    expect(await alertsFor(session)).toHaveLength(2);
  });

  it("closes a session nobody marked with a register of its own and alerts nobody; leaves a cancelled one alone", async () => {
    const unmarked = await addSession(t, { centerId: sunriseId, batchId: morning._id, startsAt: at(120), minutes: 60 });
    const cancelled = await addSession(t, {
      centerId: sunriseId,
      batchId: morning._id,
      startsAt: at(120),
      minutes: 60,
      subject: "Chemistry",
      status: "cancelled",
    });
    await addRegister(t, cancelled, sunriseId, null);
    await markAll(t, cancelled, sunriseId, { [asha.user._id]: "absent" });
    expect(await registerOf(unmarked)).toBeUndefined();

    await t.services.absenceAlerts.run(at(120 + 60 + 30));
    const made = await registerOf(unmarked);
    expect(made.centerId).toBe(sunriseId);
    expect(made.closedAt?.toISOString()).toBe(at(210).toISOString());
    expect(await alertsFor(unmarked)).toEqual([]);
    expect((await registerOf(cancelled)).closedAt).toBeNull();
    expect(await alertsFor(cancelled)).toEqual([]);
  });

  it("runs with the reminders' clock", async () => {
    const session = await addSession(t, {
      centerId: sunriseId,
      batchId: morning._id,
      startsAt: at(24 * 60),
      minutes: 45,
    });
    await markAll(t, session, sunriseId, { [bilal.user._id]: "absent" });
    await t.services.reminders.run(at(24 * 60 + 45 + 30));
    expect((await alertsFor(session)).map((m) => m.recipient)).toEqual([PHONES.bilal, PHONES.bilal]);
  });
});

describe("alerts for registers the teacher closed", () => {
  it("tells each absentee once even when two instances run at the same moment", async () => {
    const session = await addSession(t, {
      centerId: sunriseId,
      batchId: morning._id,
      startsAt: at(2 * 24 * 60),
      subject: "Mathematics",
    });
    // The teacher closed it at the end of the class: no need to wait for the clock's 30 minutes.
    await addRegister(t, session, sunriseId, at(2 * 24 * 60 + 60));
    await markAll(t, session, sunriseId, {
      [asha.user._id]: "absent",
      [bilal.user._id]: "absent",
      [chitra.user._id]: "excused",
      [dev.user._id]: "present",
    });
    const other = new AbsenceAlerts({ db: t.database.db, messages: t.services.messages });
    const now = at(2 * 24 * 60 + 61);
    await Promise.all([t.services.absenceAlerts.run(now), other.run(now), t.services.absenceAlerts.run(now)]);
    const sent = await alertsFor(session);
    expect(sent.map((m) => `${m.channel} ${m.recipient}`).sort()).toEqual([
      `sms ${PHONES.asha}`,
      `sms ${PHONES.bilal}`,
      `whatsapp ${PHONES.asha}`,
      `whatsapp ${PHONES.bilal}`,
    ]);
    expect(sent.find((m) => m.recipient === PHONES.bilal)!.text).toBe(
      "Bilal Khan was marked absent from Mathematics (JEE 2027 Morning) on 12 May 2027 at 10:00 am. — Sunrise Academy",
    );
    await Promise.all([other.run(at(2 * 24 * 60 + 62)), t.services.absenceAlerts.run(at(2 * 24 * 60 + 62))]);
    expect(await alertsFor(session)).toHaveLength(4);
  });

  it("leaves a register the teacher keeps open unalerted, however long ago it was marked", async () => {
    const session = await addSession(t, { centerId: sunriseId, batchId: morning._id, startsAt: at(3 * 24 * 60) });
    await addRegister(t, session, sunriseId, null);
    await markAll(t, session, sunriseId, { [asha.user._id]: "absent" });
    await t.services.absenceAlerts.alertClosed(at(3 * 24 * 60 + 600));
    expect(await alertsFor(session)).toEqual([]);
    expect((await registerOf(session)).alertsSentAt).toBeNull();
  });
});

describe("the institute's choice", () => {
  it("sends nothing for an institute with absence alerts off, and alerts again once they are on", async () => {
    const off = await t.request("/api/attendance/policy", {
      method: "PUT",
      headers: { ...bearer(otherOwner.access_token), "content-type": "application/json" },
      body: JSON.stringify({
        centerId: vidyaId,
        lateAfterMinutes: 10,
        onlineMinimumMinutes: 45,
        lowAttendancePercent: 75,
        absenceAlerts: false,
      }),
    });
    expect(off.status).toBe(200);
    expect((await off.json()).policy.absenceAlerts).toBe(false);

    const session = await addSession(t, { centerId: vidyaId, batchId: vidyaBatch._id, startsAt: at(4 * 24 * 60) });
    await markAll(t, session, vidyaId, { [esha.user._id]: "absent" });
    await t.services.absenceAlerts.run(at(4 * 24 * 60 + 90));
    expect((await registerOf(session)).closedAt).not.toBeNull();
    expect(await alertsFor(session)).toEqual([]);
    expect((await registerOf(session)).alertsSentAt).toBeNull();

    // Sunrise, which never saved a policy, has the default: alerts on.
    const sunrise = await addSession(t, { centerId: sunriseId, batchId: morning._id, startsAt: at(4 * 24 * 60) });
    await markAll(t, sunrise, sunriseId, { [chitra.user._id]: "absent" });
    await t.services.absenceAlerts.run(at(4 * 24 * 60 + 91));
    expect(await alertsFor(sunrise)).toHaveLength(2);
    expect(await alertsFor(session)).toEqual([]);
  });

  it("never writes any alert twice across every run of this file (one row per session, student and channel)", async () => {
    const all = await alerts();
    expect(new Set(all.map((m) => m.key)).size).toBe(all.length);
    expect(all.every((m) => m.key!.startsWith("attendance-absent:"))).toBe(true);
    const esha = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.template, "attendance-absent"), eq(messages.recipient, PHONES.esha)));
    expect(esha).toEqual([]);
  });
});

describe("the demo", () => {
  it("has a batch with past classes, a flagged student and one absence alert, however often it is seeded", async () => {
    await seedDemo(t.database.db, undefined, null);
    await seedDemo(t.database.db, undefined, null);
    const [demo] = await t.database.db.select().from(centers).where(eq(centers.slug, DEMO_CENTERS[0].slug));
    const [batch, ...again] = await t.database.db
      .select()
      .from(batches)
      .where(and(eq(batches.centerId, demo.id), eq(batches.name, DEMO_ATTENDANCE.batch)));
    expect(again).toEqual([]);
    const viewer = await attendanceViewerFor(t, "business@example.com", batch.centerId);
    const flagged = await t.services.attendanceReports.flagged(viewer);
    expect(flagged.students.map((s) => [s.name, s.percent, s.sessions])).toEqual([["Rohan Mehta", 50, 8]]);
    const rows = (
      await t.services.attendanceReports.report(viewer, { batchId: batch.id, from: flagged.from, to: flagged.to })
    ).rows;
    expect(rows.map((r) => [r.name, r.percent]).sort()).toEqual([
      ["Aman Verma", 85.7],
      ["Priya Das", 100],
      ["Rohan Mehta", 50],
      ["Sneha Kulkarni", 100],
    ]);
    await t.services.absenceAlerts.run();
    await t.services.absenceAlerts.run();
    const told = await t.database.db
      .select({ channel: messages.channel, text: messages.text, status: messages.status })
      .from(messages)
      .where(eq(messages.recipient, DEMO_ATTENDANCE.classmates[0].phone));
    expect(told.map((m) => m.channel).sort()).toEqual(["sms", "whatsapp"]);
    expect(told.filter((m) => m.status === "held" || m.status === "skipped")).toEqual([]);
    expect(told[0].text).toMatch(
      /^Rohan Mehta was marked absent from (Physics|Chemistry|Mathematics) \(JEE 2027 Morning\) on .+ at 7:30 am\. — Sunrise Academy$/,
    );
  });
});
