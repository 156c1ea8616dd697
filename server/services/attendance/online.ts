import { and, desc, eq } from "drizzle-orm";
import { onlineAttendance } from "../../db/schema/index.ts";
import type { Db, Tx } from "../../db/types.ts";
import { conflict } from "../../http/errors.ts";
import {
  NOT_ONLINE,
  ONLINE_MERGE_MS,
  ONLINE_NOT_JOINED,
  ONLINE_NOT_RUNNING,
  ONLINE_NOT_STUDENT,
  QR_OPENS_MINUTES,
  type AttendanceStatus,
  type SessionJson,
} from "#common/validation/attendance.ts";
import { studentAccess, type Asker } from "./access.ts";
import { lockRegister, marksOf, mergeAutomatic, minutesAfterStart } from "./marks.ts";
import { minutesIn, onlineStatus } from "./online-minutes.ts";
import { rulesOf } from "./policy.ts";
import { runsAt, type SessionRow } from "./sessions.ts";
import { toSessionJson } from "../timetables/session-rows.ts";

export interface OnlineStanding {
  session: SessionJson;
  minutes: number;
  status: AttendanceStatus | null;
}

/**
 * Online classes (issue 41 §3, decision 0044): time in the class comes from Pathshala's join page,
 * not from a click on the meeting link. A join opens an interval (or continues one whose last beat
 * is under 2 minutes old: a rejoin is merged), the page's beat every minute extends it, a leave
 * closes it; the student's minutes, the union of their intervals within the session, decide the
 * mark, recomputed on every beat and leave and merged with the register's other inputs.
 */
export class OnlineService {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(deps: { db: Db; now?: () => number }) {
    this.db = deps.db;
    this.now = deps.now ?? Date.now;
  }

  /** Joins (or rejoins) the class: the meeting link, only to an admitted student and only while it runs. */
  async join(asker: Asker, sessionId: string): Promise<OnlineStanding & { meetingUrl: string | null }> {
    const now = this.now();
    const session = await this.running(asker, sessionId, now);
    const standing = await this.record(asker.userId, session, now, "join");
    return { ...standing, meetingUrl: session.meetingUrl };
  }

  /** Where the student stands in the class (for the join page), recording nothing. */
  async standing(asker: Asker, sessionId: string): Promise<OnlineStanding> {
    const session = await studentAccess(this.db, asker, sessionId, ONLINE_NOT_STUDENT);
    if (!session.online) throw conflict(NOT_ONLINE);
    const mark = (await marksOf(this.db, session.id, [asker.userId])).get(asker.userId);
    return { session: toSessionJson(session), minutes: mark?.onlineMinutes ?? 0, status: mark?.status ?? null };
  }

  /** The join page's beat: the student is still in the class. */
  async beat(asker: Asker, sessionId: string): Promise<OnlineStanding> {
    const now = this.now();
    return this.record(asker.userId, await this.running(asker, sessionId, now), now, "beat");
  }

  /** The join page closed: the student's interval ends now (after the class, at its end). */
  async leave(asker: Asker, sessionId: string): Promise<OnlineStanding> {
    const session = await studentAccess(this.db, asker, sessionId, ONLINE_NOT_STUDENT);
    if (!session.online) throw conflict(NOT_ONLINE);
    return this.record(asker.userId, session, Math.min(this.now(), session.endsAt.getTime()), "leave");
  }

  private async running(asker: Asker, sessionId: string, now: number): Promise<SessionRow> {
    const session = await studentAccess(this.db, asker, sessionId, ONLINE_NOT_STUDENT);
    if (!session.online) throw conflict(NOT_ONLINE);
    if (session.status === "cancelled" || !runsAt(session, now, QR_OPENS_MINUTES)) throw conflict(ONLINE_NOT_RUNNING);
    return session;
  }

  private async record(userId: string, session: SessionRow, now: number, what: "join" | "beat" | "leave") {
    return this.db.transaction(async (tx) => {
      const register = await lockRegister(tx, session);
      const [last] = await tx
        .select()
        .from(onlineAttendance)
        .where(and(eq(onlineAttendance.sessionId, session.id), eq(onlineAttendance.userId, userId)))
        .orderBy(desc(onlineAttendance.lastSeenAt))
        .limit(1);
      const at = new Date(now);
      const recent = last !== undefined && now - last.lastSeenAt.getTime() < ONLINE_MERGE_MS;
      if (what === "leave") {
        if (recent && !last.leftAt)
          await tx.update(onlineAttendance).set({ lastSeenAt: at, leftAt: at }).where(eq(onlineAttendance.id, last.id));
      } else if (what === "beat" && !last) {
        throw conflict(ONLINE_NOT_JOINED);
      } else if (recent && (what === "join" || !last.leftAt)) {
        // A rejoin within two minutes of the last beat continues the interval.
        await tx
          .update(onlineAttendance)
          .set({ lastSeenAt: new Date(Math.max(now, last.lastSeenAt.getTime())), leftAt: null })
          .where(eq(onlineAttendance.id, last.id));
      } else {
        await tx
          .insert(onlineAttendance)
          .values({ sessionId: session.id, centerId: session.centerId, userId, joinedAt: at, lastSeenAt: at });
      }
      const minutes = await this.minutes(tx, session, userId);
      // A closed register takes corrections only: the time is kept, the mark is the teacher's.
      const status = register.closedAt
        ? ((await marksOf(tx, session.id, [userId])).get(userId)?.status ?? null)
        : await this.merge(tx, session, userId, minutes, at);
      return { session: toSessionJson(session), minutes: minutes.minutes, status };
    });
  }

  private async minutes(tx: Tx, session: SessionRow, userId: string) {
    const intervals = await tx
      .select({ joinedAt: onlineAttendance.joinedAt, lastSeenAt: onlineAttendance.lastSeenAt })
      .from(onlineAttendance)
      .where(and(eq(onlineAttendance.sessionId, session.id), eq(onlineAttendance.userId, userId)));
    const start = session.startsAt.getTime();
    const end = session.endsAt.getTime();
    return {
      minutes: minutesIn(
        intervals.map((i) => ({ from: i.joinedAt.getTime(), to: i.lastSeenAt.getTime() })),
        start,
        end,
      ),
      firstJoin: Math.max(start, Math.min(...intervals.map((i) => i.joinedAt.getTime()))),
    };
  }

  private async merge(
    tx: Tx,
    session: SessionRow,
    userId: string,
    { minutes, firstJoin }: { minutes: number; firstJoin: number },
    at: Date,
  ) {
    const rules = await rulesOf(tx, session.centerId);
    const start = session.startsAt.getTime();
    const status = onlineStatus({
      minutes,
      minimumMinutes: rules.onlineMinimumMinutes,
      sessionMinutes: Math.floor((session.endsAt.getTime() - start) / 60_000),
      firstJoin,
      lateAfter: start + rules.lateAfterMinutes * 60_000,
    });
    return mergeAutomatic(tx, session, {
      userId,
      status,
      minutesLate: status === "late" ? minutesAfterStart(session, firstJoin) : null,
      source: "online",
      at,
      onlineMinutes: minutes,
    });
  }
}
