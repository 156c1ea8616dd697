import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { centers, memberships } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/types.ts";
import { currentTenantScope } from "../../db/tenant-scope.ts";
import { HttpError, badRequest } from "../../http/errors.ts";
import type { Reader } from "../content-access.ts";
import { rolesThatMay } from "../../auth/permissions.ts";

/**
 * Who may do what with an institute's exams (decision 0029): THE place that answers it for tests,
 * series, question banks, sittings, results and analyses. An exam row belongs to its institute
 * (`center_id`), never to whoever wrote it: a person reaches it only while they hold a role in
 * that institute, and on an institute's domain only that institute's. A row without an institute
 * (a platform creator's own test, their own question bank) is its author's alone. Admins reach
 * every row, as before.
 *
 * The roles are the person's live roles in the institute (`memberships`, decision 0039; every
 * institute's owner has its row, kept by migration 0029's trigger) that the policy lets do
 * "tests.write" (#common/memberships.ts ROLE_ACTIONS): owners, creators and teachers.
 *
 * A person who chose an institute in the header (`Reader.desk`, the creator area's desk) reaches
 * that institute's rows alone, as on its own domain; without a choice, every row they may reach.
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
  otherDesk: "You are working on another institute: choose this one in the header first",
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

/** The member roles the policy lets write tests (owner, teacher, creator), as an SQL list. */
const TEST_WRITERS = sql.raw(
  rolesThatMay("tests.write")
    .map((role) => `'${role}'`)
    .join(", "),
);

/** The ids of the institutes where `userId` holds a live role that may do `action`, as a subquery. */
function institutesWhere(userId: string, action: ExamAction): SQL {
  // Every exam action is the policy's "tests.write"; an owner's and a creator's or teacher's alike.
  if (rolesFor(action).length === 0) return sql`(select null::uuid where false)`;
  return sql`(select ${memberships.centerId} from ${memberships} where ${memberships.userId} = ${userId} and ${memberships.role} in (${TEST_WRITERS}) and ${memberships.status} = 'active')`;
}

/** The caller's role in the institute today, from their memberships, or null (admins hold none: they are the platform's). */
export async function instituteRole(db: DbOrTx, userId: string, centerId: string): Promise<InstituteRole | null> {
  const rows = (await db.execute(sql`
    select case
      when exists (select 1 from ${memberships} where ${memberships.centerId} = ${centerId} and ${memberships.userId} = ${userId} and ${memberships.role} = 'owner' and ${memberships.status} = 'active') then 'owner'
      when exists (select 1 from ${memberships} where ${memberships.centerId} = ${centerId} and ${memberships.userId} = ${userId} and ${memberships.role} in (${TEST_WRITERS}) and ${memberships.status} = 'active') then 'creator'
    end as role`)) as unknown as { rows: { role: InstituteRole | null }[] };
  return rows.rows[0]?.role ?? null;
}

/** The one institute the viewer's rows are limited to: the site's, the desk chosen, or none; `false` when the two differ. */
function scopeOf(viewer: Reader): string | false | null {
  const site = currentTenantScope() || null;
  const desk = viewer.role === "admin" ? null : (viewer.desk ?? null);
  if (site && desk && site !== desk) return false;
  return site ?? desk;
}

/** 403 for an institute other than the desk the person chose in the header. */
function refuseOtherDesk(viewer: Reader, centerId: string | null): void {
  if (viewer.role !== "admin" && viewer.desk && centerId !== viewer.desk)
    throw new HttpError(403, EXAM_ACCESS_TEXTS.otherDesk);
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
  const scope = scopeOf(viewer);
  if (scope === false) return sql`false`;
  if (scope) return sql`(${institute} = ${scope} and ${scope}::uuid in ${institutesWhere(viewer.id, action)})`;
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
  // At a desk chosen in the header, the work is that institute's: none's (null) means the desk's too.
  const businessId = chosen ?? site ?? (author.role === "admin" ? null : (author.desk ?? null));
  refuseOtherDesk(author, businessId);
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
  const desk = author.role === "admin" ? null : (author.desk ?? null);
  const bank = chosen === "own" ? null : (chosen ?? site ?? desk);
  refuseOtherDesk(author, bank);
  if (bank === null) return null;
  if (author.role !== "admin") {
    const role = await instituteRole(db, author.id, bank);
    if (!role || !mayDo(role, "write")) throw badRequest(EXAM_ACCESS_TEXTS.notYourBusiness);
  }
  return bank;
}

/** The banks the person may open: their own (not on an institute's domain) and each institute they hold a role in. */
export async function banksOf(db: DbOrTx, viewer: Reader): Promise<{ _id: string | null; name: string }[]> {
  const scope = scopeOf(viewer);
  if (scope === false) return [];
  const rows = (await db.execute(sql`
    select ${centers.id} as id, ${centers.instituteName} as name from ${centers}
    where ${centers.id} in ${institutesWhere(viewer.id, "read")} ${scope ? sql`and ${centers.id} = ${scope}` : sql``}
    order by lower(${centers.instituteName})`)) as unknown as { rows: { id: string; name: string }[] };
  const institutes = rows.rows.map((r) => ({ _id: r.id, name: r.name }));
  return scope ? institutes : [{ _id: null, name: OWN_BANK_NAME }, ...institutes];
}
