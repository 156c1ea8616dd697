import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { centers, memberships } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/types.ts";
import { currentTenantScope } from "../../db/tenant-scope.ts";
import { badRequest } from "../../http/errors.ts";
import type { Reader } from "../content-access.ts";

/**
 * Who may do what with an institute's exams (decision 0029): THE place that answers it for tests,
 * series, question banks, sittings, results and analyses. An exam row belongs to its institute
 * (`center_id`), never to whoever wrote it: a person reaches it only while they hold a role in
 * that institute, and on an institute's domain only that institute's. A row without an institute
 * (a platform creator's own test, their own question bank) is its author's alone. Admins reach
 * every row, as before.
 *
 * The roles are an institute's owner (`centers.owner_id`) and its active creators and teachers
 * (`memberships`, decision 0039), whose "tests.write" (server/auth/permissions.ts) this is.
 */
export type InstituteRole = "owner" | "creator";

/**
 * What a role may do with an institute's exams: `read` (tests, papers with keys, rank lists,
 * analyses, the bank), `write` (questions, drafts, publishing, series), `run` (closing a test,
 * extra time, key decisions, releasing results).
 */
export type ExamAction = "read" | "write" | "run";

const ABILITIES: Record<InstituteRole, readonly ExamAction[]> = {
  owner: ["read", "write", "run"],
  creator: ["read", "write", "run"],
};

export const EXAM_ACCESS_TEXTS = {
  notYourBusiness: "Please choose an institute whose team you are on",
  otherInstitute: "On an institute's site, its tests and series belong to that institute",
  otherBank: "On an institute's site, questions go to that institute's bank",
} as const;

/** How the author's own bank is named on the pages. */
export const OWN_BANK_NAME = "My own questions";

/** Whether the role may do this. */
export function mayDo(role: InstituteRole, action: ExamAction): boolean {
  return ABILITIES[role].includes(action);
}

/** The roles that may do this (for the SQL below). */
function rolesFor(action: ExamAction): InstituteRole[] {
  return (Object.keys(ABILITIES) as InstituteRole[]).filter((role) => mayDo(role, action));
}

/** The ids of the institutes where `userId` holds a role that may do `action`, as a subquery. */
function institutesWhere(userId: string, action: ExamAction): SQL {
  const roles = rolesFor(action);
  const parts: SQL[] = [];
  if (roles.includes("owner"))
    parts.push(sql`select ${centers.id} from ${centers} where ${centers.ownerId} = ${userId}`);
  if (roles.includes("creator"))
    parts.push(
      sql`select ${memberships.centerId} from ${memberships} where ${memberships.userId} = ${userId} and ${memberships.role} in ('creator', 'teacher') and ${memberships.status} = 'active'`,
    );
  if (!parts.length) return sql`(select null::uuid where false)`;
  return sql`(${sql.join(parts, sql` union all `)})`;
}

/** The caller's role in the institute today, or null (admins hold none: they are the platform's). */
export async function instituteRole(db: DbOrTx, userId: string, centerId: string): Promise<InstituteRole | null> {
  const rows = (await db.execute(sql`
    select case
      when exists (select 1 from ${centers} where ${centers.id} = ${centerId} and ${centers.ownerId} = ${userId}) then 'owner'
      when exists (select 1 from ${memberships} where ${memberships.centerId} = ${centerId} and ${memberships.userId} = ${userId} and ${memberships.role} in ('creator', 'teacher') and ${memberships.status} = 'active') then 'creator'
    end as role`)) as unknown as { rows: { role: InstituteRole | null }[] };
  return rows.rows[0]?.role ?? null;
}

/**
 * The exam rows the viewer may `action`, as a condition on the row's institute column and its
 * author column (for rows without an institute). Every read and write of tests, series,
 * questions and sittings by someone other than the student sitting it applies this.
 */
export function examRowsFor(
  viewer: Reader,
  action: ExamAction,
  columns: { institute: AnyPgColumn; author: AnyPgColumn },
): SQL {
  const site = currentTenantScope();
  const { institute, author } = columns;
  if (viewer.role === "admin") return site ? sql`${institute} = ${site}` : sql`true`;
  if (site) return sql`(${institute} = ${site} and ${site}::uuid in ${institutesWhere(viewer.id, action)})`;
  return sql`((${institute} is null and ${author} = ${viewer.id}) or ${institute} in ${institutesWhere(viewer.id, action)})`;
}

/**
 * The institute a new test or series goes to: on an institute's domain, that institute (another
 * is refused, as its rows could not be written there); on the platform, the one chosen, if any.
 * It must be one the author may put content on (`assignable`: where they hold a role, and live).
 */
export async function instituteFor(
  author: Reader,
  chosen: string | null | undefined,
  assignable: (reader: Reader) => Promise<{ _id: string }[]>,
): Promise<string | null> {
  const site = currentTenantScope() || null;
  if (site && chosen && chosen !== site) throw badRequest(EXAM_ACCESS_TEXTS.otherInstitute);
  const businessId = chosen ?? site;
  if (businessId && !(await assignable(author)).some((b) => b._id === businessId))
    throw badRequest(EXAM_ACCESS_TEXTS.notYourBusiness);
  return businessId;
}

/**
 * The bank a question is written or copied to: "own" (the author's own, not on an institute's
 * domain), or an institute where the author may write; on an institute's domain, by default, that
 * institute's. Null means the author's own bank.
 */
export async function bankFor(db: DbOrTx, author: Reader, chosen: string | undefined): Promise<string | null> {
  const site = currentTenantScope() || null;
  if (site && chosen !== undefined && chosen !== site) throw badRequest(EXAM_ACCESS_TEXTS.otherBank);
  const bank = chosen === "own" ? null : (chosen ?? site);
  if (bank === null) return null;
  if (author.role !== "admin") {
    const role = await instituteRole(db, author.id, bank);
    if (!role || !mayDo(role, "write")) throw badRequest(EXAM_ACCESS_TEXTS.notYourBusiness);
  }
  return bank;
}

/** The banks the person may open: their own (not on an institute's domain) and each institute they hold a role in. */
export async function banksOf(db: DbOrTx, viewer: Reader): Promise<{ _id: string | null; name: string }[]> {
  const site = currentTenantScope() || null;
  const rows = (await db.execute(sql`
    select ${centers.id} as id, ${centers.instituteName} as name from ${centers}
    where ${centers.id} in ${institutesWhere(viewer.id, "read")} ${site ? sql`and ${centers.id} = ${site}` : sql``}
    order by lower(${centers.instituteName})`)) as unknown as { rows: { id: string; name: string }[] };
  const institutes = rows.rows.map((r) => ({ _id: r.id, name: r.name }));
  return site ? institutes : [{ _id: null, name: OWN_BANK_NAME }, ...institutes];
}
