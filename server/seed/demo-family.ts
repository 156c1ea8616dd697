import { eq } from "drizzle-orm";
import { centers, memberships, users } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import type { Services } from "../services/index.ts";
import { hashPassword } from "../auth/password.ts";
import { DEMO_ACCOUNTS, DEMO_CENTERS } from "./demo-data.ts";
import { DEMO_ATTENDANCE, NO_PASSWORD } from "./demo-attendance.ts";
import { CONSENT_NOTICE_VERSION } from "#common/family.ts";
import { addDays, indiaDate } from "#common/india-dates.ts";

/** The demo's parent: the demo student's mother, who also has a younger son at Sunrise Academy. */
export const DEMO_PARENT = {
  name: "Meera Das",
  email: "parent@example.com",
  password: "demo-parent-2025",
  phone: "+919830055501",
} as const;
const SIBLING = { name: "Arjun Das", email: "arjun.das@example.com" };
/** A classmate's father whose invitation waits for his answer. */
const WAITING = { name: "Sanjay Mehta", relation: "father", phone: "+919830055502" } as const;

/**
 * The demo's family (decision 0047), made through the real services: Meera Das, linked with her
 * consent to both her children at Sunrise Academy (the demo student, and Arjun on a three-instalment
 * foundation plan), so the parent's area shows two children and a household's fees; and a
 * classmate's father invited and not yet answered, so the Students page and the outbox show an invitation.
 */
export async function seedDemoFamily(db: Db, services: Services): Promise<void> {
  const owner = DEMO_ACCOUNTS.find((a) => a.role === "business")!;
  const student = DEMO_ACCOUNTS.find((a) => a.role === "student")!;
  const [sunrise] = await db.select({ id: centers.id }).from(centers).where(eq(centers.slug, DEMO_CENTERS[0].slug));
  const idOf = async (email: string) =>
    (await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.email, email)))[0];
  const [ownerRow, studentRow, classmate] = await Promise.all([
    idOf(owner.email),
    idOf(student.email),
    idOf(DEMO_ATTENDANCE.classmates[0].email),
  ]);
  if (!sunrise || !ownerRow || !studentRow) return;
  const [parent] = await db
    .insert(users)
    .values({
      name: DEMO_PARENT.name,
      email: DEMO_PARENT.email,
      passwordHash: await hashPassword(DEMO_PARENT.password),
      role: "student",
      phone: DEMO_PARENT.phone,
      phoneVerifiedAt: new Date(),
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!parent) return;
  const [sibling] = await db
    .insert(users)
    .values({ name: SIBLING.name, email: SIBLING.email, passwordHash: NO_PASSWORD, role: "student" })
    .returning({ id: users.id });
  await db
    .insert(memberships)
    .values({ centerId: sunrise.id, userId: sibling.id, role: "student", status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();
  const today = indiaDate(new Date());
  const plan = await services.feePlans.create(ownerRow.id, sunrise.id, {
    name: "Foundation 2028 (Class 9), three instalments",
    heads: [
      { name: "Tuition", amount: 32_000 },
      { name: "Study material", amount: 4_000 },
    ],
    instalments: [
      { label: "First instalment", amount: 12_000, dueOn: addDays(today, 5) },
      { label: "Second instalment", amount: 12_000, dueOn: addDays(today, 95) },
      { label: "Third instalment", amount: 12_000, dueOn: addDays(today, 185) },
    ],
  });
  await services.feeAccounts.assign(ownerRow.id, sunrise.id, {
    studentId: sibling.id,
    feePlanId: plan._id,
    discounts: [{ kind: "sibling", percent: 5, reason: "Sibling of Priya Das (JEE 2027 Morning)" }],
  });
  const desk = { id: ownerRow.id, name: owner.name, email: owner.email };
  for (const childId of [studentRow.id, sibling.id]) {
    const { link } = await services.familyInvitations.invite(desk, sunrise.id, childId, {
      name: DEMO_PARENT.name,
      relation: "mother",
      phone: DEMO_PARENT.phone,
    });
    // She holds the invited number, verified: she answers without a code, as when signed in.
    await services.familyInvitations.answer(
      link.slice(link.lastIndexOf("/") + 1),
      { answer: "granted", noticeVersion: CONSENT_NOTICE_VERSION },
      parent,
    );
  }
  if (classmate) await services.familyInvitations.invite(desk, sunrise.id, classmate.id, WAITING);
}
