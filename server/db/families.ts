import { and, eq } from "drizzle-orm";
import { guardians, memberships, users } from "./schema/index.ts";
import type { DbOrTx } from "./types.ts";

/**
 * The one rule for what a parent reaches (issue 41, decision 0047): an active link, that is, a
 * parent who answered the consent notice and has not withdrawn, for that child at that institute.
 * Every check of a parent's access and every message to a family asks here.
 */

/** Whether `parentId` holds an active link to `studentId` at institute `centerId`. */
export async function isGuardianOf(
  db: DbOrTx,
  parentId: string,
  studentId: string,
  centerId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: guardians.id })
    .from(guardians)
    .where(
      and(
        eq(guardians.parentId, parentId),
        eq(guardians.studentId, studentId),
        eq(guardians.centerId, centerId),
        eq(guardians.status, "active"),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The child an active link of `parentId` names (the link's id is the parent's handle on the child), or null. */
export async function childOfLink(
  db: DbOrTx,
  parentId: string,
  guardianId: string,
): Promise<{ guardianId: string; studentId: string; centerId: string } | null> {
  const [row] = await db
    .select({ guardianId: guardians.id, studentId: guardians.studentId, centerId: guardians.centerId })
    .from(guardians)
    .where(and(eq(guardians.id, guardianId), eq(guardians.parentId, parentId), eq(guardians.status, "active")));
  return row ?? null;
}

/** Someone told about a student: the student or a linked parent, and where they can be reached. */
export interface FamilyContact {
  userId: string;
  role: "student" | "parent";
  email: string;
  /** A verified mobile number (WhatsApp, then SMS), or null: no text message can be sent. */
  phone: string | null;
}

/**
 * Who is told about `studentId` at institute `centerId`: the student first, then each parent holding
 * an active link to them there. Absence alerts, fee reminders and payment links all ask here, and
 * each gives every contact its own message key, so each is told once.
 */
export async function familyContactsOf(db: DbOrTx, studentId: string, centerId: string): Promise<FamilyContact[]> {
  const contact =
    (role: FamilyContact["role"]) =>
    (u: { userId: string; email: string; phone: string | null; verifiedAt: Date | null }) => ({
      userId: u.userId,
      role,
      email: u.email,
      phone: u.verifiedAt ? u.phone : null,
    });
  const columns = { userId: users.id, email: users.email, phone: users.phone, verifiedAt: users.phoneVerifiedAt };
  const student = await db.select(columns).from(users).where(eq(users.id, studentId));
  if (student.length === 0) return [];
  const parents = await db
    .selectDistinct(columns)
    .from(guardians)
    .innerJoin(users, eq(users.id, guardians.parentId))
    .where(and(eq(guardians.studentId, studentId), eq(guardians.centerId, centerId), eq(guardians.status, "active")));
  return [...student.map(contact("student")), ...parents.map(contact("parent"))];
}

/** Whether `userId` is a parent at institute `centerId` (has a child linked there): who may sign in on its site with a code. */
export async function holdsParentRole(db: DbOrTx, userId: string, centerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.centerId, centerId),
        eq(memberships.role, "parent"),
        eq(memberships.status, "active"),
      ),
    )
    .limit(1);
  return Boolean(row);
}
