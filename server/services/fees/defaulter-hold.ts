import { sql, type SQL } from "drizzle-orm";
import { ENTRY_SIGN } from "#common/fees.ts";

/** A ledger entry's signed amount, from the one table of signs (`ENTRY_SIGN`, common/fees.ts). */
const SIGNED = sql.raw(
  `case e."kind" ${Object.entries(ENTRY_SIGN)
    .map(([kind, sign]) => `when '${kind}' then ${sign}`)
    .join(" ")} else 0 end * e."amount"`,
);

/** The name the query of the access rule gives `defaulterSince`'s rows (a WITH of its own). */
export const DEFAULTER_SINCE = sql.raw(`"defaulter_since"`);

/**
 * The defaulter policy made true (issue 42 §5), its first half: at each institute whose fee
 * settings say so (`defaulter_holds_new_content`) and where the student is a defaulter (a due still
 * unpaid more than `defaulter_after_days` days after its last date, as `isDefaulter` decides it,
 * derived from the ledger on today's India date), the instant from which batch content is
 * withheld from them (`held_from`: the start of the India day they became one); no row elsewhere.
 * One row per institute, read once per query (as `DEFAULTER_SINCE`), not once per batch item:
 * PostgreSQL ran this per row of batch_contents, summing the ledger of every overdue due each time.
 */
export function defaulterSince(studentId: string | SQL): SQL {
  return sql`select a."center_id", ((min(d."due_on") + fs."defaulter_after_days" + 1)::timestamp at time zone 'Asia/Kolkata') as "held_from"
    from "fee_settings" fs
    inner join "fee_accounts" a on a."center_id" = fs."center_id"
    inner join "fee_dues" d on d."account_id" = a."id"
    where fs."defaulter_holds_new_content" and a."student_id" = ${studentId}
      and d."due_on" < (now() at time zone 'Asia/Kolkata')::date - fs."defaulter_after_days"
      and (select coalesce(sum(${SIGNED}), 0) from "fee_entries" e where e."due_id" = d."id") > 0
    group by a."center_id", fs."defaulter_after_days"`;
}

/**
 * Its second half: whether the batch content row `bc` (a `batch_contents` alias named bc) is
 * withheld, in a query that has `DEFAULTER_SINCE` (`defaulterSince` of the student): only content
 * added to the batch from the day the student became a defaulter at its institute, and never a
 * test or a series (a test already paid for stays open). Paying the overdue dues lifts it at once:
 * nothing is stored.
 */
export function withheldFromDefaulter(): SQL {
  return sql`(exists (select 1 from ${DEFAULTER_SINCE} ds where ds."center_id" = bc."center_id" and bc."created_at" >= ds."held_from")
    and (select c."type" from "contents" c where c."id" = bc."content_id") not in ('test', 'series'))`;
}
