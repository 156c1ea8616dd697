import { describe, expect, it } from "vitest";
import { mandateWords } from "./fee-mandates.ts";

const upi = { rail: "upi-autopay", maxAmount: 3_500, expiresAt: "2027-06-30T00:00:00.000Z" } as const;

describe("mandateWords", () => {
  it("speaks to the family about their own bank and their notices", () => {
    expect(mandateWords({ ...upi, status: "active" }, "family")).toBe(
      "UPI Autopay collects each due a couple of days before its last date (up to ₹3,500 a month, until Jun 30, 2027). You are told before each debit.",
    );
    expect(mandateWords({ ...upi, rail: "e-mandate", status: "pending" }, "family")).toBe(
      "Bank e-mandate (NACH) is waiting for your bank's approval (up to ₹3,500 a month). Until then, pay each due as it comes.",
    );
  });

  it("tells the institute about the payer's, never 'your', bank", () => {
    expect(mandateWords({ ...upi, status: "active" }, "institute")).toBe(
      "UPI Autopay collects each due a couple of days before its last date (up to ₹3,500 a month, until Jun 30, 2027).",
    );
    expect(mandateWords({ ...upi, rail: "e-mandate", status: "pending" }, "institute")).toBe(
      "Bank e-mandate (NACH) is waiting for the payer's bank to approve it (up to ₹3,500 a month).",
    );
  });
});
