import { and, eq, inArray } from "drizzle-orm";
import {
  attendanceMarks,
  attendanceRegisters,
  batchStudents,
  batchTeachers,
  batches,
  classSessions,
  memberships,
  users,
} from "../db/schema/index.ts";
import type { Tx } from "../db/types.ts";
import { parseClassTime } from "#common/validation/content.ts";
import { seminarToday } from "#common/validation/seminar.ts";

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60_000;

/** Sunrise Academy's demo batch, its classmates of the demo student and the last eight classes' marks. */
export const DEMO_ATTENDANCE = {
  batch: "JEE 2027 Morning",
  /** Students besides the demo student; they have no password (nobody signs in as them). */
  classmates: [
    { name: "Rohan Mehta", email: "rohan.mehta@example.com", phone: "+917003400101" },
    { name: "Sneha Kulkarni", email: "sneha.kulkarni@example.com", phone: "+917003400102" },
    { name: "Aman Verma", email: "aman.verma@example.com", phone: "+917003400103" },
  ],
  subjects: ["Physics", "Chemistry", "Mathematics"],
} as const;

/**
 * Each student's mark in the last eight classes, oldest first: the demo student and
 * two classmates above 75 %, Rohan Mehta below it (flagged) and absent from the latest class, whose
 * absence alert the outbox shows once the clock has run (the demo's start runs it at once).
 */
const MARKS: Record<string, string> = {
  "student@example.com": "PPLPPEPP",
  "rohan.mehta@example.com": "PAPAPAPA",
  "sneha.kulkarni@example.com": "PPPPLPPP",
  "aman.verma@example.com": "PPAPEPPP",
};
const STATUS = { P: "present", L: "late", A: "absent", E: "excused" } as const;

/** Without a password anyone knows: argon2 cannot read it, so a password sign-in fails. */
export const NO_PASSWORD = "!demo-without-password";

/**
 * The demo's attendance (issue 41 §4): a batch at Sunrise Academy taught by the demo creator, the
 * demo student and three classmates, and eight past classes with closed registers and their marks.
 * The registers are closed by their teacher; the latest only now, so its absentee is told when
 * the demo starts. Idempotent: an institute that has the batch already is left as it is.
 */
export async function seedDemoAttendance(
  tx: Tx,
  d: { sunrise?: string; creatorId?: string; studentId?: string; now: number },
): Promise<void> {
  if (!d.sunrise || !d.creatorId || !d.studentId) return;
  const centerId = d.sunrise;
  const [existing] = await tx
    .select({ id: batches.id })
    .from(batches)
    .where(and(eq(batches.centerId, centerId), eq(batches.name, DEMO_ATTENDANCE.batch)));
  if (existing) return;

  const verifiedAt = new Date(d.now - 90 * DAY);
  await tx
    .insert(users)
    .values(
      DEMO_ATTENDANCE.classmates.map((c) => ({
        name: c.name,
        email: c.email,
        role: "student" as const,
        passwordHash: NO_PASSWORD,
        phone: c.phone,
        phoneVerifiedAt: verifiedAt,
        signupCenterId: centerId,
      })),
    )
    .onConflictDoNothing();
  const people = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, Object.keys(MARKS)));
  const students = people.filter((p) => p.id === d.studentId || p.email !== "student@example.com");
  await tx
    .insert(memberships)
    .values(
      students.map((s) => ({
        centerId,
        userId: s.id,
        email: s.email,
        role: "student" as const,
        status: "active" as const,
        acceptedAt: verifiedAt,
      })),
    )
    .onConflictDoNothing();

  const startsOn = seminarToday(new Date(d.now - 60 * DAY));
  const [batch] = await tx
    .insert(batches)
    .values({
      centerId,
      name: DEMO_ATTENDANCE.batch,
      course: "JEE Main + Advanced",
      startsOn,
      capacity: 40,
      medium: "English",
      centre: "Salt Lake",
    })
    .returning({ id: batches.id });
  await tx.insert(batchTeachers).values({ batchId: batch.id, centerId, userId: d.creatorId });
  const admittedAt = new Date(d.now - 60 * DAY);
  await tx.insert(batchStudents).values(
    students.map((s) => ({
      batchId: batch.id,
      centerId,
      userId: s.id,
      status: "admitted" as const,
      admittedAt,
    })),
  );

  // The last eight days' 7:30 am classes, oldest first.
  for (let i = 0; i < 8; i++) {
    const daysAgo = 8 - i;
    const on = seminarToday(new Date(d.now - daysAgo * DAY));
    const startsAt = parseClassTime(`${on}T07:30`)!;
    const endsAt = new Date(startsAt.getTime() + 90 * MINUTE);
    const [session] = await tx
      .insert(classSessions)
      .values({
        centerId,
        batchId: batch.id,
        on,
        startsAt,
        endsAt,
        subject: DEMO_ATTENDANCE.subjects[i % DEMO_ATTENDANCE.subjects.length],
        teacherId: d.creatorId,
        room: "Room 2",
      })
      .returning({ id: classSessions.id });
    const latest = i === 7;
    const closedAt = latest ? new Date(d.now) : new Date(endsAt.getTime() + 10 * MINUTE);
    await tx.insert(attendanceRegisters).values({
      sessionId: session.id,
      centerId,
      closedAt,
      closedById: d.creatorId,
      // The older classes' absentees were told at the time; the latest's are told by the clock.
      alertsSentAt: latest ? null : closedAt,
    });
    await tx.insert(attendanceMarks).values(
      students.map((s) => ({
        sessionId: session.id,
        centerId,
        userId: s.id,
        status: STATUS[MARKS[s.email][i] as keyof typeof STATUS],
        source: "roll-call" as const,
        markedById: d.creatorId,
        markedAt: new Date(startsAt.getTime() + 5 * MINUTE),
      })),
    );
  }
}
