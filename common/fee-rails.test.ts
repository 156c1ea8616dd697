import { describe, expect, it } from "vitest";
import { isMonthly, paymentRails, UPI_AUTOPAY_LIMIT } from "./fee-rails";

const monthly = (amount: number) =>
  ["2027-04-05", "2027-05-05", "2027-06-05", "2027-07-05"].map((dueOn) => ({ dueOn, amount }));

describe("the payment method follows the amount (issue 42 §7)", () => {
  it("knows a monthly schedule", () => {
    expect(isMonthly(["2027-01-31", "2027-02-28", "2027-03-31"])).toBe(true);
    expect(isMonthly(["2027-04-01", "2027-10-01"])).toBe(false);
    expect(isMonthly(["2027-04-01", "2027-05-01", "2027-08-01"])).toBe(false);
  });

  it("offers UPI Autopay for monthly dues up to ₹15,000 and an e-mandate above", () => {
    expect(paymentRails(monthly(UPI_AUTOPAY_LIMIT)).recurring).toBe("upi-autopay");
    expect(paymentRails(monthly(UPI_AUTOPAY_LIMIT + 1)).recurring).toBe("e-mandate");
    expect(paymentRails(monthly(UPI_AUTOPAY_LIMIT + 1)).recurringWords).toContain("bank e-mandate (NACH)");
  });

  it("offers one-time payments only for lump sums and instalments", () => {
    const rails = paymentRails([
      { dueOn: "2027-04-01", amount: 6_000_000 },
      { dueOn: "2027-10-01", amount: 4_000_000 },
    ]);
    expect(rails).toMatchObject({ recurring: null, recurringWords: null });
    expect(rails.oneTime).toContain("UPI, card or net banking");
  });
});
