import type { guardians } from "../../db/schema/index.ts";
import type { GuardianJson } from "#common/family.ts";

/** A child's first name: what a parent's invitation shows to whoever holds its link. */
export const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

export function guardianJson(row: typeof guardians.$inferSelect, now: Date): GuardianJson {
  return {
    _id: row.id,
    studentId: row.studentId,
    name: row.name,
    relation: row.relation,
    phone: row.phone,
    status: row.status,
    invitedAt: row.invitedAt.toISOString(),
    linkedAt: row.linkedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    expired: row.status === "invited" && Boolean(row.tokenExpiresAt && row.tokenExpiresAt <= now),
  };
}
