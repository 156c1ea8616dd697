import { describe, expect, it } from "vitest";
import { readPriceInput } from "./plans.ts";

describe("a plan price typed into an editor", () => {
  it("takes whole, non-negative rupees, with grouping and a rupee sign", () => {
    expect(readPriceInput("5000", "monthly")).toEqual({ ok: true, price: 5000 });
    expect(readPriceInput(" ₹14,000 ", "quarterly")).toEqual({ ok: true, price: 14000 });
    expect(readPriceInput("0", "yearly")).toEqual({ ok: true, price: 0 });
  });

  it("refuses what is not a whole number of rupees instead of publishing ₹0", () => {
    for (const typed of ["abc", "12.50", "5e3", "1O00", "0x10", "5000abc"])
      expect(readPriceInput(typed, "monthly")).toEqual({
        ok: false,
        message: "Monthly price must be a whole number of rupees",
      });
  });

  it("names an empty, negative or too large price", () => {
    expect(readPriceInput("", "quarterly")).toEqual({ ok: false, message: "Quarterly price is required" });
    expect(readPriceInput(null, "monthly")).toEqual({ ok: false, message: "Monthly price is required" });
    expect(readPriceInput("-5", "yearly")).toEqual({ ok: false, message: "Yearly price cannot be negative" });
    expect(readPriceInput("10000001", "monthly")).toEqual({
      ok: false,
      message: "Monthly price cannot be more than ₹1,00,00,000",
    });
  });
});
