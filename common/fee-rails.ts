import { daysBetween } from "./india-dates.ts";
import { formatRupees } from "./format.ts";

/**
 * The payment method follows the amount (issue 42 §7; institute-operations.md: "UPI Autopay debits
 * above ₹15,000 need the payer's approval each time for education … e-mandate (NACH) has no such
 * per-debit rule"). Client-safe: the student's Fees page and the owner's account view say which
 * way a plan's dues can be collected. One-time payments (Checkout: UPI, cards, net banking; or a
 * payment link) are offered for every due; a monthly plan's payer may also set up the standing
 * instruction named here (server/services/fees/mandates.ts, decision 0051).
 */

/** Paise: the most a UPI Autopay debit for education may be without the payer's approval each time. */
export const UPI_AUTOPAY_LIMIT = 1_500_000;

/** A schedule of monthly dues: at least three, each 28 to 31 days after the one before. */
export function isMonthly(dueOns: string[]): boolean {
  if (dueOns.length < 3) return false;
  const sorted = [...dueOns].sort();
  return sorted.every(
    (d, i) => i === 0 || (daysBetween(sorted[i - 1], d) >= 28 && daysBetween(sorted[i - 1], d) <= 31),
  );
}

export type RecurringRail = "upi-autopay" | "e-mandate" | null;

export interface PaymentRails {
  /** Always: each due paid once, by Checkout (UPI, card, net banking) or a payment link. */
  oneTime: string;
  recurring: RecurringRail;
  /** The recurring way in words, or null for a plan that is not monthly. */
  recurringWords: string | null;
}

/** The rails for a plan's dues (paise): monthly dues up to ₹15,000 by UPI Autopay, above it by e-mandate. */
export function paymentRails(dues: { dueOn: string; amount: number }[]): PaymentRails {
  const oneTime = "Pay each due by UPI, card or net banking (Pay), or by a payment link from the institute.";
  if (!isMonthly(dues.map((d) => d.dueOn))) return { oneTime, recurring: null, recurringWords: null };
  const largest = Math.max(...dues.map((d) => d.amount));
  if (largest <= UPI_AUTOPAY_LIMIT)
    return {
      oneTime,
      recurring: "upi-autopay",
      recurringWords: `Monthly dues of at most ${formatRupees(largest / 100)}: UPI Autopay can collect them each month without asking you again (up to ${formatRupees(UPI_AUTOPAY_LIMIT / 100)} a debit), a couple of days before each last date.`,
    };
  return {
    oneTime,
    recurring: "e-mandate",
    recurringWords: `Monthly dues above ${formatRupees(UPI_AUTOPAY_LIMIT / 100)}: UPI Autopay would need your approval for every debit, so a bank e-mandate (NACH) is offered instead: your bank debits each due a couple of days before its last date.`,
  };
}
