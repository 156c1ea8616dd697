import { describe, expect, it } from "vitest";
import { NUMBER_TEXTS, unreachableNumber } from "./reachable-numbers.ts";

const platform = { international: false, forInstitute: false };
const institute = { international: false, forInstitute: true };
const worldwide = { international: true, forInstitute: true };

describe("numbers WhatsApp and SMS may go to", () => {
  it("are Indian mobile numbers by default", () => {
    expect(unreachableNumber("+919876543210", platform)).toBeNull();
    expect(unreachableNumber("+916000000001", institute)).toBeNull();
  });

  it("never Indian toll-free or fixed lines", () => {
    expect(unreachableNumber("+9118001234567", worldwide)).toBe(NUMBER_TEXTS.notMobile);
    expect(unreachableNumber("+911123456789", worldwide)).toBe(NUMBER_TEXTS.notMobile);
  });

  it("abroad only for an institute that enabled them, and only mobile numbers", () => {
    expect(unreachableNumber("+447400123456", platform)).toBe(NUMBER_TEXTS.outsideIndia);
    expect(unreachableNumber("+447400123456", institute)).toBe(NUMBER_TEXTS.outsideIndiaForInstitute);
    expect(unreachableNumber("+447400123456", worldwide)).toBeNull();
    expect(unreachableNumber("+23276123456", worldwide)).toBeNull();
  });

  it("never premium-rate, shared-cost or made-up numbers, wherever they are", () => {
    for (const number of ["+19005550123", "+4490990000", "+441632960000", "+882123456789", "+3909001234567", "+12"])
      expect(unreachableNumber(number, worldwide), number).toBe(NUMBER_TEXTS.notMobile);
  });
});
