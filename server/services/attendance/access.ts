import { and, eq } from "drizzle-orm";
import { batchStudents, batchTeachers } from "../../db/schema/index.ts";
import type { Db, DbOrTx } from "../../db/types.ts";
import { forbidden, notFound } from "../../http/errors.ts";
import { can, membershipOf, notAllowed } from "../../auth/permissions.ts";
import type { Action } from "#common/memberships.ts";
import { NOT_YOUR_SESSION, SESSION_NOT_FOUND } from "#common/validation/attendance.ts";
import { loadSession, sessionCenter, type SessionRow } from "./sessions.ts";

/** Who asks, and on which institute's site (null: the platform's, where any institute's session is reached). */
export interface Asker {
  userId: string;
  siteCenterId: string | null;
}

/** The session, if the asker may see it at all: it exists, is on this site, and they hold a role in its institute. */
async function reachable(db: Db, asker: Asker, sessionId: string) {
  const centerId = await sessionCenter(db, sessionId);
  if (!centerId || (asker.siteCenterId && asker.siteCenterId !== centerId)) throw notFound(SESSION_NOT_FOUND);
  const membership = await membershipOf(db, asker.userId, centerId);
  if (!membership || membership.roles.length === 0) throw notFound(SESSION_NOT_FOUND);
  return { membership, session: await loadSession(db, sessionId, centerId) };
}

/**
 * A register's marker or reader (`action`: attendance.mark or attendance.view): owners and staff
 * for any session of their institute; a teacher or creator only for sessions they teach (or
 * substitute in) and those of batches they teach. No role there is a 404, a role without the action a 403.
 */
export async function registerAccess(db: Db, asker: Asker, sessionId: string, action: Action): Promise<SessionRow> {
  const { membership, session } = await reachable(db, asker, sessionId);
  if (!can(membership, action)) throw forbidden(notAllowed(action));
  // Those who run the institute's batches (owners, staff) mark any of its sessions; a teacher or
  // a creator who teaches, only their own (as the reports narrow them: attendance-access.ts).
  if (can(membership, "batches.manage") || session.teacherId === asker.userId) return session;
  const [teaches] = await db
    .select({ userId: batchTeachers.userId })
    .from(batchTeachers)
    .where(and(eq(batchTeachers.batchId, session.batchId), eq(batchTeachers.userId, asker.userId)));
  if (!teaches) throw forbidden(NOT_YOUR_SESSION);
  return session;
}

/** A student of the session's batch (admitted now); another member of the institute is refused with `refusal`. */
export async function studentAccess(db: Db, asker: Asker, sessionId: string, refusal: string): Promise<SessionRow> {
  const { session } = await reachable(db, asker, sessionId);
  if (!(await isAdmitted(db, session.batchId, asker.userId))) throw forbidden(refusal);
  return session;
}

export async function isAdmitted(db: DbOrTx, batchId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: batchStudents.id })
    .from(batchStudents)
    .where(
      and(eq(batchStudents.batchId, batchId), eq(batchStudents.userId, userId), eq(batchStudents.status, "admitted")),
    );
  return Boolean(row);
}
