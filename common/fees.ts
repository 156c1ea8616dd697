import { daysBetween } from "./india-dates.ts";

/**
 * Fees (issue 42, decision 0045), client-safe: the shapes of a fee plan and the arithmetic every
 * page and the server agree on. Money here is in paise (whole numbers); the API speaks rupees.
 */

export interface FeeHead {
  name: string;
  amount: number;
  /**
   * Kept by the institute when a student leaves (its documented non-refundable items, such as an
   * admission fee or study material handed over); absent: refundable pro rata (decision 0048).
   */
  nonRefundable?: boolean;
}

export interface FeeInstalment {
  label: string;
  amount: number;
  /** India date, YYYY-MM-DD. */
  dueOn: string;
}

export const LATE_FEE_KINDS = ["per-day", "flat"] as const;
export type LateFeeKind = (typeof LATE_FEE_KINDS)[number];

/** A late fee: per day past the grace days, or once; never more than the cap. */
export interface LateFeeRule {
  kind: LateFeeKind;
  amount: number;
  graceDays: number;
  cap: number;
}

/** The fixed order discounts stack in: each applies to what the ones before it left. */
export const DISCOUNT_KINDS = ["scholarship", "sibling", "category", "staff-child", "custom"] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

export interface DiscountTerms {
  kind: DiscountKind;
  percent?: number;
  /** Paise. */
  amount?: number;
}

export const toPaise = (rupees: number): number => Math.round(rupees * 100);
export const toRupees = (paise: number): number => paise / 100;

/**
 * What each discount takes off `gross`, in the fixed order (DISCOUNT_KINDS, then as given): a
 * percentage of what is left, or a flat amount up to what is left, so together they never pass
 * 100 %. Returned in the order applied.
 */
export function stackDiscounts<T extends DiscountTerms>(gross: number, discounts: T[]): { terms: T; off: number }[] {
  const ordered = discounts
    .map((terms, index) => ({ terms, index }))
    .sort((a, b) => DISCOUNT_KINDS.indexOf(a.terms.kind) - DISCOUNT_KINDS.indexOf(b.terms.kind) || a.index - b.index);
  let left = gross;
  return ordered.map(({ terms }) => {
    const wanted = terms.percent !== undefined ? Math.round((left * terms.percent) / 100) : (terms.amount ?? 0);
    const off = Math.min(left, Math.max(0, wanted));
    left -= off;
    return { terms, off };
  });
}

/**
 * `amount` shared over parts in proportion to their sizes (largest remainder first), never more
 * than a part: how a discount on the whole fee falls on each instalment.
 */
export function spread(amount: number, parts: number[]): number[] {
  const whole = parts.reduce((sum, part) => sum + part, 0);
  if (whole <= 0) return parts.map(() => 0);
  const take = Math.min(amount, whole);
  const exact = parts.map((part) => (take * part) / whole);
  const shares = exact.map(Math.floor);
  let rest = take - shares.reduce((sum, share) => sum + share, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, frac: value - Math.floor(value) }))
    .sort((a, b) => b.frac - a.frac);
  for (const { index } of byRemainder) {
    if (rest <= 0) break;
    if (shares[index] < parts[index]) {
      shares[index] += 1;
      rest -= 1;
    }
  }
  return shares;
}

/** A payment over dues in the order given (oldest first), each up to its balance. */
export function allocateOldestFirst(
  amount: number,
  dues: { dueId: string; balance: number }[],
): { dueId: string; amount: number }[] {
  const out: { dueId: string; amount: number }[] = [];
  let left = amount;
  for (const due of dues) {
    if (left <= 0) break;
    const take = Math.min(left, due.balance);
    if (take > 0) {
      out.push({ dueId: due.dueId, amount: take });
      left -= take;
    }
  }
  return out;
}

/**
 * The late fee a due has earned by `on` while it stayed unpaid: nothing within the grace days,
 * then the flat amount, or the daily amount for each day past them; never above the cap.
 */
export function lateFeeBy(rule: LateFeeRule | null | undefined, dueOn: string, on: string): number {
  if (!rule) return 0;
  const late = daysBetween(dueOn, on) - rule.graceDays;
  if (late <= 0) return 0;
  const earned = rule.kind === "flat" ? rule.amount : rule.amount * late;
  return Math.min(earned, rule.cap);
}

/** Which way each ledger entry moves what the student owes. */
export const ENTRY_SIGN = {
  due: 1,
  "late-fee": 1,
  reversal: 1,
  charge: 1,
  refund: 1,
  discount: -1,
  cancellation: -1,
  payment: -1,
  waiver: -1,
} as const;
export type FeeEntryKind = keyof typeof ENTRY_SIGN;

/** One due's ledger entries, as the figures need them. */
export interface DueEntries {
  amount: number;
  dueOn: string;
  lateFee: LateFeeRule | null;
  entries: { kind: FeeEntryKind; amount: number }[];
}

export interface DueFigures {
  discount: number;
  paid: number;
  /** Posted late fees and what has accrued since, not yet posted. */
  lateFee: number;
  accrued: number;
  waived: number;
  /** Charges such as a bounced cheque's fee. */
  charges: number;
  /** Given back to a student who left (decision 0048); `paid` is net of it. */
  refunded: number;
  /** The fee no longer charged because the student left (the unused period, decision 0048). */
  cancelled: number;
  balance: number;
  overdueDays: number;
}

/**
 * A due's figures on the India date `on`, derived from its ledger: what was taken off, paid
 * (payments less reversals), waived, the late fee (posted, plus what the rule has earned since
 * while a balance remained), what is left and for how many days past its last date.
 */
export function dueFigures(due: DueEntries, on: string): DueFigures {
  const sum = (kind: FeeEntryKind) => due.entries.filter((e) => e.kind === kind).reduce((s, e) => s + e.amount, 0);
  const discount = sum("discount");
  const refunded = sum("refund");
  const cancelled = sum("cancellation");
  const paid = sum("payment") - sum("reversal") - refunded;
  const posted = sum("late-fee");
  const waived = sum("waiver");
  const charges = sum("charge");
  const before = due.amount - discount - cancelled - paid + posted + charges - waived;
  const accrued = before > 0 ? Math.max(0, lateFeeBy(due.lateFee, due.dueOn, on) - posted) : 0;
  const balance = before + accrued;
  const overdueDays = balance > 0 ? Math.max(0, daysBetween(due.dueOn, on)) : 0;
  return {
    discount,
    paid,
    lateFee: posted + accrued,
    accrued,
    waived,
    charges,
    refunded,
    cancelled,
    balance,
    overdueDays,
  };
}

/**
 * An institute's fee rules when it has saved none (a `fee_settings` row): reminders 3 days
 * before, on the day and 3 days after a last date; a defaulter once overdue more than 15 days.
 */
export const FEE_SETTING_DEFAULTS = {
  remindDaysBefore: 3,
  remindOnDay: true,
  remindDaysAfter: 3,
  defaulterAfterDays: 15,
} as const;

/** The three reminders a due gets, each once: before its last date, on it, after it. */
export const REMINDER_STAGES = ["before", "on", "after"] as const;
export type ReminderStage = (typeof REMINDER_STAGES)[number];

/**
 * Which reminder a due with last date `dueOn` gets on India date `today`, or null. Days before
 * or after of 0 switch that reminder off (it would fall on the day itself, which `remindOnDay`
 * decides).
 */
export function reminderStage(
  dueOn: string,
  today: string,
  rules: { remindDaysBefore: number; remindOnDay: boolean; remindDaysAfter: number },
): ReminderStage | null {
  const until = daysBetween(today, dueOn);
  if (until === 0) return rules.remindOnDay ? "on" : null;
  if (until > 0) return rules.remindDaysBefore > 0 && until === rules.remindDaysBefore ? "before" : null;
  return rules.remindDaysAfter > 0 && -until === rules.remindDaysAfter ? "after" : null;
}

/** What an account (or any set of dues) owes, from its dues' figures: in all, past their last dates, since when. */
export interface Owing {
  balance: number;
  overdue: number;
  /** The last date of the oldest due still unpaid after it, or null. */
  oldestDueOn: string | null;
  daysOverdue: number;
}

export function owingOf(dues: { dueOn: string; balance: number; overdueDays: number }[]): Owing {
  let balance = 0;
  let overdue = 0;
  let oldestDueOn: string | null = null;
  let daysOverdue = 0;
  for (const due of dues) {
    balance += due.balance;
    if (due.overdueDays <= 0 || due.balance <= 0) continue;
    overdue += due.balance;
    if (oldestDueOn === null || due.dueOn < oldestDueOn) oldestDueOn = due.dueOn;
    daysOverdue = Math.max(daysOverdue, due.overdueDays);
  }
  return { balance, overdue, oldestDueOn, daysOverdue };
}

/** A defaulter: owes something past its last date by more than `afterDays` days. */
export const isDefaulter = (owing: Owing, afterDays: number): boolean =>
  owing.overdue > 0 && owing.daysOverdue > afterDays;
