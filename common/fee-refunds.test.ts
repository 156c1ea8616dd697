import { describe, expect, it } from "vitest";
import { closeAccount, refundWorking } from "./fee-refunds";

describe("refunds when a student leaves (decision 0048)", () => {
  const heads = [
    { name: "Admission", amount: 500_000, nonRefundable: true },
    { name: "Tuition", amount: 9_500_000 },
  ];
  const dues = [
    { dueId: "a", amount: 6_000_000, discount: 600_000, paid: 5_400_000, penalties: 20_000 },
    { dueId: "b", amount: 4_000_000, discount: 400_000, paid: 0, penalties: 0 },
  ];

  it("keeps the non-refundable heads at their discounted share, the used days and the penalties", () => {
    const w = refundWorking({ heads, dues, course: { from: "2026-04-01", to: "2027-03-31" }, leftOn: "2026-06-12" });
    // A 10 % discount: the fee is ₹90,000, the admission kept at ₹4,500.
    expect(w.fee).toBe(9_000_000);
    expect(w.nonRefundable.amount).toBe(450_000);
    expect(w.days).toEqual({ used: 73, total: 365 });
    expect(w.usedFee).toBe(Math.round((8_550_000 * 73) / 365));
    expect(w.kept).toBe(450_000 + w.usedFee + 20_000);
    expect(w.proposed).toBe(5_400_000 - w.kept);
    expect(w.refundBy).toBe("2026-06-22");
  });

  it("proposes everything refundable before the course starts and nothing past its end", () => {
    const course = { from: "2026-04-01", to: "2027-03-31" };
    expect(refundWorking({ heads, dues, course, leftOn: "2026-03-01" }).usedFee).toBe(0);
    const late = refundWorking({ heads, dues, course, leftOn: "2027-05-01" });
    expect(late.days.used).toBe(365);
    expect(late.proposed).toBe(0);
    expect(late.stillOwed).toBe(late.kept - 5_400_000);
  });

  it("closes every due at zero: money kept on the oldest dues, given back from the latest", () => {
    const lines = closeAccount(
      [
        { dueId: "a", charged: 6_000_000, paid: 6_000_000 },
        { dueId: "b", charged: 4_000_000, paid: 1_000_000 },
      ],
      3_000_000,
    );
    expect(lines).toEqual([
      { dueId: "a", refund: 2_000_000, cancellation: 2_000_000 },
      { dueId: "b", refund: 1_000_000, cancellation: 4_000_000 },
    ]);
    // Each due: charged - cancellation = paid - refund (what is kept).
    expect(lines.reduce((s, l) => s + l.refund, 0)).toBe(3_000_000);
  });
});
