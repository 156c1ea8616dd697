import { and, eq } from "drizzle-orm";
import { batches, centers, users } from "../db/schema/index.ts";
import type { Services } from "../services/index.ts";
import type { Db } from "../db/types.ts";
import { DEMO_ACCOUNTS, DEMO_CENTERS } from "./demo-data.ts";
import { DEMO_ATTENDANCE } from "./demo-attendance.ts";

/**
 * The demo batch's week, saved through the real timetable service so its coming classes exist:
 * Physics, Chemistry and Mathematics at 7:30 on weekday mornings in Room 2 with the demo creator
 * teaching, and an online doubt-clearing class on Saturday. The past classes with their registers
 * come from the demo rows (demo-attendance.ts).
 */
export async function seedDemoTimetable(db: Db, services: Services): Promise<void> {
  const creator = DEMO_ACCOUNTS.find((a) => a.role === "creator")!;
  const [batch] = await db
    .select({ id: batches.id, centerId: batches.centerId })
    .from(batches)
    .innerJoin(centers, eq(centers.id, batches.centerId))
    .where(and(eq(centers.slug, DEMO_CENTERS[0].slug), eq(batches.name, DEMO_ATTENDANCE.batch)));
  const [teacher] = await db.select({ id: users.id }).from(users).where(eq(users.email, creator.email));
  if (!batch || !teacher) return;
  const morning = (weekday: number, subject: string) => ({
    weekday,
    start: "07:30",
    end: "09:00",
    subject,
    teacherId: teacher.id,
    room: "Room 2",
  });
  await services.timetables.saveTimetable(batch.centerId, batch.id, {
    slots: [
      morning(1, "Physics"),
      morning(2, "Chemistry"),
      morning(3, "Mathematics"),
      morning(4, "Physics"),
      morning(5, "Chemistry"),
      {
        weekday: 6,
        start: "17:00",
        end: "18:00",
        subject: "Doubt clearing",
        teacherId: teacher.id,
        online: true,
        meetingUrl: "https://meet.example.com/jee-2027-morning",
      },
    ],
  });
}
