import { and, asc, count, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { parse as parseCsv } from "csv-parse/sync";
import * as v from "valibot";
import {
  batchContents,
  batchStudents,
  batchTeachers,
  batches,
  contents,
  enquiries,
  feePlans,
  memberships,
  users,
} from "../db/schema/index.ts";
import type { Db, DbOrTx, Tx } from "../db/types.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { HttpError, badRequest, conflict, notFound, parseWith } from "../http/errors.ts";
import { isUuid } from "#common/validation/ids.ts";
import { emailSchema } from "#common/validation/account.ts";
import { toE164 } from "#common/validation/phone.ts";
import type { MemberRole } from "#common/memberships.ts";
import {
  AdmitInput,
  BATCH_CONTENT_NOT_FOUND,
  BATCH_CONTENT_NOT_IN_BATCH,
  BATCH_CSV_HEADER,
  BATCH_CSV_LIMITS,
  BATCH_NOT_FOUND,
  BatchContentInput,
  BatchInput,
  FeePlanChoice,
  LEAD_NOT_FOUND,
  LeadAdmitInput,
  MOVE_TO_SAME,
  MoveInput,
  NOT_A_FEE_PLAN,
  NOT_A_STUDENT,
  NOT_A_TEACHER,
  STUDENT_NOT_IN_BATCH,
  TeachersInput,
  leadUnreachable,
  type BatchContentJson,
  type BatchJson,
  type BatchPersonJson,
  type BatchStudentJson,
} from "#common/validation/batches.ts";

/** Roles a batch's teacher may hold in its institute: a teacher's, or a creator's or owner's, who teach too. */
const TEACHING_ROLES: readonly MemberRole[] = ["teacher", "creator", "owner"];

/**
 * An account made for a student admitted from a lead or a CSV: no password anyone knows (argon2
 * cannot read this, so a password sign-in fails); the student sets one through "Forgot password",
 * or signs in with a code once their number is verified.
 */
const NO_PASSWORD = "!admitted-without-password";

export interface BatchActor {
  id: string;
}

/** What one admission did: who was admitted, who waits, and who was in the batch already. */
export interface Admission {
  admitted: BatchStudentJson[];
  waitlisted: BatchStudentJson[];
  already: BatchStudentJson[];
}

/** A row of an admission CSV, checked. */
export interface CsvPerson {
  row: number;
  name: string;
  email: string;
  phone: string | null;
}

type LockedBatch = { id: string; centerId: string; capacity: number | null; feePlanId: string | null };

/** What admitting needs of fees: an account under the batch's plan for each student admitted. */
export interface BatchFees {
  openForBatch(tx: Tx, actorId: string | null, centerId: string, planId: string, studentIds: string[]): Promise<void>;
}

/**
 * Batches (issue 41 §1, decision 0042): made by an institute's owners and staff (batches.manage,
 * decided before anything here runs), students admitted into them one by one, from a lead or by
 * CSV, up to the capacity and then onto the waiting list; moves and departures kept as history,
 * the first waiting student admitted when a seat frees. Every admission, move and departure holds
 * the batch's row (FOR UPDATE), so simultaneous ones are decided one at a time.
 */
export class BatchService {
  private readonly db: Db;
  private readonly now: () => number;

  /** Opens the batch's fee plan for students as they are admitted (FeeAccounts.openForBatch). */
  private readonly fees: BatchFees | null;

  constructor(deps: { db: Db; now?: () => number; fees?: BatchFees }) {
    this.db = deps.db;
    this.now = deps.now ?? Date.now;
    this.fees = deps.fees ?? null;
  }

  /** The institute a batch belongs to, or null (no such batch, or another institute's under row-level security). */
  async centerOf(batchId: string): Promise<string | null> {
    if (!isUuid(batchId)) return null;
    const [row] = await this.db.select({ centerId: batches.centerId }).from(batches).where(eq(batches.id, batchId));
    return row?.centerId ?? null;
  }

  /** Makes a batch; its teachers must hold a teacher's, creator's or owner's role in the institute. */
  async create(actor: BatchActor, centerId: string, input: unknown): Promise<BatchJson> {
    const data = parseWith(BatchInput, input);
    const teacherIds = [...new Set(data.teacherIds)];
    const id = await this.db.transaction(async (tx) => {
      await this.checkTeachers(tx, centerId, teacherIds);
      if (data.feePlanId) await this.checkFeePlan(tx, centerId, data.feePlanId);
      const [row] = await tx
        .insert(batches)
        .values({
          centerId,
          name: data.name,
          course: data.course || null,
          startsOn: data.startsOn,
          endsOn: data.endsOn ?? null,
          capacity: data.capacity ?? null,
          medium: data.medium || null,
          centre: data.centre || null,
          feePlanId: data.feePlanId ?? null,
          createdById: actor.id,
        })
        .returning({ id: batches.id });
      if (teacherIds.length > 0)
        await tx.insert(batchTeachers).values(teacherIds.map((userId) => ({ batchId: row.id, centerId, userId })));
      return row.id;
    });
    return (await this.batchRows(centerId, id))[0];
  }

  /** Names the batch's teachers anew (all of them: an empty list leaves none); each must teach at the institute. */
  async setTeachers(centerId: string, batchId: string, input: unknown): Promise<BatchJson> {
    const teacherIds = [...new Set(parseWith(TeachersInput, input).teacherIds)];
    await this.db.transaction(async (tx) => {
      await this.lockBatch(tx, centerId, batchId);
      await this.checkTeachers(tx, centerId, teacherIds);
      await tx.delete(batchTeachers).where(eq(batchTeachers.batchId, batchId));
      if (teacherIds.length > 0)
        await tx.insert(batchTeachers).values(teacherIds.map((userId) => ({ batchId, centerId, userId })));
    });
    return (await this.batchRows(centerId, batchId))[0];
  }

  /**
   * Chooses the batch's fee plan (null: none). Students admitted from now on get an account under
   * it; those already in the batch are assigned it from the Fees page, where discounts are set.
   */
  async setFeePlan(centerId: string, batchId: string, input: unknown): Promise<BatchJson> {
    const { feePlanId } = parseWith(FeePlanChoice, input);
    await this.db.transaction(async (tx) => {
      await this.lockBatch(tx, centerId, batchId);
      if (feePlanId) await this.checkFeePlan(tx, centerId, feePlanId);
      await tx
        .update(batches)
        .set({ feePlanId, updatedAt: sql`now()` })
        .where(eq(batches.id, batchId));
    });
    return (await this.batchRows(centerId, batchId))[0];
  }

  /** Refuses (400) a fee plan that is not the institute's. */
  private async checkFeePlan(tx: Tx, centerId: string, feePlanId: string): Promise<void> {
    const [plan] = await tx
      .select({ id: feePlans.id })
      .from(feePlans)
      .where(and(eq(feePlans.id, feePlanId), eq(feePlans.centerId, centerId), isNull(feePlans.archivedAt)));
    if (!plan) throw badRequest(NOT_A_FEE_PLAN, { issues: [{ field: "feePlanId", message: NOT_A_FEE_PLAN }] });
  }

  /** Refuses (400, naming them) teachers who hold no live teacher's, creator's or owner's role at the institute. */
  private async checkTeachers(tx: Tx, centerId: string, teacherIds: string[]): Promise<void> {
    if (teacherIds.length === 0) return;
    const holding = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(
        and(
          eq(memberships.centerId, centerId),
          inArray(memberships.userId, teacherIds),
          inArray(memberships.role, [...TEACHING_ROLES]),
          eq(memberships.status, "active"),
        ),
      )
      // Held while the batch is written: a removal waits, then sees the batch.
      .for("share");
    const found = new Set(holding.map((h) => h.userId));
    const missing = teacherIds.filter((t) => !found.has(t));
    if (missing.length > 0) {
      const message = NOT_A_TEACHER(
        missing.length === 1 ? `The teacher ${missing[0]}` : `Teachers ${missing.join(", ")}`,
      );
      throw badRequest(message, { issues: [{ field: "teacherIds", message }] });
    }
  }

  /**
   * The institute's people a batch can take, by account (the ids admission and teachers take):
   * its live students, and those who may teach (teacher's, creator's or owner's role), by name.
   */
  async people(centerId: string): Promise<{ students: BatchPersonJson[]; teachers: BatchPersonJson[] }> {
    const rows = await this.db
      .selectDistinct({ id: users.id, name: users.name, email: users.email, role: memberships.role })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(
        and(
          eq(memberships.centerId, centerId),
          eq(memberships.status, "active"),
          inArray(memberships.role, ["student", ...TEACHING_ROLES]),
        ),
      )
      .orderBy(asc(users.name), asc(users.id));
    const of = (wanted: readonly MemberRole[]) => {
      const seen = new Set<string>();
      return rows
        .filter((r) => wanted.includes(r.role) && !seen.has(r.id) && seen.add(r.id))
        .map((r) => ({ _id: r.id, name: r.name, email: r.email }));
    };
    return { students: of(["student"]), teachers: of(TEACHING_ROLES) };
  }

  /** The institute's batches, newest start first, with their teachers and counts of admitted and waiting students. */
  async list(centerId: string): Promise<BatchJson[]> {
    return this.batchRows(centerId);
  }

  /** One batch with its students, its waiting list (in order), its history (moved, left) and the contents it opens. */
  async detail(centerId: string, batchId: string) {
    const [batch] = await this.batchRows(centerId, batchId);
    if (!batch) throw notFound(BATCH_NOT_FOUND);
    const [rows, opened] = await Promise.all([this.studentRows(this.db, batchId), this.contentRows(batchId)]);
    return {
      batch,
      students: rows.filter((r) => r.status === "admitted"),
      waitingList: rows.filter((r) => r.status === "waitlisted"),
      history: rows.filter((r) => r.status === "moved" || r.status === "left"),
      contents: opened,
    };
  }

  /** The contents the batch opens to its admitted students, as added (content-access.ts decides what that opens). */
  private async contentRows(batchId: string): Promise<BatchContentJson[]> {
    const rows = await this.db
      .select({ id: contents.id, title: contents.title, type: contents.type, addedAt: batchContents.createdAt })
      .from(batchContents)
      .innerJoin(contents, eq(contents.id, batchContents.contentId))
      .where(eq(batchContents.batchId, batchId))
      .orderBy(asc(batchContents.createdAt), asc(contents.title));
    return rows.map((r) => ({ _id: r.id, title: r.title, type: r.type, addedAt: r.addedAt.toISOString() }));
  }

  /**
   * Opens an item, test or series of the batch's institute to its admitted students (issue 41 §1);
   * adding it again changes nothing. Another institute's content, a deleted one or no such id: 404.
   */
  async addContent(actor: BatchActor, centerId: string, batchId: string, input: unknown): Promise<BatchContentJson[]> {
    const { contentId } = parseWith(BatchContentInput, input);
    await this.db.transaction(async (tx) => {
      await this.lockBatch(tx, centerId, batchId);
      const [content] = await tx
        .select({ id: contents.id })
        .from(contents)
        .where(and(eq(contents.id, contentId), eq(contents.centerId, centerId), isNull(contents.archivedAt)));
      if (!content) throw notFound(BATCH_CONTENT_NOT_FOUND);
      await tx
        .insert(batchContents)
        .values({ batchId, centerId, contentId, addedById: actor.id })
        .onConflictDoNothing();
    });
    return this.contentRows(batchId);
  }

  /** Closes a content to the batch's students (those who bought it keep it). */
  async removeContent(centerId: string, batchId: string, contentId: string): Promise<BatchContentJson[]> {
    if (!isUuid(contentId)) throw notFound(BATCH_CONTENT_NOT_IN_BATCH);
    await this.db.transaction(async (tx) => {
      await this.lockBatch(tx, centerId, batchId);
      const gone = await tx
        .delete(batchContents)
        .where(and(eq(batchContents.batchId, batchId), eq(batchContents.contentId, contentId)))
        .returning({ contentId: batchContents.contentId });
      if (gone.length === 0) throw notFound(BATCH_CONTENT_NOT_IN_BATCH);
    });
    return this.contentRows(batchId);
  }

  /**
   * Admits students: `{studentIds}` (accounts that are the institute's students) or `{csv}`
   * (name,email,phone: each person's account found by e-mail, or by a verified number, or made
   * from the e-mail address, and made the institute's student). Any bad id or row refuses the
   * whole admission, naming each. Past the capacity, students join the waiting list in order.
   */
  async admit(actor: BatchActor, centerId: string, batchId: string, input: unknown): Promise<Admission> {
    const body = parseWith(AdmitInput, input);
    if (body.csv !== undefined) return this.admitCsv(actor, centerId, batchId, body.csv);
    const ids = [...new Set(body.studentIds ?? [])];
    return this.db.transaction(async (tx) => {
      const batch = await this.lockBatch(tx, centerId, batchId);
      const students = await tx
        .selectDistinct({ userId: memberships.userId })
        .from(memberships)
        .where(
          and(
            eq(memberships.centerId, centerId),
            inArray(memberships.userId, ids),
            eq(memberships.role, "student"),
            eq(memberships.status, "active"),
          ),
        );
      const found = new Set(students.map((s) => s.userId));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) {
        const issues = missing.map((id) => ({ field: "studentIds", message: NOT_A_STUDENT(`The account ${id}`) }));
        throw badRequest(issues[0].message, { issues });
      }
      return this.place(tx, batch, ids, actor.id);
    });
  }

  /** `admit` with a CSV: all rows or none. */
  private async admitCsv(actor: BatchActor, centerId: string, batchId: string, csv: string): Promise<Admission> {
    const people = readAdmissionCsv(csv);
    try {
      return await this.db.transaction(async (tx) => {
        const batch = await this.lockBatch(tx, centerId, batchId);
        const ids = await this.accountsFor(tx, centerId, people);
        const problems = people.flatMap((person, i) =>
          ids[i] || person.email
            ? []
            : [
                {
                  row: person.row,
                  message: `no e-mail address, and no account has verified the number ${person.phone}`,
                },
              ],
        );
        if (problems.length > 0) throw csvRefusal(problems);
        return this.place(tx, batch, [...new Set(ids as string[])], actor.id);
      });
    } catch (error) {
      if (isUniqueViolation(error, "users_email_key"))
        throw conflict("Someone signed up with one of these addresses just now. Send the CSV again.");
      throw error;
    }
  }

  /**
   * Admits a lead (an enquiry of the institute): their account is found by the lead's e-mail
   * address, else by an account that has verified the lead's number; without either, one is made
   * from the e-mail address. A lead with no e-mail address whose number no account has verified
   * is refused (409): there is no address to make an account with. The lead is marked enrolled.
   */
  async admitLead(actor: BatchActor, centerId: string, batchId: string, input: unknown): Promise<Admission> {
    const { enquiryId } = parseWith(LeadAdmitInput, input);
    try {
      return await this.db.transaction(async (tx) => {
        const batch = await this.lockBatch(tx, centerId, batchId);
        const [lead] = await tx
          .select()
          .from(enquiries)
          .where(and(eq(enquiries.id, enquiryId), eq(enquiries.centerId, centerId)))
          .for("update");
        if (!lead) throw notFound(LEAD_NOT_FOUND);
        const phone = toE164(lead.phone);
        const [userId] = await this.accountsFor(tx, centerId, [{ row: 0, name: lead.name, email: lead.email, phone }]);
        if (!userId) throw conflict(leadUnreachable(lead.phone));
        const outcome = await this.place(tx, batch, [userId], actor.id);
        await tx
          .update(enquiries)
          .set({ status: "enrolled", updatedAt: new Date(this.now()) })
          .where(eq(enquiries.id, lead.id));
        return outcome;
      });
    } catch (error) {
      if (isUniqueViolation(error, "users_email_key"))
        throw conflict("Someone signed up with this lead's address just now. Admit the lead again.");
      throw error;
    }
  }

  /** A student leaves the batch (kept as history); the first on the waiting list takes a freed seat. */
  async leave(
    centerId: string,
    batchId: string,
    studentId: string,
  ): Promise<{ left: BatchStudentJson; promoted: BatchStudentJson[] }> {
    if (!isUuid(studentId)) throw notFound(STUDENT_NOT_IN_BATCH);
    return this.db.transaction(async (tx) => {
      const batch = await this.lockBatch(tx, centerId, batchId);
      const live = await this.liveRow(tx, batchId, studentId);
      const now = new Date(this.now());
      await tx
        .update(batchStudents)
        .set({ status: "left", leftAt: now, position: null })
        .where(eq(batchStudents.id, live.id));
      const promoted = live.status === "admitted" ? await this.promote(tx, batch) : [];
      const rows = await this.studentRows(tx, batchId);
      return { left: rows.find((r) => r._id === live.id)!, promoted: rows.filter((r) => promoted.includes(r._id)) };
    });
  }

  /**
   * Moves a student to another batch of the institute: the row here becomes history (moved, to
   * which batch, when), and a new one there is admitted, or waits when that batch is full. A seat
   * freed here goes to the first on this batch's waiting list. Both batches are held, in id order.
   */
  async move(actor: BatchActor, centerId: string, batchId: string, studentId: string, input: unknown) {
    const { toBatchId } = parseWith(MoveInput, input);
    if (!isUuid(studentId)) throw notFound(STUDENT_NOT_IN_BATCH);
    if (toBatchId === batchId) throw conflict(MOVE_TO_SAME);
    return this.db.transaction(async (tx) => {
      const locked = new Map<string, LockedBatch>();
      for (const id of [batchId, toBatchId].sort()) locked.set(id, await this.lockBatch(tx, centerId, id));
      const from = locked.get(batchId)!;
      const to = locked.get(toBatchId)!;
      const live = await this.liveRow(tx, batchId, studentId);
      const [there] = await tx
        .select({ id: batchStudents.id })
        .from(batchStudents)
        .where(
          and(
            eq(batchStudents.batchId, toBatchId),
            eq(batchStudents.userId, studentId),
            inArray(batchStudents.status, ["admitted", "waitlisted"]),
          ),
        );
      if (there) throw conflict(MOVE_TO_SAME);
      await tx
        .update(batchStudents)
        .set({ status: "moved", leftAt: new Date(this.now()), position: null, movedToBatchId: toBatchId })
        .where(eq(batchStudents.id, live.id));
      const placed = await this.place(tx, to, [studentId], actor.id);
      const promoted = live.status === "admitted" ? await this.promote(tx, from) : [];
      const rows = await this.studentRows(tx, batchId);
      return {
        moved: rows.find((r) => r._id === live.id)!,
        to: placed.admitted[0] ?? placed.waitlisted[0],
        promoted: rows.filter((r) => promoted.includes(r._id)),
      };
    });
  }

  /** The batch's row, held until the transaction ends (admissions, moves and departures wait on it). */
  private async lockBatch(tx: Tx, centerId: string, batchId: string): Promise<LockedBatch> {
    if (!isUuid(batchId)) throw notFound(BATCH_NOT_FOUND);
    const [row] = await tx
      .select({ id: batches.id, centerId: batches.centerId, capacity: batches.capacity, feePlanId: batches.feePlanId })
      .from(batches)
      .where(and(eq(batches.id, batchId), eq(batches.centerId, centerId)))
      .for("update");
    if (!row) throw notFound(BATCH_NOT_FOUND);
    return row;
  }

  private async liveRow(tx: Tx, batchId: string, studentId: string) {
    const [live] = await tx
      .select({ id: batchStudents.id, status: batchStudents.status })
      .from(batchStudents)
      .where(
        and(
          eq(batchStudents.batchId, batchId),
          eq(batchStudents.userId, studentId),
          inArray(batchStudents.status, ["admitted", "waitlisted"]),
        ),
      );
    if (!live) throw notFound(STUDENT_NOT_IN_BATCH);
    return live;
  }

  /** Puts students (the institute's) into a held batch: admitted while seats remain, then waiting in order. */
  private async place(tx: Tx, batch: LockedBatch, userIds: string[], actorId: string): Promise<Admission> {
    const live = await tx
      .select({ userId: batchStudents.userId, status: batchStudents.status, position: batchStudents.position })
      .from(batchStudents)
      .where(and(eq(batchStudents.batchId, batch.id), inArray(batchStudents.status, ["admitted", "waitlisted"])));
    const already = new Set(live.map((r) => r.userId));
    let seated = live.filter((r) => r.status === "admitted").length;
    let next = Math.max(0, ...live.map((r) => r.position ?? 0)) + 1;
    const now = new Date(this.now());
    const made: string[] = [];
    const seatedNow: string[] = [];
    for (const userId of userIds) {
      if (already.has(userId)) continue;
      already.add(userId);
      const admit = batch.capacity === null || seated < batch.capacity;
      const [row] = await tx
        .insert(batchStudents)
        .values({
          batchId: batch.id,
          centerId: batch.centerId,
          userId,
          addedById: actorId,
          ...(admit
            ? { status: "admitted" as const, admittedAt: now }
            : { status: "waitlisted" as const, position: next++, waitlistedAt: now }),
        })
        .returning({ id: batchStudents.id });
      if (admit) {
        seated += 1;
        seatedNow.push(userId);
      }
      made.push(row.id);
    }
    await this.openFees(tx, batch, seatedNow, actorId);
    // In the order asked for.
    const order = new Map(userIds.map((id, i) => [id, i]));
    const rows = (await this.studentRows(tx, batch.id))
      .filter((r) => (r.status === "admitted" || r.status === "waitlisted") && order.has(r.studentId))
      .sort((a, b) => order.get(a.studentId)! - order.get(b.studentId)!);
    return {
      admitted: rows.filter((r) => made.includes(r._id) && r.status === "admitted"),
      waitlisted: rows.filter((r) => made.includes(r._id) && r.status === "waitlisted"),
      already: rows.filter((r) => !made.includes(r._id)),
    };
  }

  /** Fills the held batch's free seats from the front of its waiting list; the ids of the rows admitted. */
  private async promote(tx: Tx, batch: LockedBatch): Promise<string[]> {
    const [{ seated }] = await tx
      .select({ seated: count() })
      .from(batchStudents)
      .where(and(eq(batchStudents.batchId, batch.id), eq(batchStudents.status, "admitted")));
    const free = batch.capacity === null ? Number.MAX_SAFE_INTEGER : batch.capacity - seated;
    if (free <= 0) return [];
    const waiting = await tx
      .select({ id: batchStudents.id, userId: batchStudents.userId })
      .from(batchStudents)
      .where(and(eq(batchStudents.batchId, batch.id), eq(batchStudents.status, "waitlisted")))
      .orderBy(asc(batchStudents.position), asc(batchStudents.createdAt), asc(batchStudents.id))
      .limit(Math.min(free, 10_000));
    if (waiting.length === 0) return [];
    const ids = waiting.map((w) => w.id);
    await tx
      .update(batchStudents)
      .set({ status: "admitted", position: null, admittedAt: new Date(this.now()) })
      .where(inArray(batchStudents.id, ids));
    await this.openFees(
      tx,
      batch,
      waiting.map((w) => w.userId),
      null,
    );
    return ids;
  }

  /** Students just seated get an account under the batch's fee plan, in the same transaction. */
  private async openFees(tx: Tx, batch: LockedBatch, userIds: string[], actorId: string | null): Promise<void> {
    if (!this.fees || !batch.feePlanId || userIds.length === 0) return;
    await this.fees.openForBatch(tx, actorId, batch.centerId, batch.feePlanId, userIds);
  }

  /**
   * The accounts of people being admitted (in their order), made the institute's students: found
   * by e-mail, else by a verified number; made from the e-mail address when there is none (in one
   * statement for a whole CSV). Null for one with no e-mail address and no account that has
   * verified their number; when any is null, nothing is made.
   */
  private async accountsFor(tx: Tx, centerId: string, people: CsvPerson[]): Promise<(string | null)[]> {
    const emails = [...new Set(people.map((p) => p.email).filter(Boolean))];
    const phones = [...new Set(people.flatMap((p) => (p.phone ? [p.phone] : [])))];
    const byEmail = new Map<string, string>();
    const byPhone = new Map<string, string>();
    if (emails.length > 0)
      for (const row of await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(inArray(users.email, emails)))
        byEmail.set(row.email, row.id);
    if (phones.length > 0)
      for (const row of await tx
        .select({ id: users.id, phone: users.phone })
        .from(users)
        .where(and(inArray(users.phone, phones), isNotNull(users.phoneVerifiedAt))))
        if (row.phone) byPhone.set(row.phone, row.id);
    const found = people.map((p) => (p.email && byEmail.get(p.email)) || (p.phone && byPhone.get(p.phone)) || null);
    if (found.some((id, i) => !id && !people[i].email)) return found;
    const toMake = new Map<string, CsvPerson>();
    people.forEach((p, i) => {
      if (!found[i] && !toMake.has(p.email)) toMake.set(p.email, p);
    });
    if (toMake.size > 0) {
      const made = await tx
        .insert(users)
        .values(
          [...toMake.values()].map((p) => ({
            name: p.name,
            email: p.email,
            passwordHash: NO_PASSWORD,
            role: "student" as const,
            signupCenterId: centerId,
          })),
        )
        .returning({ id: users.id, email: users.email });
      for (const row of made) byEmail.set(row.email, row.id);
    }
    const ids = people.map((p, i) => found[i] ?? byEmail.get(p.email) ?? null);
    const students = [...new Set(ids.filter((id): id is string => id !== null))];
    if (students.length > 0) {
      const now = new Date(this.now());
      await tx
        .insert(memberships)
        .values(
          students.map((userId) => ({
            centerId,
            userId,
            role: "student" as const,
            status: "active" as const,
            acceptedAt: now,
          })),
        )
        .onConflictDoNothing();
    }
    return ids;
  }

  private async batchRows(centerId: string, batchId?: string): Promise<BatchJson[]> {
    if (batchId !== undefined && !isUuid(batchId)) return [];
    const rows = await this.db
      .select({
        id: batches.id,
        centerId: batches.centerId,
        name: batches.name,
        course: batches.course,
        startsOn: batches.startsOn,
        endsOn: batches.endsOn,
        capacity: batches.capacity,
        medium: batches.medium,
        centre: batches.centre,
        feePlanId: batches.feePlanId,
        createdAt: batches.createdAt,
        // Named in full: a one-table select leaves its own columns unqualified, which the subquery would read as its own.
        admitted: sql<number>`(select count(*)::int from "batch_students" bs where bs."batch_id" = "batches"."id" and bs."status" = 'admitted')`,
        waitlisted: sql<number>`(select count(*)::int from "batch_students" bs where bs."batch_id" = "batches"."id" and bs."status" = 'waitlisted')`,
      })
      .from(batches)
      .where(and(eq(batches.centerId, centerId), batchId ? eq(batches.id, batchId) : undefined))
      .orderBy(sql`${batches.startsOn} desc`, asc(batches.name), asc(batches.id));
    const ids = rows.map((r) => r.id);
    const teachers =
      ids.length === 0
        ? []
        : await this.db
            .select({ batchId: batchTeachers.batchId, id: users.id, name: users.name })
            .from(batchTeachers)
            .innerJoin(users, eq(users.id, batchTeachers.userId))
            .where(inArray(batchTeachers.batchId, ids))
            .orderBy(asc(users.name), asc(users.id));
    const planIds = [...new Set(rows.flatMap((r) => (r.feePlanId ? [r.feePlanId] : [])))];
    const plans =
      planIds.length === 0
        ? []
        : await this.db
            .select({ id: feePlans.id, name: feePlans.name })
            .from(feePlans)
            .where(inArray(feePlans.id, planIds));
    return rows.map((r) => ({
      _id: r.id,
      centerId: r.centerId,
      name: r.name,
      course: r.course,
      startsOn: r.startsOn,
      endsOn: r.endsOn,
      capacity: r.capacity,
      medium: r.medium,
      centre: r.centre,
      teachers: teachers.filter((t) => t.batchId === r.id).map((t) => ({ _id: t.id, name: t.name })),
      feePlan: plans.filter((p) => p.id === r.feePlanId).map((p) => ({ _id: p.id, name: p.name }))[0] ?? null,
      admitted: Number(r.admitted),
      waitlisted: Number(r.waitlisted),
      createdAt: r.createdAt.toISOString(),
    }));
  }

  private async studentRows(db: DbOrTx, batchId: string): Promise<BatchStudentJson[]> {
    const rows = await db
      .select({
        id: batchStudents.id,
        userId: batchStudents.userId,
        name: users.name,
        email: users.email,
        status: batchStudents.status,
        position: batchStudents.position,
        admittedAt: batchStudents.admittedAt,
        waitlistedAt: batchStudents.waitlistedAt,
        leftAt: batchStudents.leftAt,
        movedTo: batchStudents.movedToBatchId,
      })
      .from(batchStudents)
      .innerJoin(users, eq(users.id, batchStudents.userId))
      .where(eq(batchStudents.batchId, batchId))
      .orderBy(
        asc(batchStudents.position),
        asc(sql`coalesce(${batchStudents.admittedAt}, ${batchStudents.createdAt})`),
        asc(users.name),
        asc(batchStudents.id),
      );
    return rows.map((r) => ({
      _id: r.id,
      studentId: r.userId,
      name: r.name,
      email: r.email,
      status: r.status,
      position: r.position,
      admittedAt: r.admittedAt?.toISOString() ?? null,
      waitlistedAt: r.waitlistedAt?.toISOString() ?? null,
      leftAt: r.leftAt?.toISOString() ?? null,
      movedTo: r.movedTo,
    }));
  }
}

const tooLarge = (message: string) => new HttpError(413, message);

/**
 * A 400 naming every bad row (its row number in the file, the header being row 1) and why; nothing
 * was done (`outcome`: what the rows could not, and that nobody was; fees assign plans by CSV too).
 */
export function csvRefusal(
  problems: { row: number; message: string }[],
  outcome = "be admitted, so nobody was",
): HttpError {
  const rows = problems.map((p) => ({ row: p.row, message: p.message }));
  const shown = rows.slice(0, 20).map((r) => `row ${r.row}: ${r.message}`);
  const more = rows.length > 20 ? `; and ${rows.length - 20} more` : "";
  const message = `${rows.length === 1 ? "One row" : `${rows.length} rows`} of the CSV cannot ${outcome}: ${shown.join("; ")}${more}.`;
  return badRequest(message, {
    rows,
    issues: rows.map((r) => ({ field: "csv", message: `Row ${r.row}: ${r.message}` })),
  });
}

const CsvEmail = v.union([v.literal(""), emailSchema]);

/**
 * An admission CSV read within limits (decision 0042): at most `BATCH_CSV_LIMITS.maxBytes` of
 * text (413), as many columns and characters a row, and rows (413); a header row naming name,
 * email and phone; each row a name and an e-mail address or a phone number, each person once.
 * Any bad row refuses the file with every bad row named (400).
 */
export function readAdmissionCsv(csv: string, outcome?: string): CsvPerson[] {
  const limits = BATCH_CSV_LIMITS;
  if (Buffer.byteLength(csv) > limits.maxBytes)
    throw tooLarge(`The CSV is too large (${limits.maxBytes / 1024} KB at most). Split it into smaller files.`);
  if (widestRow(csv) > limits.maxColumns)
    throw badRequest(`The CSV has too many columns: it needs ${BATCH_CSV_HEADER.join(",")} and a header row.`);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parseCsv(csv, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      max_record_size: limits.maxRowChars,
      to: limits.maxRows + 2,
    }) as unknown as typeof records;
  } catch (error) {
    if ((error as { code?: string }).code === "CSV_MAX_RECORD_SIZE")
      throw tooLarge(`A row of the CSV is too long (${limits.maxRowChars} characters at most).`);
    throw badRequest("The file could not be read as CSV.");
  }
  const [header, ...body] = records;
  const names = (header?.record ?? []).map((h) => h.toLowerCase());
  const column = Object.fromEntries(BATCH_CSV_HEADER.map((name) => [name, names.indexOf(name)]));
  if (!header || column.name < 0 || (column.email < 0 && column.phone < 0))
    throw badRequest(`The CSV's first row must name its columns: ${BATCH_CSV_HEADER.join(",")}.`);
  if (body.length === 0) throw badRequest("The CSV has no rows after its header.");
  if (body.length > limits.maxRows)
    throw tooLarge(`The CSV has too many rows (${limits.maxRows} at most). Split it into smaller files.`);
  const people: CsvPerson[] = [];
  const problems: { row: number; message: string }[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of body) {
    const row = info.lines;
    const cell = (name: string) => (column[name] >= 0 ? (record[column[name]] ?? "") : "");
    const name = cell("name");
    const typedPhone = cell("phone");
    const email = v.safeParse(CsvEmail, cell("email"));
    const phone = typedPhone ? toE164(typedPhone) : null;
    const why: string[] = [];
    if (!name) why.push("the name is missing");
    else if (name.length > 100) why.push("the name is too long (100 characters at most)");
    if (!email.success) why.push(`"${cell("email").slice(0, 80)}" is not a valid e-mail address`);
    if (typedPhone && !phone) why.push(`"${typedPhone.slice(0, 40)}" is not a valid phone number`);
    if (email.success && !email.output && !typedPhone) why.push("give an e-mail address or a phone number");
    const key = email.success && email.output ? email.output : phone;
    if (key && seen.has(key)) why.push(`the same person as row ${seen.get(key)}`);
    if (why.length > 0) {
      problems.push({ row, message: why.join(", ") });
      continue;
    }
    if (key) seen.set(key, row);
    people.push({ row, name, email: email.success ? email.output : "", phone });
  }
  if (problems.length > 0) throw csvRefusal(problems, outcome);
  return people;
}

/** The most cells a line has (commas outside quotes): csv-parse has no limit on columns. */
function widestRow(text: string): number {
  let widest = 0;
  let cells = 1;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) quoted = !quoted;
    else if (quoted) continue;
    else if (c === 0x2c) cells += 1;
    else if (c === 0x0a) {
      widest = Math.max(widest, cells);
      cells = 1;
    }
  }
  return Math.max(widest, cells);
}
