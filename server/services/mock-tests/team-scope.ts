import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * The authors whose questions and tests a person sees: themselves and everyone on a team they
 * are on (the owners of the institutes they own or work for, and those institutes' accepted
 * members). Questions belong to their author and are visible to their institute's team.
 */
export function visibleToTeamOf(authorColumn: AnyPgColumn, viewerId: string): SQL {
  return sql`(${authorColumn} = ${viewerId} or ${authorColumn} in (
    with my_centers as (
      select id from centers where owner_id = ${viewerId}
      union select center_id from team_members where member_id = ${viewerId} and status = 'accepted'
    )
    select owner_id from centers where id in (select id from my_centers)
    union select member_id from team_members where center_id in (select id from my_centers) and status = 'accepted'
  ))`;
}
