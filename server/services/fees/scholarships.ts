import { and, asc, eq, inArray, isNotNull, min, sql } from "drizzle-orm";
import { attempts, contents, feeAccounts, feeEntries, mockTests, users } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { notFound, conflict, parseWith } from "../../http/errors.ts";
import { spread, stackDiscounts, toRupees, type DiscountTerms } from "#common/fees.ts";
import { indiaDate } from "#common/india-dates.ts";
import {
  SCHOLARSHIP_NOT_RANKED,
  SCHOLARSHIP_SKIPPED,
  SCHOLARSHIP_TEST_NOT_FOUND,
  ScholarshipInput,
  scholarshipReason,
  type RankedTestJson,
  type ScholarshipAwardJson,
} from "#common/validation/fee-scholarships.ts";
import type { FeeDesk } from "./desk.ts";
import type { FeePlans } from "./plans.ts";
import { ledgerDues } from "./statements.ts";

/**
 * Scholarships by the institute's own admission-cum-scholarship test (issue 42 §2): the owner
 * picks one of its ranked mock tests, a plan and rank slabs; every account under the plan whose
 * student sat the test (their best rank) gets the slab's percent as a `scholarship` discount,
 * once, with its reason ("Rank 12 in …") and the owner as approver.
 *
 * Discounts stack in the fixed order (scholarship first, decision 0045) with the 100 % cap: the
 * account's discounts are stacked again with the scholarship (`stackDiscounts`), and what the
 * stack now takes off beyond what was already given is the scholarship's entry, shared over the
 * dues in proportion to what each still asks (never on money already paid). The ledger stays
 * append only: no earlier discount entry is changed.
 */
export class FeeScholarships {
  private readonly deps: { db: Db; desk: FeeDesk; plans: FeePlans; now: () => Date };

  constructor(deps: { db: Db; desk: FeeDesk; plans: FeePlans; now?: () => Date }) {
    this.deps = { ...deps, now: deps.now ?? (() => new Date()) };
  }

  /** The institute's mock tests with ranks, for choosing one. */
  async rankedTests(centerId: string): Promise<RankedTestJson[]> {
    const rows = await this.deps.db
      .select({
        _id: mockTests.contentId,
        title: contents.title,
        takers: sql<number>`count(distinct ${attempts.studentId})::int`,
      })
      .from(mockTests)
      .innerJoin(contents, eq(contents.id, mockTests.contentId))
      .innerJoin(attempts, and(eq(attempts.testId, mockTests.contentId), isNotNull(attempts.rank)))
      .where(eq(mockTests.centerId, centerId))
      .groupBy(mockTests.contentId, contents.title)
      .orderBy(asc(contents.title));
    return rows;
  }

  async apply(actorId: string, centerId: string, input: unknown): Promise<ScholarshipAwardJson[]> {
    const body = parseWith(ScholarshipInput, input);
    const { db, desk, plans } = this.deps;
    const [test] = await db
      .select({ title: contents.title })
      .from(mockTests)
      .innerJoin(contents, eq(contents.id, mockTests.contentId))
      .where(and(eq(mockTests.contentId, body.testId), eq(mockTests.centerId, centerId)));
    if (!test) throw notFound(SCHOLARSHIP_TEST_NOT_FOUND);
    const plan = await plans.get(db, centerId, body.feePlanId);
    const ranks = await db
      .select({ studentId: attempts.studentId, rank: min(attempts.rank) })
      .from(attempts)
      .where(and(eq(attempts.testId, body.testId), isNotNull(attempts.rank)))
      .groupBy(attempts.studentId);
    if (ranks.length === 0) throw conflict(SCHOLARSHIP_NOT_RANKED);
    const rankOf = new Map(ranks.map((r) => [r.studentId, r.rank!]));
    const accounts = await db
      .select({ id: feeAccounts.id, studentId: feeAccounts.studentId, name: users.name })
      .from(feeAccounts)
      .innerJoin(users, eq(users.id, feeAccounts.studentId))
      .where(
        and(
          eq(feeAccounts.centerId, centerId),
          eq(feeAccounts.feePlanId, plan.id),
          inArray(feeAccounts.studentId, [...rankOf.keys()]),
        ),
      )
      .orderBy(asc(users.name));
    const today = indiaDate(this.deps.now());
    const out: ScholarshipAwardJson[] = [];
    for (const account of accounts) {
      const rank = rankOf.get(account.studentId)!;
      const slab = body.slabs.find((s) => s.from <= rank && rank <= s.to);
      const award = { accountId: account.id, student: { _id: account.studentId, name: account.name }, rank };
      if (!slab) {
        out.push({ ...award, percent: null, amount: 0, skipped: SCHOLARSHIP_SKIPPED.noSlab });
        continue;
      }
      // One account at a time, held as the desk holds it: a payment meanwhile waits, then sees this.
      const amount = await db.transaction(async (tx) => {
        await desk.holdAccount(tx, centerId, account.id);
        // The student left: their account is settled by the refund, not discounted.
        if (await desk.refundAsked(tx, account.id)) return "refunded" as const;
        const given = await tx
          .select({ amount: feeEntries.amount, discount: feeEntries.discount, reason: feeEntries.reason })
          .from(feeEntries)
          .where(and(eq(feeEntries.accountId, account.id), eq(feeEntries.kind, "discount")))
          .orderBy(asc(feeEntries.createdAt));
        if (given.some((g) => g.discount?.kind === "scholarship")) return null;
        // The terms given before (each was shared over the dues: one entry per due).
        const terms = new Map<string, DiscountTerms>();
        for (const g of given) if (g.discount) terms.set(JSON.stringify([g.discount, g.reason]), g.discount);
        const dues = await ledgerDues(tx, { accountIds: [account.id] }, today);
        const gross = dues.reduce((s, d) => s + d.due.amount, 0);
        const before = given.reduce((s, g) => s + g.amount, 0);
        const scholarship: DiscountTerms = { kind: "scholarship", percent: slab.percent };
        const after = stackDiscounts(gross, [...terms.values(), scholarship]).reduce((s, d) => s + d.off, 0);
        // What each due still asks of its fee (not its late fees), never money already paid.
        const open = dues.map(({ due, figures }) =>
          Math.max(0, Math.min(figures.balance - figures.accrued, due.amount - figures.discount - figures.cancelled)),
        );
        const shares = spread(Math.max(0, after - before), open);
        const rows = dues
          .map(({ due }, i) => ({
            accountId: account.id,
            centerId,
            dueId: due.id,
            kind: "discount" as const,
            amount: shares[i],
            discount: scholarship,
            reason: scholarshipReason(rank, test.title),
            approvedById: actorId,
            createdById: actorId,
          }))
          .filter((r) => r.amount > 0);
        if (rows.length) await tx.insert(feeEntries).values(rows);
        return rows.reduce((s, r) => s + r.amount, 0);
      });
      out.push({
        ...award,
        percent: slab.percent,
        amount: typeof amount === "number" ? toRupees(amount) : 0,
        skipped:
          amount === "refunded"
            ? SCHOLARSHIP_SKIPPED.refunded
            : amount === null
              ? SCHOLARSHIP_SKIPPED.already
              : amount === 0
                ? SCHOLARSHIP_SKIPPED.nothingOpen
                : null,
      });
    }
    return out;
  }
}
