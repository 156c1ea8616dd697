import { sql, type SQL } from "drizzle-orm";
import { centers, contents, hiddenContents, memberships } from "../db/schema/index.ts";

/**
 * THE rule of what an institute shows (its site, catalog and student area, and the platform's
 * catalog under its name): content assigned to it is on show only while its creator is its owner
 * or an accepted member of its team, and its owner has not hidden it. Its tests and series are its
 * own whoever wrote them (decision 0029), so they stay on show after their author leaves the team.
 * Unassigned content is its creator's own. Every list of an institute's content applies this,
 * none decides on its own.
 */
export function shownByItsInstitute(): SQL {
  return sql`(${contents.centerId} is null or ((${contents.type} in ('test', 'series') or exists (select 1 from ${memberships} where ${memberships.centerId} = ${contents.centerId} and ${memberships.userId} = ${contents.creatorId} and ${memberships.role} = 'creator' and ${memberships.status} = 'active') or exists (select 1 from ${centers} where ${centers.id} = ${contents.centerId} and ${centers.ownerId} = ${contents.creatorId})) and not exists (select 1 from ${hiddenContents} where ${hiddenContents.centerId} = ${contents.centerId} and ${hiddenContents.contentId} = ${contents.id})))`;
}
