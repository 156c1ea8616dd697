import { and, asc, count, eq, ilike, or } from "drizzle-orm";
import { memberships, users } from "../db/schema/index.ts";
import type { DbOrTx } from "../db/types.ts";
import { containsPattern } from "../db/like.ts";

/** One of an institute's students, as its lists of students show them. */
export interface InstituteStudentRow {
  _id: string;
  name: string;
  email: string;
}

/** The institute's active students; with `q`, those whose name, e-mail or phone number holds it. */
function students(centerId: string, q?: string) {
  const pattern = q ? containsPattern(q) : null;
  return and(
    eq(memberships.centerId, centerId),
    eq(memberships.role, "student"),
    eq(memberships.status, "active"),
    pattern ? or(ilike(users.name, pattern), ilike(users.email, pattern), ilike(users.phone, pattern)) : undefined,
  );
}

/**
 * A page of the institute's students by name (then e-mail, which is unique: pages never overlap),
 * searched in the database by name, e-mail or phone number when `q` is given.
 */
export function instituteStudents(
  db: DbOrTx,
  centerId: string,
  page: { q?: string; limit: number; offset?: number },
): Promise<InstituteStudentRow[]> {
  // One active student role per person and institute (memberships_live_key): no duplicates to drop.
  return db
    .select({ _id: users.id, name: users.name, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(students(centerId, page.q))
    .orderBy(asc(users.name), asc(users.email))
    .limit(page.limit)
    .offset(page.offset ?? 0);
}

/** How many of the institute's students `instituteStudents` finds for `q`, on every page. */
export async function instituteStudentCount(db: DbOrTx, centerId: string, q?: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(students(centerId, q));
  return n;
}
