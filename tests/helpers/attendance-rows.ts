import { and, eq, inArray } from "drizzle-orm";
import {
  attendanceMarks,
  attendanceRegisters,
  batchStudents,
  classSessions,
  memberships,
  users,
} from "../../server/db/schema/index.ts";
import type { MemberRole } from "../../common/memberships.ts";
import type { TestApp } from "./app.ts";
import { bearer, postJson } from "./http.ts";

/**
 * Attendance rows for tests of what reads them (reports, alerts), made without the timetable and
 * register modules: a batch and its admissions through the API, then class sessions, registers and
 * marks written straight into their tables, as those modules would write them.
 */

type Status = "present" | "late" | "absent" | "excused";
const MINUTE = 60_000;

export const grantRole = (t: TestApp, centerId: string, userId: string, role: MemberRole) =>
  t.database.db
    .insert(memberships)
    .values({ centerId, userId, role, status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();

/** A batch made by `token`'s owner or staff member through `POST /api/batches`. */
export async function makeBatch(
  t: TestApp,
  token: string,
  centerId: string,
  body: { name: string; teacherIds?: string[]; startsOn?: string },
): Promise<{ _id: string; name: string }> {
  const res = await postJson(
    t,
    "/api/batches",
    { centerId, startsOn: "2026-01-01", ...body },
    { headers: bearer(token) },
  );
  if (res.status !== 201) throw new Error(`batch failed: ${res.status} ${await res.text()}`);
  return (await res.json()).batch;
}

/**
 * Admits the institute's students through the API, then dates their admission `since` (a batch's
 * first day): the API admits now, and reports count a student only for sessions held while admitted.
 */
export async function admitStudents(
  t: TestApp,
  token: string,
  batchId: string,
  studentIds: string[],
  since: Date,
): Promise<void> {
  const res = await postJson(t, `/api/batches/${batchId}/students`, { studentIds }, { headers: bearer(token) });
  if (res.status !== 200) throw new Error(`admission failed: ${res.status} ${await res.text()}`);
  await t.database.db
    .update(batchStudents)
    .set({ admittedAt: since })
    .where(and(eq(batchStudents.batchId, batchId), inArray(batchStudents.userId, studentIds)));
}

/** The India date of an instant (a session's `on`). */
const indiaDate = (at: Date) => new Date(at.getTime() + 330 * MINUTE).toISOString().slice(0, 10);

/** One class session of the batch, `minutes` long from `startsAt`. */
export async function addSession(
  t: TestApp,
  s: {
    centerId: string;
    batchId: string;
    startsAt: Date;
    minutes?: number;
    subject?: string;
    teacherId?: string | null;
    status?: "scheduled" | "cancelled";
  },
): Promise<string> {
  const [row] = await t.database.db
    .insert(classSessions)
    .values({
      centerId: s.centerId,
      batchId: s.batchId,
      on: indiaDate(s.startsAt),
      startsAt: s.startsAt,
      endsAt: new Date(s.startsAt.getTime() + (s.minutes ?? 60) * MINUTE),
      subject: s.subject ?? "Physics",
      teacherId: s.teacherId ?? null,
      status: s.status ?? "scheduled",
    })
    .returning({ id: classSessions.id });
  return row.id;
}

/** The session's register: open (closedAt null), or closed at `closedAt` as its teacher would. */
export async function addRegister(t: TestApp, sessionId: string, centerId: string, closedAt: Date | null) {
  await t.database.db.insert(attendanceRegisters).values({ sessionId, centerId, closedAt });
}

/** Roll-call marks for the session: one row per student. */
export async function markAll(t: TestApp, sessionId: string, centerId: string, marks: Record<string, Status>) {
  const rows = Object.entries(marks).map(([userId, status]) => ({
    sessionId,
    centerId,
    userId,
    status,
    source: "roll-call" as const,
  }));
  if (rows.length > 0) await t.database.db.insert(attendanceMarks).values(rows);
}

/** Gives the account a verified mobile number (where WhatsApp and SMS can reach it). */
export async function verifyPhone(t: TestApp, userId: string, phone: string) {
  await t.database.db.update(users).set({ phone, phoneVerifiedAt: new Date() }).where(eq(users.id, userId));
}

/** How the reports service sees the account with this e-mail at the institute. */
export async function attendanceViewerFor(t: TestApp, email: string, centerId: string) {
  const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return t.services.attendanceReports.viewerOf(user.id, centerId);
}
