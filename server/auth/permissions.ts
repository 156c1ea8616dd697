import { and, eq } from "drizzle-orm";
import type { Db } from "../db/types.ts";
import { centers, memberships } from "../db/schema/index.ts";
import { GRANTS, MEMBER_ROLES, ROLE_ACTIONS, type Action, type MemberRole } from "#common/memberships.ts";

/**
 * THE place that decides what a person may do in an institute (issue 40, decision 0039): by the
 * roles they hold there (`memberships`), from the table in #common/memberships.ts. Routes say
 * which action they need (`requireMember` in server/api/member-guard.ts); none checks a role inline.
 */

/** A refusal in the policy's words: the person's role in the institute does not allow `action`. */
export const notAllowed = (action: Action) => `Your role in this institute does not allow this (${action}).`;

/** The caller's standing in one institute: every live role they hold there. */
export interface Membership {
  centerId: string;
  instituteName: string;
  userId: string;
  roles: MemberRole[];
}

/** Whether any of the roles held may do `action`. */
export function can(membership: Pick<Membership, "roles"> | null | undefined, action: Action): boolean {
  return Boolean(membership?.roles.some((role) => ROLE_ACTIONS[role].includes(action)));
}

/** The roles the policy lets do `action` (for queries over many institutes at once). */
export function rolesThatMay(action: Action): MemberRole[] {
  return MEMBER_ROLES.filter((role) => ROLE_ACTIONS[role].includes(action));
}

/** Whether the roles held may grant `role` (GRANTS: nobody grants a role above their own). */
export function mayGrant(membership: Pick<Membership, "roles">, role: MemberRole): boolean {
  return membership.roles.some((held) => GRANTS[held].includes(role));
}

/** The caller's live roles in the institute, or null when it does not exist. */
export async function membershipOf(db: Db, userId: string, centerId: string): Promise<Membership | null> {
  const rows = await db
    .select({ name: centers.instituteName, role: memberships.role })
    .from(centers)
    .leftJoin(
      memberships,
      and(eq(memberships.centerId, centers.id), eq(memberships.userId, userId), eq(memberships.status, "active")),
    )
    .where(eq(centers.id, centerId));
  if (rows.length === 0) return null;
  return {
    centerId,
    instituteName: rows[0].name,
    userId,
    roles: rows.flatMap((r) => (r.role ? [r.role] : [])),
  };
}
