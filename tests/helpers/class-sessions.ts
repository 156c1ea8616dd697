import { classSessions } from "../../server/db/schema/index.ts";
import { createAttendance } from "../../server/services/wiring/attendance.ts";
import type { TestApp } from "./app.ts";
import { bearer, postJson } from "./http.ts";

/**
 * Class sessions for attendance tests, made without the timetable: a batch through the API (as
 * its owner or staff), students admitted through the API, then a `class_sessions` row inserted
 * directly, as the timetable would make it.
 */

export async function makeBatch(
  t: TestApp,
  token: string,
  centerId: string,
  body: { name: string; teacherIds?: string[] },
  studentIds: string[] = [],
): Promise<string> {
  const made = await postJson(
    t,
    "/api/batches",
    { centerId, startsOn: "2026-04-01", ...body },
    { headers: bearer(token) },
  );
  if (made.status !== 201) throw new Error(`batch failed: ${made.status} ${await made.text()}`);
  const batchId = ((await made.json()) as { batch: { _id: string } }).batch._id;
  if (studentIds.length > 0) {
    const admitted = await postJson(t, `/api/batches/${batchId}/students`, { studentIds }, { headers: bearer(token) });
    if (admitted.status !== 200) throw new Error(`admission failed: ${admitted.status} ${await admitted.text()}`);
  }
  return batchId;
}

export interface SessionOptions {
  centerId: string;
  batchId: string;
  startsAt: Date;
  /** Default: an hour after the start. */
  endsAt?: Date;
  subject?: string;
  teacherId?: string | null;
  online?: boolean;
  meetingUrl?: string | null;
  status?: "scheduled" | "cancelled";
}

/** A class session row, as the timetable would make it; its id. */
export async function makeSession(t: TestApp, o: SessionOptions): Promise<string> {
  const india = new Date(o.startsAt.getTime() + 330 * 60_000);
  const [row] = await t.database.db
    .insert(classSessions)
    .values({
      centerId: o.centerId,
      batchId: o.batchId,
      on: india.toISOString().slice(0, 10),
      startsAt: o.startsAt,
      endsAt: o.endsAt ?? new Date(o.startsAt.getTime() + 60 * 60_000),
      subject: o.subject ?? "Physics",
      teacherId: o.teacherId ?? null,
      online: o.online ?? false,
      meetingUrl: o.meetingUrl ?? null,
      status: o.status ?? "scheduled",
    })
    .returning({ id: classSessions.id });
  return row.id;
}

/** The server's clock for the attendance services, which the test moves (no waiting on real time). */
export interface TestClock {
  now: number;
  advance(ms: number): void;
  set(at: number): void;
}

export function useClock(t: TestApp, start: number): TestClock {
  const clock: TestClock = {
    now: start,
    advance(ms) {
      clock.now += ms;
    },
    set(at) {
      clock.now = at;
    },
  };
  t.services.attendance = createAttendance(t.database.db, t.services.links, () => clock.now);
  return clock;
}
