import { sql, type SQL } from "drizzle-orm";
import { ENTRY_SIGN } from "#common/fees.ts";

/** A ledger entry's signed amount, from the one table of signs (`ENTRY_SIGN`, common/fees.ts). */
const SIGNED = sql.raw(
  `case e."kind" ${Object.entries(ENTRY_SIGN)
    .map(([kind, sign]) => `when '${kind}' then ${sign}`)
    .join(" ")} else 0 end * e."amount"`,
);

/**
 * The defaulter policy made true (issue 42 §5): whether the batch content row `bc` (a
 * `batch_contents` alias named bc) is withheld from the student. Only where the institute's fee
 * settings say so (`defaulter_holds_new_content`), only while the student is a defaulter there (a
 * due still unpaid more than `defaulter_after_days` days after its last date, as `isDefaulter`
 * decides it, derived from the ledger on today's India date), only content added to the batch from
 * the day they became one, and never a test or a series (a test already paid for stays open).
 * Paying the overdue dues lifts it at once: nothing is stored.
 */
export function withheldFromDefaulter(studentId: string | SQL): SQL {
  return sql`exists (
    select 1 from "fee_settings" fs
    where fs."center_id" = bc."center_id" and fs."defaulter_holds_new_content"
      and bc."created_at" >= (
        select ((min(d."due_on") + fs."defaulter_after_days" + 1)::timestamp at time zone 'Asia/Kolkata')
        from "fee_dues" d inner join "fee_accounts" a on a."id" = d."account_id"
        where a."student_id" = ${studentId} and a."center_id" = bc."center_id"
          and d."due_on" < (now() at time zone 'Asia/Kolkata')::date - fs."defaulter_after_days"
          and (select coalesce(sum(${SIGNED}), 0) from "fee_entries" e where e."due_id" = d."id") > 0
      )
      and exists (select 1 from "contents" c where c."id" = bc."content_id" and c."type" not in ('test', 'series'))
  )`;
}
