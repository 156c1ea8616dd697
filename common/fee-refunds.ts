import { addDays, daysBetween } from "./india-dates.ts";
import type { FeeHead } from "./fees.ts";

/**
 * Refunds when a student leaves (issue 42 §6, decision 0048), client-safe arithmetic in paise.
 * India's 2024 coaching guidelines: a pro-rata refund for the remaining period, within 10 days.
 * The institute keeps its documented non-refundable heads, the fee for the days used, and the
 * late fees and charges already on the account; what was paid beyond that is proposed back.
 */

/** Days within which a refund is due after the student leaves (the 2024 guidelines). */
const REFUND_WITHIN_DAYS = 10;

/** One due as the calculator needs it (paise). */
interface RefundDue {
  dueId: string;
  amount: number;
  discount: number;
  /** Paid, net of reversals. */
  paid: number;
  /** Late fees posted plus charges, less waivers: kept by the institute. */
  penalties: number;
}

export interface RefundWorking {
  leftOn: string;
  course: { from: string; to: string };
  days: { used: number; total: number };
  /** The fee charged: the dues less their discounts. */
  fee: number;
  nonRefundable: { amount: number; heads: { name: string; amount: number }[] };
  /** The fee that is refundable pro rata: `fee` less the non-refundable heads' share. */
  refundableFee: number;
  /** Its share for the days used. */
  usedFee: number;
  penalties: number;
  /** What the institute keeps: non-refundable, used, penalties. */
  kept: number;
  paid: number;
  /** What the calculator proposes to give back (never below 0). */
  proposed: number;
  /** What is still owed for what was used, when less was paid than is kept. */
  stillOwed: number;
  /** The last day to refund by (the 2024 guidelines: within 10 days of leaving). */
  refundBy: string;
}

/** The calculator's proposal: the working shown to the owner before they confirm. */
export function refundWorking(input: {
  heads: FeeHead[];
  dues: RefundDue[];
  course: { from: string; to: string };
  leftOn: string;
}): RefundWorking {
  const { heads, dues, course, leftOn } = input;
  const fee = dues.reduce((s, d) => s + d.amount - d.discount, 0);
  const headsTotal = heads.reduce((s, h) => s + h.amount, 0);
  // A discount lowers every head alike: each non-refundable head is kept at its discounted share.
  const share = (amount: number) => (headsTotal > 0 ? Math.round((amount * fee) / headsTotal) : 0);
  const kept = heads.filter((h) => h.nonRefundable).map((h) => ({ name: h.name, amount: share(h.amount) }));
  const nonRefundable = Math.min(
    fee,
    kept.reduce((s, h) => s + h.amount, 0),
  );
  const refundableFee = fee - nonRefundable;
  const total = Math.max(1, daysBetween(course.from, course.to) + 1);
  const used = Math.min(total, Math.max(0, daysBetween(course.from, leftOn) + 1));
  const usedFee = Math.round((refundableFee * used) / total);
  const penalties = dues.reduce((s, d) => s + Math.max(0, d.penalties), 0);
  const keep = nonRefundable + usedFee + penalties;
  const paid = dues.reduce((s, d) => s + d.paid, 0);
  return {
    leftOn,
    course,
    days: { used, total },
    fee,
    nonRefundable: { amount: nonRefundable, heads: kept },
    refundableFee,
    usedFee,
    penalties,
    kept: keep,
    paid,
    proposed: Math.max(0, paid - keep),
    stillOwed: Math.max(0, keep - paid),
    refundBy: addDays(leftOn, REFUND_WITHIN_DAYS),
  };
}

/** A due's entries when the refund closes the account: money back, and the fee no longer charged. */
interface RefundLine {
  dueId: string;
  refund: number;
  cancellation: number;
}

/**
 * How a refund of `amount` closes the account at zero, due by due (oldest first): the institute
 * keeps the money on the oldest dues, gives back from the latest, and stops charging whatever
 * each due still asked beyond what it keeps. `charged` is what a due asks without the late fee
 * accruing but not yet posted (its fee, less discount, plus penalties); paid is net.
 */
export function closeAccount(dues: { dueId: string; charged: number; paid: number }[], amount: number): RefundLine[] {
  let keep = dues.reduce((s, d) => s + d.paid, 0) - amount;
  return dues.map((d) => {
    const k = Math.max(0, Math.min(d.paid, d.charged, keep));
    keep -= k;
    return { dueId: d.dueId, refund: d.paid - k, cancellation: d.charged - k };
  });
}
