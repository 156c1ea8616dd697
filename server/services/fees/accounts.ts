import { and, asc, eq, inArray, isNotNull, or } from "drizzle-orm";
import { feeAccounts, feeDues, feeEntries, memberships, users } from "../../db/schema/index.ts";
import type { Db, Tx } from "../../db/types.ts";
import { badRequest, conflict, notFound, parseWith } from "../../http/errors.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import {
  CSV_HAS_PLAN,
  CSV_NOT_ASSIGNED,
  CSV_NOT_A_STUDENT,
  CSV_NO_ACCOUNT,
  FEE_ACCOUNT_NOT_FOUND,
  FEE_PLAN_TAKEN,
  FeeAccountInput,
  FeeAccountsCsvInput,
  csvSameStudent,
  type FeeAccountJson,
} from "#common/validation/fees.ts";
import { csvRefusal, readAdmissionCsv } from "../batches.ts";
import { NOT_A_STUDENT } from "#common/validation/batches.ts";
import { spread, stackDiscounts } from "#common/fees.ts";
import { indiaDate } from "#common/india-dates.ts";
import { accountStatements, type FeeDueRow } from "./statements.ts";
import type { FeePlanRow, FeePlans } from "./plans.ts";
import { instituteStudents, type InstituteStudentRow } from "../institute-students.ts";

/** The most rows one INSERT writes: well within PostgreSQL's 65,535 parameters at 9 columns a row. */
const ROWS_PER_INSERT = 500;

/** `rows` in runs of at most ROWS_PER_INSERT. */
function* inChunks<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) yield rows.slice(i, i + ROWS_PER_INSERT);
}

/**
 * Students' fee accounts (issue 42 §2): assigning a plan copies its instalments into dues, each
 * written to the append-only ledger with the discounts that fall on it (stacked in the fixed
 * order, shared over the dues in proportion). Everything read is derived from that ledger.
 */
export class FeeAccounts {
  private readonly db: Db;
  private readonly plans: FeePlans;
  private readonly now: () => Date;

  constructor(deps: { db: Db; plans: FeePlans; now?: () => Date }) {
    this.db = deps.db;
    this.plans = deps.plans;
    this.now = deps.now ?? (() => new Date());
  }

  async assign(actorId: string, centerId: string, input: unknown): Promise<FeeAccountJson> {
    const body = parseWith(FeeAccountInput, input);
    let accountId = "";
    try {
      await this.db.transaction(async (tx) => {
        const plan = await this.plans.get(tx, centerId, body.feePlanId);
        const [student] = await tx
          .select({ userId: memberships.userId })
          .from(memberships)
          .where(
            and(
              eq(memberships.centerId, centerId),
              eq(memberships.userId, body.studentId),
              eq(memberships.role, "student"),
              eq(memberships.status, "active"),
            ),
          );
        if (!student) {
          const message = NOT_A_STUDENT(`The account ${body.studentId}`);
          throw badRequest(message, { issues: [{ field: "studentId", message }] });
        }
        [accountId] = await this.open(tx, actorId, plan, [{ studentId: body.studentId, discounts: body.discounts }]);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(FEE_PLAN_TAKEN);
      throw error;
    }
    const [json] = await accountStatements(this.db, [accountId], indiaDate(this.now()), true);
    return json;
  }

  /**
   * A plan assigned to many students from a CSV (issue 42 §2), read as batch admission reads its
   * CSV (`readAdmissionCsv`: name,email,phone, within its limits): each row's student found by
   * e-mail, else by a verified number, among the institute's students. Every bad row is named
   * (no such account, not a student here, already under this plan, the same student twice), and
   * when any row is bad nobody is assigned. No discounts: the desk adds those one by one.
   */
  async assignCsv(actorId: string, centerId: string, input: unknown): Promise<FeeAccountJson[]> {
    const body = parseWith(FeeAccountsCsvInput, input);
    const people = readAdmissionCsv(body.csv, CSV_NOT_ASSIGNED);
    let ids: string[];
    try {
      ids = await this.db.transaction(async (tx) => {
        const plan = await this.plans.get(tx, centerId, body.feePlanId);
        const emails = [...new Set(people.map((p) => p.email).filter(Boolean))];
        const phones = [...new Set(people.flatMap((p) => (p.phone ? [p.phone] : [])))];
        const byEmail = new Map<string, string>();
        const byPhone = new Map<string, string>();
        if (emails.length)
          for (const row of await tx
            .select({ id: users.id, email: users.email })
            .from(users)
            .where(inArray(users.email, emails)))
            byEmail.set(row.email, row.id);
        if (phones.length)
          for (const row of await tx
            .select({ id: users.id, phone: users.phone })
            .from(users)
            .where(and(inArray(users.phone, phones), isNotNull(users.phoneVerifiedAt))))
            if (row.phone) byPhone.set(row.phone, row.id);
        const found = people.map((p) => (p.email && byEmail.get(p.email)) || (p.phone && byPhone.get(p.phone)) || null);
        const known = found.filter((id): id is string => Boolean(id));
        const students = new Set(
          known.length
            ? (
                await tx
                  .select({ userId: memberships.userId })
                  .from(memberships)
                  .where(
                    and(
                      eq(memberships.centerId, centerId),
                      inArray(memberships.userId, known),
                      eq(memberships.role, "student"),
                      eq(memberships.status, "active"),
                    ),
                  )
              ).map((r) => r.userId)
            : [],
        );
        const taken = new Set(
          known.length
            ? (
                await tx
                  .select({ studentId: feeAccounts.studentId })
                  .from(feeAccounts)
                  .where(and(eq(feeAccounts.feePlanId, plan.id), inArray(feeAccounts.studentId, known)))
              ).map((r) => r.studentId)
            : [],
        );
        const problems: { row: number; message: string }[] = [];
        const firstRow = new Map<string, number>();
        people.forEach((person, i) => {
          const id = found[i];
          const why = !id
            ? CSV_NO_ACCOUNT
            : !students.has(id)
              ? CSV_NOT_A_STUDENT
              : taken.has(id)
                ? CSV_HAS_PLAN
                : firstRow.has(id)
                  ? csvSameStudent(firstRow.get(id)!)
                  : null;
          if (why) problems.push({ row: person.row, message: why });
          else firstRow.set(id!, person.row);
        });
        if (problems.length) throw csvRefusal(problems, CSV_NOT_ASSIGNED);
        return this.open(
          tx,
          actorId,
          plan,
          [...firstRow.keys()].map((studentId) => ({ studentId, discounts: [] })),
        );
      });
    } catch (error) {
      // Someone assigned one of them the plan meanwhile: nobody was assigned by this file.
      if (isUniqueViolation(error)) throw conflict(FEE_PLAN_TAKEN);
      throw error;
    }
    return accountStatements(this.db, ids, indiaDate(this.now()));
  }

  /**
   * A batch's fee plan assigned to students just admitted into it (issue 41 §1, 42 §2), in the
   * admission's transaction: each student without an account under the plan gets one, with no
   * discount (the desk adds those by assigning the plan with them instead).
   */
  async openForBatch(tx: Tx, actorId: string | null, centerId: string, planId: string, studentIds: string[]) {
    if (studentIds.length === 0) return;
    const plan = await this.plans.get(tx, centerId, planId).catch(() => null);
    if (!plan) return;
    const have = await tx
      .select({ studentId: feeAccounts.studentId })
      .from(feeAccounts)
      .where(and(eq(feeAccounts.feePlanId, plan.id), inArray(feeAccounts.studentId, studentIds)));
    const taken = new Set(have.map((row) => row.studentId));
    const untaken = studentIds.filter((id) => !taken.has(id));
    await this.open(
      tx,
      actorId,
      plan,
      untaken.map((studentId) => ({ studentId, discounts: [] })),
    );
  }

  /**
   * Accounts under `plan`, one per student (in the order given): each with its dues copied from
   * the plan and written to the ledger with the discounts that fall on each. Written in a few
   * multi-row statements, ROWS_PER_INSERT rows each, however many students: a CSV of 500 made
   * 1,500 round trips one account at a time.
   */
  private async open(
    tx: Tx,
    actorId: string | null,
    plan: FeePlanRow,
    students: { studentId: string; discounts: FeeAccountInput["discounts"] }[],
  ): Promise<string[]> {
    const centerId = plan.centerId;
    const accountOf = new Map<string, string>();
    for (const rows of inChunks(students))
      for (const made of await tx
        .insert(feeAccounts)
        .values(
          rows.map((s) => ({
            centerId,
            studentId: s.studentId,
            feePlanId: plan.id,
            planName: plan.name,
            createdById: actorId,
          })),
        )
        .returning({ id: feeAccounts.id, studentId: feeAccounts.studentId }))
        accountOf.set(made.studentId, made.id);
    const duesOf = new Map<string, FeeDueRow[]>();
    const wanted = students.flatMap((s) =>
      plan.instalments.map((item, position) => ({
        accountId: accountOf.get(s.studentId)!,
        centerId,
        position,
        label: item.label,
        amount: item.amount,
        dueOn: item.dueOn,
        gstRate: plan.gstRate,
        lateFee: plan.lateFee,
      })),
    );
    for (const rows of inChunks(wanted))
      for (const due of await tx.insert(feeDues).values(rows).returning())
        duesOf.set(due.accountId, [...(duesOf.get(due.accountId) ?? []), due]);
    const entries = students.flatMap(({ studentId, discounts }) => {
      const accountId = accountOf.get(studentId)!;
      const dues = duesOf.get(accountId)!.sort((a, b) => a.position - b.position);
      const base = { accountId, centerId, createdById: actorId };
      const charged = dues.map((due) => ({ ...base, dueId: due.id, kind: "due" as const, amount: due.amount }));
      const off = stackDiscounts(plan.total, discounts).flatMap(({ terms, off }) => {
        const { reason, ...discount } = terms;
        const shares = spread(
          off,
          dues.map((due) => due.amount),
        );
        return dues
          .map((due, i) => ({
            ...base,
            dueId: due.id,
            kind: "discount" as const,
            amount: shares[i],
            discount,
            reason,
            approvedById: actorId,
          }))
          .filter((row) => row.amount > 0);
      });
      return [...charged, ...off];
    });
    for (const rows of inChunks(entries)) await tx.insert(feeEntries).values(rows);
    return students.map((s) => accountOf.get(s.studentId)!);
  }

  /** The institute's account `id` with its ledger, or 404. */
  async get(centerId: string, accountId: string): Promise<FeeAccountJson> {
    const [row] = await this.db
      .select({ id: feeAccounts.id })
      .from(feeAccounts)
      .where(and(eq(feeAccounts.id, accountId), eq(feeAccounts.centerId, centerId)));
    if (!row) throw notFound(FEE_ACCOUNT_NOT_FOUND);
    const [json] = await accountStatements(this.db, [row.id], indiaDate(this.now()), true);
    return json;
  }

  /** The institute's accounts, of one student when named. */
  async list(centerId: string, studentId?: string): Promise<FeeAccountJson[]> {
    const rows = await this.db
      .select({ id: feeAccounts.id })
      .from(feeAccounts)
      .where(and(eq(feeAccounts.centerId, centerId), studentId ? eq(feeAccounts.studentId, studentId) : undefined))
      .orderBy(asc(feeAccounts.createdAt))
      .limit(500);
    return accountStatements(
      this.db,
      rows.map((r) => r.id),
      indiaDate(this.now()),
    );
  }

  /** A student's own accounts with their statements: on an institute's site, that institute's; elsewhere every one. */
  async ofStudent(studentId: string, centerId: string | null): Promise<FeeAccountJson[]> {
    return (await this.ofStudents([{ studentId, centerId }]))[0];
  }

  /**
   * `ofStudent` for several students at once (a parent's children), in the order given, read in
   * one query for the accounts and one statement read for them all.
   */
  async ofStudents(students: { studentId: string; centerId: string | null }[]): Promise<FeeAccountJson[][]> {
    if (students.length === 0) return [];
    const rows = await this.db
      .select({ id: feeAccounts.id })
      .from(feeAccounts)
      .where(
        or(
          ...students.map((s) =>
            and(eq(feeAccounts.studentId, s.studentId), s.centerId ? eq(feeAccounts.centerId, s.centerId) : undefined),
          ),
        ),
      )
      .orderBy(asc(feeAccounts.createdAt));
    const accounts = await accountStatements(
      this.db,
      rows.map((r) => r.id),
      indiaDate(this.now()),
      true,
    );
    return students.map((s) =>
      accounts.filter((a) => a.student._id === s.studentId && (!s.centerId || a.centerId === s.centerId)),
    );
  }

  /** The institute's students by name, for choosing whom to assign a plan. */
  async students(centerId: string): Promise<InstituteStudentRow[]> {
    return instituteStudents(this.db, centerId, { limit: 2000 });
  }

  /** The institute an account belongs to (for the caller's role there), or null. */
  async centerOf(accountId: string): Promise<{ centerId: string; studentId: string } | null> {
    const [row] = await this.db
      .select({ centerId: feeAccounts.centerId, studentId: feeAccounts.studentId })
      .from(feeAccounts)
      .where(eq(feeAccounts.id, accountId));
    return row ?? null;
  }
}
