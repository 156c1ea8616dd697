import { describe, expect, it } from "vitest";
import {
  allocateOldestFirst,
  dueFigures,
  isDefaulter,
  lateFeeBy,
  owingOf,
  reminderStage,
  spread,
  stackDiscounts,
  toPaise,
} from "./fees";

describe("fee arithmetic (issue 42, decision 0045)", () => {
  it("stacks discounts in the fixed order, each on what the ones before left, never past the whole fee", () => {
    // Given custom first and scholarship second, the scholarship still applies first.
    const stacked = stackDiscounts(100_000, [
      { kind: "custom", amount: 5_000 },
      { kind: "scholarship", percent: 50 },
      { kind: "sibling", percent: 10 },
    ]);
    expect(stacked.map((s) => [s.terms.kind, s.off])).toEqual([
      ["scholarship", 50_000],
      ["sibling", 5_000],
      ["custom", 5_000],
    ]);
    const capped = stackDiscounts(100_000, [
      { kind: "scholarship", percent: 100 },
      { kind: "custom", amount: 1_000 },
    ]);
    expect(capped.map((s) => s.off)).toEqual([100_000, 0]);
    expect(stackDiscounts(100_000, [{ kind: "custom", amount: 250_000 }])[0].off).toBe(100_000);
  });

  it("spreads an amount over instalments in proportion, the paise left over to the largest remainders", () => {
    expect(spread(1_000, [5_000, 3_000, 2_000])).toEqual([500, 300, 200]);
    expect(spread(100, [1, 1, 1])).toEqual([1, 1, 1]);
    const shares = spread(1_001, [3_333, 3_333, 3_334]);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(1_001);
    expect(spread(50, [0, 0])).toEqual([0, 0]);
  });

  it("settles the oldest dues first, each up to its balance", () => {
    const dues = [
      { dueId: "a", balance: 10_000 },
      { dueId: "b", balance: 0 },
      { dueId: "c", balance: 20_000 },
    ];
    expect(allocateOldestFirst(15_000, dues)).toEqual([
      { dueId: "a", amount: 10_000 },
      { dueId: "c", amount: 5_000 },
    ]);
  });

  it("charges a late fee only past the grace days, per day or flat, never above the cap", () => {
    const perDay = { kind: "per-day" as const, amount: 5_000, graceDays: 5, cap: 100_000 };
    expect(lateFeeBy(perDay, "2026-10-01", "2026-10-06")).toBe(0);
    expect(lateFeeBy(perDay, "2026-10-01", "2026-10-07")).toBe(5_000);
    expect(lateFeeBy(perDay, "2026-10-01", "2026-10-31")).toBe(100_000);
    expect(lateFeeBy({ ...perDay, kind: "flat" }, "2026-10-01", "2026-10-31")).toBe(5_000);
    expect(lateFeeBy(null, "2026-10-01", "2026-12-31")).toBe(0);
  });

  it("derives a due's balance from its ledger: discounts, payments less reversals, late fees and waivers", () => {
    const rule = { kind: "per-day" as const, amount: 1_000, graceDays: 0, cap: 50_000 };
    const due = {
      amount: 100_000,
      dueOn: "2026-10-01",
      lateFee: rule,
      entries: [
        { kind: "due" as const, amount: 100_000 },
        { kind: "discount" as const, amount: 10_000 },
        { kind: "payment" as const, amount: 30_000 },
        { kind: "payment" as const, amount: 20_000 },
        { kind: "reversal" as const, amount: 20_000 },
        { kind: "late-fee" as const, amount: 3_000 },
      ],
    };
    // On 2026-10-06: 5 days late, 5,000 earned of which 3,000 is posted.
    expect(dueFigures(due, "2026-10-06")).toEqual({
      discount: 10_000,
      paid: 30_000,
      lateFee: 5_000,
      accrued: 2_000,
      waived: 0,
      charges: 0,
      refunded: 0,
      cancelled: 0,
      balance: 65_000,
      overdueDays: 5,
    });
    // Paid that day: the desk posts the 2,000 earned, then takes 65,000; nothing accrues after.
    const settled = {
      ...due,
      entries: [
        ...due.entries,
        { kind: "late-fee" as const, amount: 2_000 },
        { kind: "payment" as const, amount: 65_000 },
      ],
    };
    expect(dueFigures(settled, "2026-10-20")).toMatchObject({ balance: 0, accrued: 0, overdueDays: 0 });
    // A student who left (decision 0048): 20,000 of the payments given back and the 83,000 still asked not charged.
    const left = {
      ...due,
      entries: [
        ...due.entries,
        { kind: "refund" as const, amount: 20_000 },
        { kind: "cancellation" as const, amount: 83_000 },
      ],
    };
    expect(dueFigures(left, "2026-10-06")).toMatchObject({
      paid: 10_000,
      refunded: 20_000,
      cancelled: 83_000,
      balance: 0,
      accrued: 0,
      overdueDays: 0,
    });
  });

  it("turns rupees into whole paise", () => {
    expect(toPaise(0.1 + 0.2)).toBe(30);
    expect(toPaise(24_999.99)).toBe(2_499_999);
  });
});

describe("reminder stages and defaulters", () => {
  const rules = { remindDaysBefore: 3, remindOnDay: true, remindDaysAfter: 3 };
  it("name the stage of the day, and none on other days or for a stage switched off", () => {
    expect(reminderStage("2027-06-15", "2027-06-12", rules)).toBe("before");
    expect(reminderStage("2027-06-15", "2027-06-15", rules)).toBe("on");
    expect(reminderStage("2027-06-15", "2027-06-18", rules)).toBe("after");
    for (const day of ["2027-06-11", "2027-06-13", "2027-06-14", "2027-06-16", "2027-06-19"])
      expect(reminderStage("2027-06-15", day, rules)).toBeNull();
    const off = { remindDaysBefore: 0, remindOnDay: false, remindDaysAfter: 0 };
    for (const day of ["2027-06-12", "2027-06-15", "2027-06-18"])
      expect(reminderStage("2027-06-15", day, off)).toBeNull();
  });

  it("sum what is owed and overdue, and call a defaulter only past the days", () => {
    const owing = owingOf([
      { dueOn: "2027-05-01", balance: 0, overdueDays: 0 },
      { dueOn: "2027-05-20", balance: 5_000, overdueDays: 26 },
      { dueOn: "2027-06-01", balance: 7_000, overdueDays: 14 },
      { dueOn: "2027-07-01", balance: 9_000, overdueDays: 0 },
    ]);
    expect(owing).toEqual({ balance: 21_000, overdue: 12_000, oldestDueOn: "2027-05-20", daysOverdue: 26 });
    expect(isDefaulter(owing, 25)).toBe(true);
    expect(isDefaulter(owing, 26)).toBe(false);
    expect(isDefaulter(owingOf([{ dueOn: "2027-07-01", balance: 9_000, overdueDays: 0 }]), 0)).toBe(false);
  });
});
