import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Role } from "#common/validation/account.ts";
import { contents, enrollments } from "../db/schema/index.ts";
import type { DbOrTx } from "../db/types.ts";
import { can, membershipOf } from "../auth/permissions.ts";
import { DEFAULTER_SINCE, defaulterSince, withheldFromDefaulter } from "./fees/defaulter-hold.ts";

/** Who is asking: the signed-in user (or the user a signed link was issued to). */
export interface Reader {
  id: string;
  role: Role;
  /**
   * The institute the person chose to work on in the header (the creator area's desk, decision
   * 0039): their work is that institute's alone. Absent: no choice, everything their roles reach.
   */
  desk?: string;
}

/** The content being opened: enough to decide, whatever its state (archived content stays readable by those entitled). */
export interface AccessTarget {
  id: string;
  creatorId: string;
  /** The institute the content is assigned to (null or absent: its creator's own). */
  centerId?: string | null;
}

/**
 * Why someone may open a content's file (and see a live class's link): its creator ("owner"), a
 * platform admin, someone the policy lets write the content's institute ("editor": content.write
 * there, e.g. its owner or another creator at it), a student enrolled in it, or a student admitted
 * to a batch it belongs to ("batch", issue 41 §1).
 */
export type AccessReason = "owner" | "admin" | "editor" | "enrolled" | "batch";

/** Reasons that are a student's: their own stamped copy of a PDF, a live link only from 15 minutes before. */
export function asStudent(reason: AccessReason | null): boolean {
  return reason === "enrolled" || reason === "batch";
}

/** A live class's link is shown to its students from this long before it starts. */
export const LIVE_LINK_LEAD_MS = 15 * 60 * 1000;

/**
 * The decision itself, when whether the reader is enrolled (or in a batch that has it) is already
 * known (a list that joined the enrolments). Admins and the creator always; others only when
 * enrolled or admitted to one of its batches.
 */
export function decideAccess(
  reader: Reader | null | undefined,
  content: AccessTarget,
  enrolled: boolean,
  inBatch = false,
): AccessReason | null {
  if (!reader) return null;
  if (reader.role === "admin") return "admin";
  if (content.creatorId === reader.id) return "owner";
  return enrolled ? "enrolled" : inBatch ? "batch" : null;
}

/**
 * THE rule for what a batch opens (issue 41 §1, decision 0042): the ids of the contents a student
 * may open for being admitted (not waiting, not moved, not gone) to a batch that has them, and
 * the tests of the series among them, as a subquery. Every check of "may this student open or sit
 * this" that a purchase answers asks this too: file links, live links, the catalog, test
 * sittings and lists. Ending the admission ends the access everywhere at once, and so does the
 * institute's defaulter policy where it withholds new content from a student who owes
 * (`withheldFromDefaulter`, issue 42 §5).
 *
 * `only: "tests"` asks for the tests and series alone (a sitting's start, the tests and series
 * lists): the same answer for them, since the defaulter policy never withholds a test or a series,
 * so the ledger is not read at all.
 */
export function batchHeldContentIds(studentId: string | SQL, only?: "tests"): SQL {
  // Tables named in full with their own aliases: a one-table select leaves its columns unqualified.
  const admitted = sql`select bc."content_id" from "batch_contents" bc inner join "batch_students" bs on bs."batch_id" = bc."batch_id" where bs."user_id" = ${studentId} and bs."status" = 'admitted'`;
  const series = (held: SQL) => sql`select st."test_id" from "series_tests" st where st."series_id" in (${held})`;
  if (only === "tests") {
    const held = sql`${admitted} and (select c."type" from "contents" c where c."id" = bc."content_id") in ('test', 'series')`;
    return sql`(${held} union ${series(held)})`;
  }
  // Less what the institute's defaulter policy withholds while the student owes (issue 42 §5),
  // whose "defaulter since" is worked out once per institute for the whole query.
  const held = sql`${admitted} and not ${withheldFromDefaulter()}`;
  return sql`(with ${DEFAULTER_SINCE} as materialized (${defaulterSince(studentId)}) ${held} union ${series(held)})`;
}

/** Which of `contentIds` the student may open through a batch they are admitted to (`only`: see batchHeldContentIds). */
export async function heldThroughBatch(
  db: DbOrTx,
  studentId: string,
  contentIds: string[],
  only?: "tests",
): Promise<Set<string>> {
  if (contentIds.length === 0) return new Set();
  const rows = await db
    .select({ id: contents.id })
    .from(contents)
    .where(and(inArray(contents.id, contentIds), sql`${contents.id} in ${batchHeldContentIds(studentId, only)}`));
  return new Set(rows.map((r) => r.id));
}

export async function isEnrolled(db: DbOrTx, userId: string, contentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: enrollments.id })
    .from(enrollments)
    .where(and(eq(enrollments.studentId, userId), eq(enrollments.contentId, contentId)))
    .limit(1);
  return Boolean(row);
}

/**
 * Whether the policy lets the reader write the content's institute (content.write there, from
 * their live roles: server/auth/permissions.ts, decision 0039); never for content of no institute.
 */
export async function mayEditInstituteOf(db: DbOrTx, reader: Reader, content: AccessTarget): Promise<boolean> {
  if (!content.centerId) return false;
  return can(await membershipOf(db, reader.id, content.centerId), "content.write");
}

/**
 * THE decision of who may open a content's file (its signed link, every byte-range fetch):
 * its creator, platform admins, students enrolled in it, and whoever the policy lets write the
 * content's institute (content.write there: a colleague at the desk who may edit it, its owner),
 * while they hold that role. Every delivery path asks here, none decides on its own, so ending an
 * enrolment or a role ends access everywhere at once. An enrolled student's reason stays
 * "enrolled" (their stamped copy), asked first as before.
 */
export async function contentAccessReason(
  db: DbOrTx,
  reader: Reader,
  content: AccessTarget,
): Promise<AccessReason | null> {
  return (
    decideAccess(reader, content, false) ??
    decideAccess(reader, content, await isEnrolled(db, reader.id, content.id)) ??
    decideAccess(reader, content, false, (await heldThroughBatch(db, reader.id, [content.id])).has(content.id)) ??
    ((await mayEditInstituteOf(db, reader, content)) ? "editor" : null)
  );
}

/**
 * When a live class's link becomes visible to its enrolled students: 15 minutes before it
 * starts. A class without a start time has its link visible to them at once.
 */
export function liveLinkOpensAt(startsAt: Date | null): Date | null {
  return startsAt ? new Date(startsAt.getTime() - LIVE_LINK_LEAD_MS) : null;
}

/**
 * The live link as `reason` may see it now: creators, those who may edit it and admins always,
 * enrolled students (and a batch's) from 15 minutes before the class, everyone else never (the link is the class's ticket).
 */
export function visibleLiveLink(
  reason: AccessReason | null,
  content: { liveLink: string | null; liveStartsAt: Date | null },
  now = new Date(),
): string | null {
  if (!content.liveLink || !reason) return null;
  if (!asStudent(reason)) return content.liveLink;
  const opens = liveLinkOpensAt(content.liveStartsAt);
  return !opens || now.getTime() >= opens.getTime() ? content.liveLink : null;
}
